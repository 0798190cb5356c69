"""Hostile stdio implementations: every fault is a recorded result, nothing hangs, nothing leaks.

Each mode of fakes/fake_engine.py misbehaves once, at the first ``act`` of a process (or at the
handshake for the ``hs-`` modes). Two scenarios the reference passes are run: the first meets the
fault and must be errored with the fault named; the second must pass on a fresh process.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakes.fake_engine import HANDSHAKE, MODES
from harness import Pair, fake_command, pairs

from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.judging.runner import Result, run_scenario

LENIENT = 30.0  # seconds for a request that should succeed (a loaded machine starts Python slowly)
FAST = 1.0  # seconds for the request that meets the fault
MAX_LINE = 1 << 20
NTH_FAULTS = {
    "crash": "exited (crash)",
    "exit-0": "closed its output",
    "hang": "no reply within 1s (hang)",
    "garbage": "not JSON (garbage)",
    "wrong-seq": "replied with seq",
    "bad-schema": "breaks the protocol schema",
    "stdout-log": "not JSON (garbage)",
    "not-object": "JSON that is not an object",
    "nan": "wrote NaN in a reply",
    "infinity": "wrote -Infinity in a reply",
    "lone-surrogate": "lone surrogate",
    "non-utf8": "not UTF-8",
    "deep": "not JSON (garbage)",
    "huge-line": f"a reply line of more than {MAX_LINE} bytes",
    "endless": f"a reply line of more than {MAX_LINE} bytes",
    "trickle": "no reply within 1s (hang)",
    "half-line": "exited (crash)",
    "stderr-flood": "fake-engine: last words",
    "orphan": "exited (crash)",
    "pipe-held": "exited (crash)",
    "seq-float": "replied with seq 2.0 to request seq 2",
    "seq-true": "replied with seq true to request seq 2",
    "result-null": 'reply field "result": expected an object, got null',
    "moves-int": 'reply field "result.moves": expected a list of strings, got 5',
    "state-null": 'reply field "result.state": expected an object, got null',
    "status-int": 'reply field "result.state.status": expected a string, got 7',
    "errored-int": 'reply field "errored": expected an object, got 7',
    "skipped-not-string": 'reply field "skipped.message": expected a string, got ["no"]',
    "errored-act": "implementation errored: the fake fails here",
    "ansi-error": "implementation errored: \\x1b[2J\\x1b[32mall passed",
}
WELL_FORMED = ("errored-act", "ansi-error")  # errored replies: the scenario errors, the process goes on
HANDSHAKE_FAULTS = {
    "hs-crash": "exited (crash)",
    "hs-exit-0": "closed its output",
    "hs-hang": "no reply within 1s (hang)",
    "hs-garbage": "not JSON (garbage)",
    "hs-not-object": "JSON that is not an object",
    "hs-nan": "wrote NaN",
    "hs-non-utf8": "not UTF-8",
    "hs-endless": "a reply line of more than",
    "hs-pipe-held": "exited (crash)",
    "hs-version": "protocol version 99; the runner speaks 1, 2, 3",
    "hs-no-implementation": 'handshake field "implementation": expected an object',
    "hs-version-true": "protocol version True; the runner speaks 1, 2, 3",
    "hs-profiles-string": 'handshake field "implementation.profiles": expected a list of strings, got "app"',
    "hs-profiles-int": 'handshake field "implementation.profiles": expected a list of strings, got 7',
    "hs-capabilities-null": 'handshake field "implementation.capabilities": expected a list of strings, got null',
}


@functools.cache
def two_pairs() -> tuple[Pair, Pair]:
    """Two pairs the reference passes, each with at least one action."""
    reference, found = ReferenceAdapter(), []
    info = reference.info()
    for pair in pairs():
        if pair[0].steps and run_scenario(reference, info, *pair).verdict == "passed":
            found.append(pair)
        if len(found) == 2:
            return found[0], found[1]
    raise AssertionError("the corpus has no two passing scenarios with actions")


def run_two(adapter: StdioAdapter) -> list[Result]:
    """The two pairs: the first under the FAST timeout, the second under a lenient one."""
    results = []
    try:
        info = adapter.info()
        for n, pair in enumerate(two_pairs()):
            adapter.timeout = FAST if n == 0 else LENIENT
            results.append(run_scenario(adapter, info, *pair))
    finally:
        adapter.close()
    return results


def hostile(mode: str, tmp_path: Path, timeout: float = LENIENT, wrap: bool = False) -> StdioAdapter:
    command = fake_command(mode, 1, tmp_path / "fired")
    if wrap:  # through a shell that stays: the fake is a grandchild of the runner
        command = f"sh -c '{command}; true'"
    return StdioAdapter(command, timeout=timeout, max_line=MAX_LINE)


def starts(tmp_path: Path) -> list[int]:
    """Process ids of the fake's starts, in order (none when killed before it got going)."""
    file = tmp_path / "fired.starts"
    return [int(n) for n in file.read_text().split()] if file.exists() else []


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether the process ends (or is a zombie) within ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


def test_every_fault_mode_of_the_fake_is_tried() -> None:
    others = {"refuse", "skip", "huge-stderr", "close-stdin", "exit-between", "legal-objects", "hs-ansi-name"}
    assert set(NTH_FAULTS) | set(HANDSHAKE_FAULTS) | others == set(MODES)  # the others: tests/hostile
    assert set(HANDSHAKE_FAULTS) == set(HANDSHAKE)


@pytest.mark.parametrize("mode", list(NTH_FAULTS))
def test_a_fault_at_a_request_errors_that_scenario_only(mode: str, tmp_path: Path) -> None:
    adapter = hostile(mode, tmp_path)
    results = run_two(adapter)
    assert [r.verdict for r in results] == ["errored", "passed"], [r.detail[:300] for r in results]
    assert NTH_FAULTS[mode] in results[0].detail
    assert "\x1b" not in results[0].detail and "refused to load" not in results[0].detail
    assert adapter.restarts == (0 if mode in WELL_FORMED else 1)  # an errored reply keeps the process
    assert all(gone(pid) for pid in starts(tmp_path))


def test_a_flood_on_stderr_is_cut_to_its_tail(tmp_path: Path) -> None:
    results = run_two(hostile("stderr-flood", tmp_path))
    assert "earlier bytes cut" in results[0].detail
    assert len(results[0].detail) < 80_000


def test_a_chatty_stderr_is_no_fault(tmp_path: Path) -> None:
    """20 MB on stderr before a right reply: read in blocks, so no hang and no error."""
    adapter = hostile("huge-stderr", tmp_path)
    assert [r.verdict for r in run_two(adapter)] == ["passed", "passed"]
    assert adapter.restarts == 0


def test_a_child_keeping_the_pipe_open_is_seen_as_a_crash_at_once(tmp_path: Path) -> None:
    adapter = hostile("pipe-held", tmp_path)
    info = adapter.info()
    adapter.timeout = 20.0
    began = time.monotonic()
    result = run_scenario(adapter, info, *two_pairs()[0])
    adapter.close()
    assert "exited (crash)" in result.detail
    assert time.monotonic() - began < 10.0


def test_a_grandchild_is_killed_with_its_parent(tmp_path: Path) -> None:
    run_two(hostile("orphan", tmp_path))
    assert gone(int((tmp_path / "fired.orphan").read_text()))


def test_the_whole_group_is_killed_through_a_shell_wrapper(tmp_path: Path) -> None:
    adapter = hostile("hang", tmp_path, wrap=True)
    results = run_two(adapter)
    assert [r.verdict for r in results] == ["errored", "passed"]
    assert all(gone(pid) for pid in starts(tmp_path))


@pytest.mark.parametrize("mode", list(HANDSHAKE_FAULTS))
def test_a_bad_handshake_is_reported_once_and_not_retried(mode: str, tmp_path: Path) -> None:
    adapter = hostile(mode, tmp_path, timeout=FAST if mode == "hs-hang" else LENIENT)
    results = []
    for pair in two_pairs() * 3:
        try:
            results.append(run_scenario(adapter, adapter.info(), *pair))
        except Exception as err:  # the handshake's fault, as the front ends see it
            results.append(Result(pair[0], pair[1], "errored", str(err)))
    adapter.close()
    assert {r.verdict for r in results} == {"errored"}
    assert all("handshake failed" in r.detail and HANDSHAKE_FAULTS[mode] in r.detail for r in results)
    # one start; a hang under a 1 s timeout may be killed on a loaded machine before Python is up
    assert len(starts(tmp_path)) == 1 or (mode == "hs-hang" and not starts(tmp_path))


def test_an_adapter_that_cannot_start_is_reported_once(tmp_path: Path) -> None:
    adapter = StdioAdapter(str(tmp_path / "no-such-program"), timeout=FAST)
    for _ in range(3):
        with pytest.raises(Exception, match="cannot start"):
            adapter.info()


RESTARTS = """
import resource, shlex, sys
from conformance.adapters.stdio import StdioAdapter
from conformance.adapter import AdapterError
resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
reply = '{"version":1,"implementation":{"name":"x","version":"1","language":"sh","profiles":["app"]}}'
script = f"read l; echo {shlex.quote(reply)}; read l; exit 3"
adapter = StdioAdapter(f"sh -c {shlex.quote(script)}", timeout=10, restart_limit=0)
for n in range(int(sys.argv[1])):
    try:
        adapter.start("app", code="CR1-N-AAAAAAB")
    except AdapterError as err:
        assert "exited (crash)" in str(err), err
adapter.close()
print(adapter.restarts)
"""


def test_many_restarts_under_a_low_descriptor_limit_leak_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-c", RESTARTS, "60"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["59"]


def test_pipes_are_closed_after_a_fault(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    run_two(hostile("crash", tmp_path))
    assert len(os.listdir("/proc/self/fd")) <= before
