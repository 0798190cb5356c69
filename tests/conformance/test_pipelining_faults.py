"""A crash met while requests go ahead is named, whatever the number of scenarios sent ahead.

The race, made deterministic: the fake engine crashes at a chosen ``act``; before a chosen write of
requests ahead the runner waits until the fake has exited, so that write meets a dead pipe. The
replies already in the pipe must still be read by the scenarios they belong to: the scenario whose
request the fake died on is errored with the crash named, the ones before it pass (their replies
came before the crash), and the ones after it pass on a fresh process. A failure played again with
whole states reads the replies sent ahead first; a crash among them stays with its own scenario.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from harness import Pair, fake_command, passing_pairs

from conformance.adapter import BATCH, Call
from conformance.adapters.handshake import info_from_handshake
from conformance.adapters.stdio import StdioAdapter
from conformance.corpus.scenarios import Expect
from conformance.judging import runner
from conformance.judging.runner import Result, run_scenarios
from conformance.judging.steps import script
from crescent_ref.serve import hello

LENIENT = 30.0  # seconds a request that should succeed may take (Python starts slowly at load)
DEATH = 20.0  # seconds the barrier waits for the fake to exit


class Barrier(StdioAdapter):
    """A stdio adapter that, before its ``wait_at``-th write of requests ahead, waits for the child to exit."""

    def __init__(self, command: str, wait_at: int) -> None:
        super().__init__(command, timeout=LENIENT)
        self.wait_at = wait_at
        self.ahead_writes = 0
        self.waited = False

    def prefetch_all(self, scripts: Sequence[Sequence[Call]], ahead: bool = False) -> None:
        if ahead:
            self.ahead_writes += 1
            if self.ahead_writes == self.wait_at and self.process is not None:
                self.waited = _exited(self.process.proc.poll)
        super().prefetch_all(scripts, ahead)


def _exited(poll: Callable[[], int | None]) -> bool:
    end = time.monotonic() + DEATH
    while time.monotonic() < end:
        if poll() is not None:
            return True
        time.sleep(0.01)
    return False


def chosen_pairs() -> list[Pair]:
    """Five passing pairs announced whole (no message step), each with two acts or more."""
    served = info_from_handshake(hello())
    info = dataclasses.replace(served, capabilities=served.capabilities - {BATCH})  # as the fake declares
    whole = [p for p in passing_pairs() if len(p[0].steps) >= 2 and script(info, *p, lean=True)[1]]
    return whole[:5]


def run(pairs: list[Pair], crash_at: int, wait_at: int, ahead: int, tmp: Path) -> tuple[Barrier, list[Result]]:
    adapter = Barrier(fake_command("crash", crash_at, tmp / "fired"), wait_at)
    saved, runner.AHEAD = runner.AHEAD, ahead
    try:
        results = list(run_scenarios(adapter, adapter.info(), pairs))
    finally:
        runner.AHEAD = saved
        adapter.close()
    assert (tmp / "fired").exists()
    return adapter, results


# (scenarios ahead, the scenario the fake crashes in, the write ahead the barrier holds): the runner writes
# the next ``ahead`` scenarios at once when none is ahead, so the write after the victim's is the first
# (the victim plays first) or the second (the victim ends the first write: the next goes when it starts)
CASES = [(1, 0, 1), (2, 0, 1), (16, 0, 1), (1, 1, 2), (2, 2, 2), (3, 3, 2)]


@pytest.mark.parametrize(("ahead", "victim", "wait_at"), CASES)
def test_a_crash_before_a_write_ahead_errors_the_scenario_it_hit(
    ahead: int, victim: int, wait_at: int, tmp_path: Path
) -> None:
    pairs = chosen_pairs()
    crash_at = 1 + sum(len(p[0].steps) for p in pairs[:victim])  # the victim's first act, counted by the fake
    adapter, results = run(pairs, crash_at, wait_at=wait_at, ahead=ahead, tmp=tmp_path)
    assert adapter.waited, "the barrier never saw the fake exit"
    verdicts = [r.verdict for r in results]
    expected = ["passed"] * len(pairs)
    expected[victim] = "errored"
    assert verdicts == expected, [r.detail for r in results]
    assert "exited (crash) (exit code 3)" in results[victim].detail
    assert "crashing on purpose" in results[victim].detail


@pytest.mark.parametrize("ahead", [1, 16])
def test_a_crash_without_the_barrier_is_named_too(ahead: int, tmp_path: Path) -> None:
    pairs = chosen_pairs()
    _, results = run(pairs, crash_at=1, wait_at=0, ahead=ahead, tmp=tmp_path)  # no barrier: as it falls
    assert [r.verdict for r in results] == ["errored", *["passed"] * (len(pairs) - 1)], [r.detail for r in results]
    assert "exited (crash)" in results[0].detail


def failing(pair: Pair) -> Pair:
    """The pair with its first step expecting a reshuffle count no game has: it fails at that step."""
    scenario, profile = pair
    first = scenario.steps[0]
    wrong = dataclasses.replace(first, expect=Expect(state={"reshuffles": 99}), by_profile={})
    return dataclasses.replace(scenario, steps=(wrong, *scenario.steps[1:])), profile


@pytest.mark.parametrize("ahead", [1, 16])
def test_a_crash_read_while_a_failure_is_replayed_errors_its_own_scenario(ahead: int, tmp_path: Path) -> None:
    pairs = chosen_pairs()
    pairs[0] = failing(pairs[0])
    crash_at = 1 + len(pairs[0][0].steps)  # the next scenario's first act: sent ahead, before the replay
    # no barrier: the fake dies on the request sent ahead while the failure is found, so the replay meets
    # it (a barrier at any later write ahead waits on the fresh process, which never dies: it proved nothing)
    _, results = run(pairs, crash_at, wait_at=0, ahead=ahead, tmp=tmp_path)
    assert [r.verdict for r in results] == ["failed", "errored", "passed", "passed", "passed"], [
        r.detail for r in results
    ]
    assert "exited (crash) (exit code 3)" in results[1].detail
    assert results[0].failure is not None and results[0].failure.step is pairs[0][0].steps[0]
