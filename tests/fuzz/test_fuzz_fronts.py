"""Differential play over stdio, from the command line and under pytest (with xdist splitting the budget)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

import crescent_ref
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main
from conformance.explore.fuzz import FuzzConfig, fuzz
from conformance.explore.fuzz.database import open_database, past_cases, save_case
from conformance.explore.fuzz.duel import Duel

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"
PYTHON = shlex.quote(sys.executable)
SERVE_MUTANT = f"{PYTHON} {shlex.quote(str(CONFORMANCE / 'serve_mutant.py'))}"
FAKE = f"{PYTHON} {shlex.quote(str(CONFORMANCE / 'fakes' / 'fake_engine.py'))}"
QUIET = ("-p", "no:hypothesispytest")
sys.path.insert(0, str(CONFORMANCE))
from mutants import BY_NAME, MutantAdapter  # noqa: E402


def test_a_faulty_engine_is_found_over_stdio(tmp_path: Path) -> None:
    config = FuzzConfig(profile="app", games=60, out=tmp_path, max_findings=1)
    [finding] = fuzz(lambda: StdioAdapter(f"{SERVE_MUTANT} foundation_wrap"), config).findings
    assert finding.difference.kind == "reply" and "out-of-sequence" in finding.diagnosis.title
    assert len(finding.case.actions) <= 2


def test_every_game_over_stdio_is_played_by_one_process(tmp_path: Path) -> None:
    # A game's replies are read, then its exchange closed: that is no fault, so the process is kept
    # (each game killed it before, and fuzz paid one process start a game).
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter(f"{PYTHON} -m crescent_ref.serve"))
        return made[-1]

    report = fuzz(factory, FuzzConfig(profile="app", games=8, out=tmp_path))
    assert report.games == 8 and not report.findings
    assert [adapter.restarts for adapter in made] == [0]


def test_a_game_stopped_at_a_difference_keeps_the_stream_in_step(tmp_path: Path) -> None:
    # the first difference ends a game with replies still due: they are read, not left for the next game
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter(f"{SERVE_MUTANT} foundation_wrap"))
        return made[-1]

    report = fuzz(factory, FuzzConfig(profile="app", games=30, out=tmp_path, max_findings=3, shrink=False))
    assert report.findings and all(f.difference.kind != "fault" for f in report.findings)
    assert [adapter.restarts for adapter in made] == [0] * len(made)


CRASH_AT_MOVE = """
import os, sys
from crescent_ref import serve
answer = serve.Server._act
def act(self, request):
    if self.game is not None and self.game.position.moves >= {moves}:
        os._exit(3)  # a crash: no reply, and none of the replies of the lines read with this one
    return answer(self, request)
serve.Server._act = act
sys.exit(serve.main())
"""


def test_a_crash_is_placed_at_the_action_that_caused_it(tmp_path: Path) -> None:
    # The reference's serve answers the lines it reads together in one write, so a crash on a game's
    # fourth move loses that game's earlier replies too: the fault first shows at its loading. Played
    # again a request at a time, the game places it at the move that crashed, and it repeats there
    # (shrinking may then start the game later, from a position with moves already made).
    script = tmp_path / "crash_at_move.py"
    script.write_text(CRASH_AT_MOVE.format(moves=3), encoding="utf-8")
    config = FuzzConfig(profile="app", games=3, out=tmp_path, max_findings=3, shrink_seconds=20)
    [finding] = fuzz(lambda: StdioAdapter(f"{PYTHON} {shlex.quote(str(script))}", timeout=10), config).findings
    assert finding.difference.kind == "fault" and "exited (crash) (exit code 3)" in str(finding.difference)
    assert "not repeated" not in str(finding.difference)
    assert finding.difference.step >= 1 and finding.difference.action is not None  # at a move, not the loading


def test_while_games_keep_crashing_each_costs_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sent at once, a game that crashes is played again a request at a time to place the crash: two
    # processes a game. After a game that met a crash the next goes a request at a time, so while they
    # keep coming each crash costs one process (and a hang one timeout, not two).
    script = tmp_path / "crash_at_move.py"
    script.write_text(CRASH_AT_MOVE.format(moves=3), encoding="utf-8")

    def restarts() -> tuple[int, int]:
        made: list[StdioAdapter] = []

        def factory() -> StdioAdapter:
            made.append(StdioAdapter(f"{PYTHON} {shlex.quote(str(script))}", timeout=10))
            return made[-1]

        report = fuzz(factory, FuzzConfig(profile="app", games=12, steps=8, out=tmp_path, shrink=False))
        return sum(adapter.restarts for adapter in made), sum(sum(f.seen.values()) for f in report.findings)

    careful, faulted = restarts()
    monkeypatch.setattr(Duel, "pipelined", property(lambda self: isinstance(self.impl, StdioAdapter)))
    always, again = restarts()
    assert faulted == again >= 6, (faulted, again)
    assert careful <= always - (faulted - 2), (careful, always, faulted)


def test_a_crash_over_stdio_is_one_finding_without_a_traceback(tmp_path: Path) -> None:
    flag = tmp_path / "crashed"
    config = FuzzConfig(profile="app", games=3, out=tmp_path, max_findings=3)
    report = fuzz(lambda: StdioAdapter(f"{FAKE} crash 5 {shlex.quote(str(flag))}", timeout=10), config)
    [finding] = report.findings
    assert finding.difference.kind == "fault" and "exited (crash)" in finding.diagnosis.title
    assert "not repeated when the game was replayed" in finding.diagnosis.title  # the fake crashes only once
    assert "Traceback" not in str(finding)


def test_the_cli_prints_the_seed_and_each_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fuzz", "--impl", "mutants:no_pile_wrap", "--games", "20", "--seed", "4", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "seed 4" in out and "DIFFERENCE 1: piles:" in out and "King and Ace" in out
    assert "rule pile-wrap; seen" in out
    assert len(list(tmp_path.glob("differential-*.yaml"))) == 1


def test_the_cli_refuses_a_bad_ignore_rule_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--ignore", "nonsense"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nonsense" in err[0]


def test_the_cli_refuses_an_unknown_corner_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--corner", "no-such-corner"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-such-corner" in err[0]


def test_an_expectations_file_gives_fuzz_its_ignore_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.contract.expectations import fuzz_rules, load_expectations

    file = tmp_path / "known.yaml"
    file.write_text("deviations:\n  fuzz/reason:pile-full: no pile limit\n  fuzz/bogus: x\n  piles-001: y\n")
    assert fuzz_rules(load_expectations(file)) == ["reason:pile-full", "bogus"]
    assert main(["fuzz", "--games", "1", "--expectations", str(file)]) == 2
    assert "bogus" in capsys.readouterr().err


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(CONFORMANCE), os.environ.get("PYTHONPATH")])))
    pytester.syspathinsert(CONFORMANCE)
    return pytester


def test_pytest_fails_the_profile_with_the_findings_and_stores_them(kit: pytest.Pytester) -> None:
    result = kit.runpytest(*QUIET, "--crescent-impl=mutants:no_pile_wrap", "--crescent-fuzz=20",
                           "--crescent-profile=app", "-k", "differential", f"--crescent-fuzz-db={kit.path / 'db'}",
                           f"--crescent-fuzz-out={kit.path / 'out'}")
    result.assert_outcomes(failed=1)
    assert "DIFFERENCE 1: piles:" in result.stdout.str() and "(seed 0)" in result.stdout.str()
    cases = past_cases(open_database(kit.path / "db"), f"mutant-no_pile_wrap {crescent_ref.__version__}", "app")
    assert len(cases) == 1 and len(cases[0].actions) <= 1  # shrunk: the mask learns a rule after shrinking it


def test_stored_findings_are_replayed_first(tmp_path: Path) -> None:
    db = open_database(tmp_path / "db")
    [finding] = fuzz(lambda: MutantAdapter(BY_NAME["no_pile_wrap"]), FuzzConfig(out=None, max_findings=1)).findings
    save_case(db, "x", "app", finding.case)
    config = FuzzConfig(games=0, out=None, replay=past_cases(db, "x", "app"))
    report = fuzz(lambda: MutantAdapter(BY_NAME["no_pile_wrap"]), config)
    assert report.games == 0 and [f.case for f in report.findings] == [finding.case]


def test_parts_of_a_run_play_the_games_of_the_whole_run() -> None:
    """What xdist workers do: worker k of n plays games k, k+n, ... of the run."""
    whole = fuzz(ReferenceAdapter, FuzzConfig(profile="open", games=12, out=None))
    parts = [fuzz(ReferenceAdapter, FuzzConfig(profile="open", games=12, out=None, part=(k, 3))) for k in range(3)]
    assert sum(p.games for p in parts) == whole.games == 12
    assert sum(p.actions for p in parts) == whole.actions
