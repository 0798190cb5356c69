"""perft: the reference engine reproduces spec/perft/, through its API and through an adapter."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from conformance.adapter import Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.explore.perft import PerftCase, adapter_divide, adapter_perft, cases, check
from crescent_ref.game import Game
from crescent_ref.perft import MAX_DEPTH, divide, perft
from crescent_ref.spec_files import spec_dir

SPY = Path(__file__).resolve().parents[1] / "conformance" / "fakes" / "pipe_spy.py"

CASES = cases()


def test_the_file_matches_its_schema() -> None:
    schema = json.loads((spec_dir() / "schema" / "perft.schema.json").read_text(encoding="utf-8"))
    data = yaml.safe_load((spec_dir() / "perft" / "positions.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_there_are_cases_for_every_base_profile() -> None:
    assert {c.profile.split("+")[0] for c in CASES} == {"app", "open", "hoffmann-1892", "morehead-1949"}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.name}[{c.profile}]" for c in CASES])
def test_engine_counts(case: PerftCase) -> None:
    game = Game.from_text(case.profile, case.position)
    assert {d: perft(game, d) for d in case.counts} == case.counts
    assert game.position.to_text() == case.position  # perft leaves the game as it was


@pytest.mark.parametrize("case", CASES[:6], ids=[f"{c.name}[{c.profile}]" for c in CASES[:6]])
def test_adapter_counts_agree_with_the_engine(case: PerftCase) -> None:
    assert adapter_perft(ReferenceAdapter(), case.profile, case.position, 2) == case.counts[2]


def test_divide_splits_the_count() -> None:
    case = CASES[0]
    game = Game.from_text(case.profile, case.position)
    split = divide(game, 3)
    assert sum(split.values()) == case.counts[3] and "reshuffle" in split
    assert adapter_divide(ReferenceAdapter(), case.profile, case.position, 2) == divide(game, 2)


def test_depth_zero_is_one_and_divide_needs_depth() -> None:
    game = Game.from_text(CASES[0].profile, CASES[0].position)
    assert perft(game, 0) == 1
    with pytest.raises(ValueError, match="depth of 1"):
        divide(game, 0)


@pytest.mark.parametrize("depth", [-1, MAX_DEPTH + 1])
def test_a_depth_out_of_range_is_refused_before_any_count(depth: int) -> None:
    """A negative depth never reached 0 (the recursion overflowed: a kit bug's traceback in the CLI)."""
    game = Game.from_text(CASES[0].profile, CASES[0].position)
    with pytest.raises(ValueError, match=f"0 to {MAX_DEPTH}, got {depth}"):
        perft(game, depth)
    with pytest.raises(ValueError, match=f"1 to {MAX_DEPTH}, got {depth}"):
        divide(game, depth)


class ListsGarbage(ReferenceAdapter):
    """Lists an unreadable move beside the real ones; ``accepts`` says whether playing it is accepted."""

    def __init__(self, accepts: bool) -> None:
        super().__init__()
        self.accepts = accepts

    def legal_moves(self) -> list[str]:
        return [*super().legal_moves(), "zz"]

    def act(self, action: str) -> Reply:
        if action != "zz":
            return super().act(action)
        state = super().start("app", position=CASES[0].position)  # any state: perft reads only its counters
        return Reply(
            self.accepts, None if self.accepts else "no-such-card", "move" if self.accepts else None, (), state
        )


@pytest.mark.parametrize("accepts", [True, False])
@pytest.mark.parametrize("counters", [True, False], ids=["own-counter", "reference-counter"])
def test_an_unreadable_counted_move_fails_the_case_and_is_named(accepts: bool, counters: bool) -> None:
    case = PerftCase(CASES[0].name, CASES[0].profile, CASES[0].position, {1: CASES[0].counts[1]})
    problems = check(ListsGarbage(accepts), case, reshuffle_count=counters)
    assert problems and any("'zz'" in line or line.endswith("actions: zz") for line in problems), problems


def test_over_stdio_a_node_and_its_leaves_go_in_few_writes(tmp_path: Path) -> None:
    # Each node's calls (the start, the path replayed, its legal moves) are announced, and a node above
    # the leaves announces all its children's: an adapter that pipelines sends each lot in one write
    # (one batch line for the reference's serve), not one round trip a request.
    case = next(c for c in cases() if c.profile == "app" and max(c.counts) >= 3)
    serve = [sys.executable, "-m", "crescent_ref.serve"]
    adapter = StdioAdapter(shlex.join([sys.executable, str(SPY), str(tmp_path), *serve]))
    try:
        assert adapter_perft(adapter, case.profile, case.position, 3) == case.counts[3]
        calls = adapter.calls
    finally:
        adapter.close()
    lines = (tmp_path / "sent").read_bytes().count(b"\n") - 1  # less the handshake
    assert calls > 300 and lines * 10 < calls, (lines, calls)


def test_the_perft_command_names_the_implementation_or_its_label(capsys: pytest.CaptureFixture[str]) -> None:
    """--label names the run in the summary line (it was taken and never shown)."""
    from conformance.cli import main
    from crescent_ref import __version__

    assert main(["perft", "--max-depth", "1"]) == 0
    assert f"perft of crescent_ref {__version__}: " in capsys.readouterr().out.splitlines()[-1]
    assert main(["perft", "--max-depth", "1", "--label", "my-game 2.4"]) == 0
    assert "perft of my-game 2.4: " in capsys.readouterr().out.splitlines()[-1]
