"""Batches: an implementation declaring ``batch`` gets a scenario's requests as one request and answers
them in one reply; one without it (any version 2 adapter, no negotiation) gets lines as before; a broken
batch reply is a fault like a broken reply, and an errored request inside one is that call's error."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from harness import HERE, PYTHON, SERVE, passing_pairs, run_pairs

from conformance.adapter import BATCH, STATE_ON_DEMAND
from conformance.adapters import quick
from conformance.adapters.stdio import StdioAdapter
from crescent_ref.serve import hello

LENIENT = 30.0
FAKE = HERE / "fakes" / "batch_engine.py"
ENGINE = HERE / "fakes" / "handshake_engine.py"


class Recording(StdioAdapter):
    """A stdio adapter keeping every request it writes."""

    def __init__(self, command: str, validate: bool = False) -> None:
        super().__init__(command, timeout=LENIENT, validate=validate)
        self.sent: list[dict[str, Any]] = []

    def _send_bytes(self, process: Any, data: bytes, deadline: float) -> None:
        self.sent += [json.loads(line) for line in data.splitlines()]
        super()._send_bytes(process, data, deadline)


def test_a_scenario_goes_as_one_batch_to_an_implementation_declaring_it() -> None:
    adapter = Recording(SERVE)
    chosen = passing_pairs()[:30]
    results = run_pairs(adapter, chosen)
    assert {r.verdict for r in results.values()} == {"passed"}
    batches = [r for r in adapter.sent if r.get("cmd") == "batch"]
    assert batches and all(r["requests"][0]["cmd"] == "new_game" for r in batches)
    assert all("seq" not in inner for r in batches for inner in r["requests"])
    assert adapter.calls == sum(len(r["requests"]) for r in batches) + sum(
        r.get("cmd") not in ("batch", "start", "stop") for r in adapter.sent
    )


def test_the_reference_s_batch_replies_are_read_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    split: list[bytes] = []  # batch lines read one inner reply at a time (the path for a reply not plain)
    monkeypatch.setattr(quick, "batch_replies", lambda line, *rest: split.append(line))
    results = run_pairs(Recording(SERVE), passing_pairs()[:30])
    assert {r.verdict for r in results.values()} == {"passed"}
    assert split == []


@pytest.mark.parametrize("version", [2, 3])
def test_an_implementation_without_batch_gets_one_line_a_request(version: int) -> None:
    reply = hello()
    impl = reply["implementation"]
    dropped = {BATCH, STATE_ON_DEMAND} if version == 2 else {BATCH}
    reply = {
        "version": version,
        "implementation": {**impl, "capabilities": [c for c in impl["capabilities"] if c not in dropped]},
    }
    adapter = Recording(f"{PYTHON} {shlex.quote(str(ENGINE))} {shlex.quote(json.dumps(reply))}")
    results = run_pairs(adapter, passing_pairs()[:10])
    assert {r.verdict for r in results.values()} == {"passed"}
    assert not any(r.get("cmd") == "batch" for r in adapter.sent)


def test_under_validate_protocol_no_batch_is_sent() -> None:
    adapter = Recording(SERVE, validate=True)
    assert {r.verdict for r in run_pairs(adapter, passing_pairs()[:5]).values()} == {"passed"}
    assert not any(r.get("cmd") == "batch" for r in adapter.sent)


FAULTS = {
    "whole-errored": "answered a batch request as a whole, not request by request",
    "short": 'field "result.replies": expected a list of',
    "inner-wrong-type": 'reply field "result.accepted": expected true or false',
    "nan": "wrote NaN in a reply",
    "lone-surrogate": "lone surrogate",
}


def run_fake(mode: str) -> tuple[StdioAdapter, list[str], list[str]]:
    adapter = StdioAdapter(f"{PYTHON} {shlex.quote(str(FAKE))} {mode}", timeout=LENIENT)
    results = list(run_pairs(adapter, passing_pairs()[:5]).values())  # a restarted fake breaks its own third
    return adapter, [r.verdict for r in results], [r.detail for r in results]


@pytest.mark.parametrize("mode", list(FAULTS))
def test_a_broken_batch_reply_is_a_fault_and_the_next_scenario_starts_afresh(mode: str) -> None:
    adapter, verdicts, details = run_fake(mode)
    assert verdicts.count("errored") == 1 and verdicts.count("passed") == len(verdicts) - 1, details
    assert FAULTS[mode] in details[verdicts.index("errored")]
    assert adapter.restarts == 1


def test_an_errored_request_in_a_batch_is_that_calls_error_and_the_process_goes_on() -> None:
    adapter, verdicts, details = run_fake("inner-errored")
    assert verdicts.count("errored") == 1 and verdicts.count("passed") == len(verdicts) - 1, details
    assert "implementation errored: the second one failed" in details[verdicts.index("errored")]
    assert adapter.restarts == 0


def test_the_fake_breaks_nothing_unasked() -> None:
    adapter, verdicts, _ = run_fake("none")
    assert set(verdicts) == {"passed"} and adapter.restarts == 0
