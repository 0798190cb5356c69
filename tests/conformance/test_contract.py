"""Every command honours every element of the contract: the reference, wrapped to play and declare one
element each (tests/conformance/declaring.py), gets no false failure or finding from any command.

The table is commands x elements. Each element is a game that plays exactly what it declares:

- ``missing-capability``: verdict only, no move counter, no reshuffle counter, never ``lost``;
- ``partial-reasons``: five reason codes named, no reason for the other refusals;
- ``base-with-variants``: ``{"app": {"reshuffles": 4, "give_backs": false}}`` (app+six keeps six,
  app+give-backs keeps its give-backs);
- ``unbounded-undo``: ``{"app": {"undo_limit": null}}``;
- ``expectation-listed``: a game refusing every reshuffle, its differences listed in an
  expectations file written by the kit itself (``run --write-expectations`` and the other commands' keys);
- ``no-game-codes``: no ``game-codes``; scenarios that start from a code start from the dealt position.

Fuzz plays a short budget here (40 games); docs/fuzzing.md and tests/fuzz hold its own table.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from declaring import NAMED

from conformance.adapters.session import make_adapter
from conformance.cli import main
from conformance.logs.record import random_actions
from crescent_ref.game import Game
from crescent_ref.profiles import Profile

HERE = Path(__file__).resolve().parent
CODE = "CR1-N-BAAAAAA"  # the solver wins it in a few seconds (docs/solver.md)


@dataclass(frozen=True)
class Element:
    """One element of the contract: the game that declares it, the rules it plays, what its logs' header says."""

    impl: str
    plays: dict[str, dict[str, Any]] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)
    log_profile: str = "app"
    listed: bool = False  # its differences are listed in an expectations file


ELEMENTS = {
    "missing-capability": Element("declaring:missing_capabilities", header={"observes": []}),
    "partial-reasons": Element("declaring:partial_reasons", header={"reason_codes": sorted(NAMED)}),
    "base-with-variants": Element(
        "declaring:base_with_variants",
        plays={"app": {"reshuffles": 4, "give_backs": False}},
        header={"deviations": {"app": {"reshuffles": 4, "give_backs": False}}},
        log_profile="app+six",
    ),
    "unbounded-undo": Element(
        "declaring:unbounded_undo",
        plays={"app": {"undo_limit": None}},
        header={"deviations": {"app": {"undo_limit": None}}},
    ),
    "expectation-listed": Element("declaring:refuses_reshuffles", listed=True),
    "no-game-codes": Element("declaring:no_game_codes"),
}


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--impl declaring:...`` finds this folder."""
    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))


def game_log(element: Element, path: Path, count: int = 80, seed: int = 3) -> Path:
    """A log of ``count`` random actions written from what the element's game replies, its header declaring
    what the game declares (observations, reason codes, deviations)."""
    adapter = make_adapter(element.impl, None, 10.0)
    rules = Profile.declared(element.log_profile, element.plays.get("app", {}))
    shadow = Game.deal(rules, CODE)
    start = {"position": shadow.position.to_text()} if "codes" in element.impl else {"code": CODE}
    state = adapter.start(element.log_profile, **start)
    head = {"crescent_log": 1, "profile": element.log_profile, **start, **element.header}
    lines = [{**head, "state": _fields(state)}]
    for action in list(_actions(shadow, count, seed)):
        reply = adapter.act(action)
        record: dict[str, Any] = {"action": action, "accepted": reply.accepted, "state": _fields(reply.state)}
        if reply.reason is not None:
            record["reason"] = reply.reason
        lines.append(record)
    adapter.close()
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def _actions(shadow: Game, count: int, seed: int) -> list[str]:
    """Random actions played on the shadow game (the rules as played), a reshuffle among the first."""
    actions = ["reshuffle"]
    shadow.apply("reshuffle")
    for action in random_actions(shadow, random.Random(seed)):
        if len(actions) >= count:
            break
        shadow.apply(action)
        actions.append(action)
    return actions


def _fields(state: dict[str, Any]) -> dict[str, Any]:
    return {k: state[k] for k in ("piles", "moves", "reshuffles", "status")}


@functools.cache
def expectations_file(folder: str) -> Path:
    """The expectations of the listed element, written by the kit from its own runs of every command."""
    element = ELEMENTS["expectation-listed"]
    path = Path(folder) / "known.yaml"
    assert main(["run", "--impl", element.impl, "--profile", "app", "-q", "--write-expectations", str(path)]) == 1
    extra = [f"  perft/{key}: refuses reshuffles" for key in _perft_failures(element)]
    extra.append("  fuzz/reason:no-reshuffles: refuses reshuffles")
    extra.append(f"  log/{game_log(element, Path(folder) / 'listed.jsonl').name}: refuses reshuffles")
    if main(["winnable", "--impl", element.impl, "--codes", CODE, "--seconds", "20"]) != 0:  # a line may need none
        extra.append(f"  winnable/{CODE}[app]: refuses reshuffles")
    text = path.read_text(encoding="utf-8").replace("deviations: {}", "deviations:")
    path.write_text(text + "\n".join(extra) + "\n", encoding="utf-8")
    return path


def _perft_failures(element: Element) -> list[str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["perft", "--impl", element.impl, "--max-depth", "1"])
    return re.findall(r"FAILED\s+perft/(\S+)", out.getvalue())


def contract_args(element: Element, tmp: Path) -> list[str]:
    """``--impl`` and, for the listed element, ``--expectations``."""
    listed = (
        ["--expectations", str(expectations_file(str(tmp.parent / "shared-expectations")))] if element.listed else []
    )
    return ["--impl", element.impl, *listed]


def shared(tmp: Path) -> None:
    (tmp.parent / "shared-expectations").mkdir(exist_ok=True)


def run_command(element: Element, tmp: Path, out: str) -> int:
    code = main(["run", *contract_args(element, tmp), "--profile", "app", "-q", "--report", str(tmp / "r.json")])
    report = json.loads((tmp / "r.json").read_text(encoding="utf-8"))
    assert report["summary"].get("failed", 0) == report["summary"].get("errored", 0) == 0
    assert report["contract"]["command"] == f"--impl {element.impl}"
    return code


def smoke_command(element: Element, tmp: Path, out: str) -> int:
    return main(["smoke", *contract_args(element, tmp)])


def perft_command(element: Element, tmp: Path, out: str) -> int:
    return main(["perft", *contract_args(element, tmp), "--max-depth", "1"])


def check_log_command(element: Element, tmp: Path, out: str) -> int:
    if element.listed:
        expectations_file(str(tmp.parent / "shared-expectations"))
        log = tmp.parent / "shared-expectations" / "listed.jsonl"
        return main(["check-log", str(log), *contract_args(element, tmp)[2:]])
    return main(["check-log", str(game_log(element, tmp / "game.jsonl"))])


def fuzz_command(element: Element, tmp: Path, out: str) -> int:
    return main(["fuzz", *contract_args(element, tmp), "--games", "40", "--quiet", "--out", str(tmp / "found")])


def winnable_command(element: Element, tmp: Path, out: str) -> int:
    return main(["winnable", *contract_args(element, tmp), "--codes", CODE, "--seconds", "20"])


def reports_command(element: Element, tmp: Path, out: str) -> int:
    """report, html-report, matrix, compare (against the reference) and badge, from the run's report."""
    run_command(element, tmp, out)
    mine = tmp / "r.json"
    assert main(["run", "--profile", "app", "-q", "--label", "reference", "--report", str(tmp / "ref.json")]) == 0
    codes = [main(["report", str(mine)]), main(["html-report", str(mine), "--out", str(tmp / "r.html")])]
    codes.append(main(["matrix", str(tmp / "ref.json"), str(mine), "--out", str(tmp / "m.html")]))
    codes.append(main(["compare", str(tmp / "ref.json"), str(mine)]))
    codes.append(main(["badge", str(mine), "--out", str(tmp / "b.svg")]))
    matrix = (tmp / "m.html").read_text(encoding="utf-8")
    assert 'class="mark failed"' not in matrix and 'class="mark errored"' not in matrix
    assert f"--impl {element.impl}" in (tmp / "r.html").read_text(encoding="utf-8") or "failures (0)" in matrix
    return max(codes)


def plugin_command(element: Element, tmp: Path, out: str) -> int:
    import subprocess
    import sys

    listed = contract_args(element, tmp)[2:]
    args = ["--crescent-impl", element.impl, "--crescent-profile", "app", "-q", "-p", "no:cacheprovider"]
    args += ["-p", "no:hypothesispytest", "--crescent-report", str(tmp / "p.json")]
    args += [f"--crescent-expectations={listed[1]}"] if listed else []
    done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=tmp, capture_output=True, text=True, check=False)
    report = json.loads((tmp / "p.json").read_text(encoding="utf-8"))
    assert report["contract"]["name"], done.stdout[-2000:]
    return done.returncode


COMMANDS: dict[str, Callable[[Element, Path, str], int]] = {
    "run": run_command,
    "smoke": smoke_command,
    "perft": perft_command,
    "check-log": check_log_command,
    "fuzz": fuzz_command,
    "winnable": winnable_command,
    "reports": reports_command,
    "plugin": plugin_command,
}


@pytest.mark.parametrize("element", ELEMENTS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_honours_every_element_of_the_contract(
    command: str, element: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared(tmp_path)
    code = COMMANDS[command](ELEMENTS[element], tmp_path, "")
    out = capsys.readouterr().out
    assert code == 0, out[-3000:]
    assert "FAILED" not in out.replace("SMOKE FAILED", "!") or ELEMENTS[element].listed, out[-3000:]
