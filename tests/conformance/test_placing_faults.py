"""A crash met while requests went together is placed: the scenario and the step that caused it.

``crescent-ref serve`` answers the lines it reads together in one write, as many implementations do
(a buffered writer). So when it crashes, the replies it had not written are lost with it: the crash
first shows at an earlier call, often of an earlier scenario whose requests went in the same write.
The runner plays such a scenario again a request at a time (conformance.judging.runner ``_placed``).
Here the serve crashes on any action once its game has 3 moves: the reference engine says, for each
scenario, at which step that happens, if ever, and the verdicts must match it exactly.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from harness import PYTHON, Pair, cli, corpus, key, passing_pairs

from conformance.adapters.handshake import info_from_handshake
from conformance.adapters.stdio import StdioAdapter
from conformance.contract import Contract
from conformance.judging import runner
from conformance.judging.runner import Result, judge, run_scenarios
from conformance.judging.steps import script
from conformance.reportfile import read_report
from crescent_ref.game import Game
from crescent_ref.serve import hello

LENIENT = 30.0  # seconds a request that should succeed may take (Python starts slowly at load)
MOVES = 3

CRASH_AT_MOVES = """
import os, sys
from crescent_ref import serve
answer = serve.Server._act
def act(self, request):
    if self.game is not None and self.game.position.moves >= {moves}:
        os._exit(3)  # no reply, and none of the replies to the lines read with this one
    return answer(self, request)
serve.Server._act = act
sys.exit(serve.main())
"""


def crashing_serve(tmp_path: Path, once: bool = False, moves: int = MOVES) -> StdioAdapter:
    """A serve that crashes on an action once its game has ``moves`` moves (``once``: only the first time)."""
    return StdioAdapter(crashing_command(tmp_path, once, moves), timeout=LENIENT)


def crashing_command(tmp_path: Path, once: bool = False, moves: int = MOVES) -> str:
    """The command line of ``crashing_serve``."""
    script = tmp_path / "crash_at_moves.py"
    body = CRASH_AT_MOVES.format(moves=moves)
    if once:
        flag = shlex.quote(str(tmp_path / "fired"))
        body = body.replace("        os._exit(3)", f"        if not os.path.exists({flag!r}):\n"
                            f"            open({flag!r}, 'w').close()\n            os._exit(3)")  # fmt: skip
    script.write_text(body, encoding="utf-8")
    return f"{PYTHON} {shlex.quote(str(script))}"


def crash_step(pair: Pair) -> int | None:
    """The number of the step the serve crashes on (the first action made with MOVES moves), or None."""
    scenario, profile = pair
    start = Game.deal if scenario.code else Game.from_text
    game = start(profile, scenario.code or scenario.position or "")
    for step in scenario.steps:
        if game.position.moves >= MOVES:
            return step.number
        game.apply(step.action)
    return None


def chosen(count: int) -> list[Pair]:
    """The first ``count`` passing pairs announced whole (so later scenarios' requests go with theirs)."""
    info = info_from_handshake(hello())
    return [p for p in passing_pairs() if script(info, *p, lean=False)[1]][:count]


def test_a_buffered_crash_errors_the_scenario_and_step_that_caused_it_and_no_other(tmp_path: Path) -> None:
    pairs = chosen(60)
    adapter = crashing_serve(tmp_path)
    try:
        results = {r.key: r for r in run_scenarios(adapter, adapter.info(), pairs)}
    finally:
        adapter.close()
    expected = {key(p): crash_step(p) for p in pairs}
    errored = sum(r.verdict == "errored" for r in results.values())
    # after the first crash each scenario goes alone: one crash each, the first met twice at most
    assert errored <= adapter.restarts + 1 and adapter.restarts <= errored + 1, (adapter.restarts, errored)
    passed = {k for k, r in results.items() if r.verdict == "passed"}
    assert passed == {k for k, step in expected.items() if step is None}, "passes exactly where nothing crashes"
    for k, step in expected.items():
        result = results[k]
        if step is not None:
            assert result.verdict == "errored" and result.faulted_at is not None, (k, result.detail)
            assert result.faulted_at.number == step and result.detail.startswith(f"at step {step} ("), result.detail
            assert "exited (crash) (exit code 3)" in result.detail
    innocent = [k for n, (k, step) in enumerate(expected.items()) if step is None and
                any(s is not None for s in list(expected.values())[n + 1 : n + 1 + runner.AHEAD])]  # fmt: skip
    assert innocent, "no passing scenario was sent with a crashing one: the test proves nothing"
    cleared = [k for k in innocent if "played again a request at a time it passed" in results[k].detail]
    assert cleared, "no scenario was met by another's crash: the test proves nothing"


def test_a_buffered_crash_in_one_scenario_is_placed_at_its_step(tmp_path: Path) -> None:
    """The plugin's door: one scenario's requests go together; the error names the step, file and line."""
    pair = next(p for p in chosen(200) if (crash_step(p) or 0) > 1)
    adapter = crashing_serve(tmp_path)
    try:
        result = judge(adapter, Contract(adapter.info()), *pair)
    finally:
        adapter.close()
    assert result.verdict == "errored" and result.faulted_at is not None, result.detail
    assert result.faulted_at.number == crash_step(pair)
    assert adapter.restarts == 1, "played once with its requests together, once alone"


@pytest.mark.parametrize("ahead", [True, False], ids=["run", "one-scenario"])
def test_a_crash_that_does_not_repeat_alone_stays_errored(ahead: bool, tmp_path: Path) -> None:
    """A crash no replay repeats (here: the serve crashes only once) cannot be another scenario's: the
    scenario it was met by stays errored, saying it did not repeat; every other one passes."""
    pairs = [p for p in chosen(60) if crash_step(p) is not None][:1] + [p for p in chosen(60) if not crash_step(p)][:6]
    adapter = crashing_serve(tmp_path, once=True)
    try:
        info = adapter.info()
        if ahead:
            results: list[Result] = list(run_scenarios(adapter, info, pairs))
        else:
            results = [judge(adapter, Contract(info), *p) for p in pairs]
    finally:
        adapter.close()
    assert (tmp_path / "fired").exists()
    assert [r.verdict for r in results] == ["errored", *["passed"] * 6], [r.detail for r in results]
    assert "did not repeat" in results[0].detail and "exited (crash) (exit code 3)" in results[0].detail


def test_perft_places_a_buffered_crash_at_the_path_that_caused_it(tmp_path: Path) -> None:
    """perft sends a node's children together; a serve crashing on the third move of a game loses their
    replies, so the crash first shows at the start of the first child. Checked again a request at a time,
    the case names the path of three actions that crashed."""
    done = cli("perft", "--cmd", crashing_command(tmp_path, moves=2), "--max-depth", "4")
    line = next(x for x in done.stdout.splitlines() if "perft/deal-AAAAAAB[app]" in x)
    assert done.returncode == 1 and "errored: at playing " in line and "exited (crash) (exit code 3)" in line, line
    path = line.split("errored: at playing ", 1)[1].split(":", 1)[0].split()
    assert len(path) == 3, line
    game = Game.deal("app", "CR1-N-AAAAAAB")
    assert all(game.apply(action).accepted for action in path) and game.position.moves == 3, path


def test_winnable_places_a_buffered_crash_at_the_action_that_caused_it(tmp_path: Path) -> None:
    done = cli("winnable", "--cmd", crashing_command(tmp_path), "--codes", "CR1-N-AAAAAAB", "--seconds", "20")
    assert done.returncode == 1 and "not-won (the adapter failed: at action 4 (" in done.stdout, done.stdout
    assert "exited (crash) (exit code 3)" in done.stdout


def test_the_report_keeps_the_step_a_fault_was_placed_at(tmp_path: Path) -> None:
    saved = tmp_path / "report.json"
    done = cli("run", "--cmd", crashing_command(tmp_path), "--profile", "app", "--id", "whole-games-001",
               "--report", str(saved))  # fmt: skip
    assert done.returncode == 1, done.stderr
    [record] = read_report(saved)["results"]  # read_report checks it against spec/schema/report.schema.json
    step = next(s for s in corpus() if s.id == "whole-games-001").steps[MOVES]
    assert record["faulted_at"] == {"step": step.number, "action": step.action, "line": step.line}, record
    shown = cli("report", str(saved)).stdout
    assert f"whole-games.yaml:{step.line}: at step {step.number} ({step.action}): " in shown, shown
