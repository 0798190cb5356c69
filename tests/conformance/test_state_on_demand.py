"""State on demand and pipelining over stdio: the runner asks for what a step checks, failures still
show whole tables, and every existing adapter keeps working."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from harness import HERE, PYTHON, SERVE, passing_pairs, run_pairs

from conformance.adapter import STATE_ON_DEMAND, AdapterError
from conformance.adapters.stdio import StdioAdapter
from conformance.judging.runner import run_scenarios
from crescent_ref.serve import hello

LENIENT = 30.0
ENGINE = HERE / "fakes" / "handshake_engine.py"


class Recording(StdioAdapter):
    """A stdio adapter keeping every request line it writes."""

    def __init__(self, command: str) -> None:
        super().__init__(command, timeout=LENIENT)
        self.sent: list[dict[str, Any]] = []

    def _send_bytes(self, process: Any, data: bytes, deadline: float) -> None:
        self.sent += [r for line in data.splitlines() for r in requests_in(json.loads(line))]
        super()._send_bytes(process, data, deadline)


def requests_in(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The requests a line holds: itself, or a batch's requests."""
    return list(request["requests"]) if request.get("cmd") == "batch" else [request]


def test_the_runner_asks_for_only_the_fields_a_step_checks() -> None:
    adapter = Recording(SERVE)
    chosen = passing_pairs()[:40]
    results = run_pairs(adapter, chosen)
    assert {r.verdict for r in results.values()} == {"passed"}
    acts = [r for r in adapter.sent if r.get("cmd") == "act"]
    assert acts and all(isinstance(r.get("state"), list) for r in acts)
    assert any(r["state"] == [] for r in acts)  # most steps check no state field at all


def test_an_adapter_without_the_capability_gets_no_state_field() -> None:
    reply = hello()
    impl = reply["implementation"]
    reply["implementation"] = {**impl, "capabilities": [c for c in impl["capabilities"] if c != STATE_ON_DEMAND]}
    adapter = Recording(f"{PYTHON} {shlex.quote(str(ENGINE))} {shlex.quote(json.dumps(reply))}")
    results = run_pairs(adapter, passing_pairs()[:10])
    assert {r.verdict for r in results.values()} == {"passed"}
    assert not any("state" in r for r in adapter.sent)


def test_a_failure_found_lean_shows_the_whole_tables() -> None:
    mutant = f"{PYTHON} {shlex.quote(str(HERE / 'serve_mutant.py'))} no_pile_wrap"
    adapter = StdioAdapter(mutant, timeout=LENIENT)
    try:
        info = adapter.info()
        failed = [r for r in run_scenarios(adapter, info, passing_pairs()) if r.verdict == "failed"]
    finally:
        adapter.close()
    assert failed
    assert all(r.failure is not None and "unreadable" not in r.failure.after for r in failed)


def test_scenarios_are_pipelined_one_write_for_many_requests() -> None:
    writes: list[int] = []

    class Counting(StdioAdapter):
        def _send_bytes(self, process: Any, data: bytes, deadline: float) -> None:
            writes.append(sum(len(requests_in(json.loads(line))) for line in data.splitlines()))
            super()._send_bytes(process, data, deadline)

    adapter = Counting(SERVE, timeout=LENIENT)
    chosen = passing_pairs()[:30]
    try:
        info = adapter.info()
        assert {r.verdict for r in run_scenarios(adapter, info, chosen)} == {"passed"}
    finally:
        adapter.close()
    assert len(writes) <= len(chosen) + 2 < sum(writes)


def test_a_reply_over_the_line_cap_is_a_fault_even_with_its_newline(tmp_path: Path) -> None:
    adapter = StdioAdapter(SERVE, timeout=LENIENT, max_line=100)  # the handshake reply is longer
    with pytest.raises(AdapterError, match="a reply line of more than 100 bytes"):
        adapter.info()
    adapter.close()
