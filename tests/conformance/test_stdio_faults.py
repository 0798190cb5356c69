"""Misbehaving stdio implementations are survived, and what they did is recorded.

Each run plays four scenarios the reference passes on the fake engine of fakes/fake_engine.py,
which faults once, in the second scenario; the other three must pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import Pair, fake_command, key, passing_pairs, run_pairs

from conformance.adapters.stdio import StdioAdapter
from conformance.judging.report import format_failure
from conformance.judging.runner import Result, run_scenario

LENIENT = 30.0  # seconds for a request that should succeed (a loaded machine starts Python slowly)
ACT_FAULTS = {
    "crash": "exited (crash)",
    "hang": "no reply within 1s (hang)",
    "garbage": "not JSON (garbage)",
    "wrong-seq": "replied with seq",
    "bad-schema": "breaks the protocol schema",
    "stdout-log": "fake-engine log: applying",
}


def four_pairs() -> list[Pair]:
    """Four passing pairs; the second has at least two steps, so a fault can land mid-scenario."""
    passing = passing_pairs()
    target = next(p for p in passing[1:] if len(p[0].steps) >= 2)
    others = [p for p in passing if p is not target][:3]
    return [others[0], target, *others[1:]]


def run_fake(mode: str, nth: int, tmp_path: Path) -> tuple[StdioAdapter, list[Result]]:
    """The four pairs on the fake; a hang with a 1 s timeout, the rest with a lenient one."""
    adapter = StdioAdapter(fake_command(mode, nth, tmp_path / "fired"), timeout=LENIENT)
    results = []
    try:
        info = adapter.info()
        for n, pair in enumerate(four_pairs()):
            adapter.timeout = 1 if n == 1 and mode == "hang" else LENIENT
            results.append(run_scenario(adapter, info, *pair))
    finally:
        adapter.close()
    assert (tmp_path / "fired").exists(), f"the fake never faulted ({mode} at {nth})"
    return adapter, results


def second_act_of_target() -> int:
    """The process-wide number of the second act of the target scenario."""
    return len(four_pairs()[0][0].steps) + 2


@pytest.mark.parametrize("mode", list(ACT_FAULTS))
def test_a_fault_errors_that_scenario_and_later_ones_pass(mode: str, tmp_path: Path) -> None:
    adapter, results = run_fake(mode, second_act_of_target(), tmp_path)
    assert [r.verdict for r in results] == ["passed", "errored", "passed", "passed"], [r.detail for r in results]
    assert ACT_FAULTS[mode] in results[1].detail
    assert adapter.restarts == 1


def test_the_errored_detail_quotes_the_offending_line(tmp_path: Path) -> None:
    _, results = run_fake("garbage", second_act_of_target(), tmp_path)
    assert "%%% this is no JSON %%%" in results[1].detail


def test_a_crash_reports_the_exit_code_and_the_stderr_tail(tmp_path: Path) -> None:
    _, results = run_fake("crash", second_act_of_target(), tmp_path)
    assert "exit code 3" in results[1].detail
    assert "stderr tail:\nfake-engine: crashing on purpose" in results[1].detail


def test_a_refused_position_is_a_refusal_not_a_rules_difference(tmp_path: Path) -> None:
    _, results = run_fake("refuse", 2, tmp_path)
    refused = results[1]
    assert [r.verdict for r in results] == ["passed", "errored", "passed", "passed"]
    assert "refused to load the given position" in refused.detail
    assert "the fake refuses this position" in refused.detail
    assert refused.failure is None
    assert "expected" not in format_failure(refused)


def test_a_skipped_reply_skips_the_scenario(tmp_path: Path) -> None:
    adapter, results = run_fake("skip", 2, tmp_path)
    assert [r.verdict for r in results] == ["passed", "skipped", "passed", "passed"]
    assert "the fake does not play this one" in results[1].detail
    assert adapter.restarts == 0


def test_the_fake_without_its_fault_passes(tmp_path: Path) -> None:
    """The fake is the reference unless it faults: with the flag set beforehand, all pass."""
    (tmp_path / "fired").touch()
    results = run_pairs(StdioAdapter(fake_command("crash", 1, tmp_path / "fired"), timeout=LENIENT), four_pairs())
    assert {key(p): "passed" for p in four_pairs()} == {k: r.verdict for k, r in results.items()}
