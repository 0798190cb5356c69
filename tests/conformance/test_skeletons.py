"""The adapter skeletons of docs/skeletons run as shipped: over stdio they answer the handshake, load a
position (a starting-position scenario passes), skip what they do not implement, and smoke says what next."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest
from harness import corpus

from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main as conformance_main
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import run_scenario

SKELETONS = Path(__file__).resolve().parents[2] / "docs" / "skeletons"
COMMANDS = [
    pytest.param(f"{shlex.quote(sys.executable)} {SKELETONS / 'skeleton_adapter.py'}", id="python"),
    pytest.param(
        f"node {SKELETONS / 'skeleton-adapter.js'}",
        id="javascript",
        marks=pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    ),
]


def scenario(wanted: str) -> Scenario:
    return next(sc for sc in corpus() if sc.id == wanted)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_skeleton_answers_the_handshake_and_runs_scenarios(command: str) -> None:
    adapter = StdioAdapter(command, timeout=10, validate=True)
    try:
        info = adapter.info()
        declared = (info.name, info.profiles, info.capabilities)
        assert declared == ("my-crescent", ("app",), frozenset({"state-on-demand"}))
        given_only = run_scenario(adapter, info, scenario("layout-005"), "app")
        assert given_only.verdict == "passed", given_only.detail or given_only.failure
        with_steps = run_scenario(adapter, info, scenario("piles-001"), "app")
        assert with_steps.verdict == "skipped" and "YOUR ENGINE HERE" in with_steps.detail
    finally:
        adapter.close()


def test_smoke_on_a_skeleton_reports_and_says_what_next(capsys: pytest.CaptureFixture[str]) -> None:
    command = str(COMMANDS[0].values[0])
    conformance_main(["smoke", "--cmd", command])
    out = capsys.readouterr().out
    assert "handshake: my-crescent 0.0.1" in out and "passed   layout-005[app]" in out
    assert f'next: crescent-conformance run --cmd "{command}" --report report.json' in out
