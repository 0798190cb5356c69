"""Every misbehaving-adapter mode through every command that talks to an adapter: a table.

A row is a mode of tests/conformance/fakes/fake_engine.py (it misbehaves once, at the first request
of its kind); a column is a command (``COMMANDS``: the argv after the adapter options, and the exit
code a fault gives). Each cell runs the command in this process against the fake and asserts: the
exit code; no traceback; the fault really met (the fake's flag file); the time bound; no process
of the fake left alive (every start, and a grandchild it spawned); no descriptor left open; no
terminal escape from the adapter printed raw. A new command joins by one line in ``COMMANDS``, a
new mode by one line in ``MODES``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "conformance"))

from fakes.fake_engine import MODES as FAKE_MODES  # noqa: E402
from harness import fake_command, fake_pids, lingers  # noqa: E402

from conformance.cli import main  # noqa: E402

TIMEOUT = "3"  # seconds a request may take (a hang costs this much per cell)
BOUND = 90.0  # seconds a cell may take at most, on a loaded machine
EASY_CODE = "CR1-N-BAAAAAA"  # the solver wins it in app within a few thousand positions
SHORT = ("autoplay-001", "reasons-001")  # two short scenarios with actions

# command -> (argv after the adapter options, with {tmp} for a folder of the cell; exit code on a fault)
COMMANDS: dict[str, tuple[tuple[str, ...], int]] = {
    "run": (("run", "-q", *(a for i in SHORT for a in ("--id", i))), 1),
    "smoke": (("smoke",), 1),
    "perft": (("perft", "--max-depth", "2"), 1),
    "fuzz": (("fuzz", "--games", "3", "--steps", "4", "--no-shrink", "--quiet", "--out", "{tmp}/found"), 1),
    "winnable": (("winnable", "--codes", EASY_CODE, "--seconds", "20"), 1),
    "pytest": (("pytest",), 1),
}
# mode -> the commands where it cannot fire (legal moves are asked only by some), and whether it is a fault
MODES: dict[str, tuple[frozenset[str], bool]] = {
    **{mode: (frozenset(), True) for mode in (
        "crash", "exit-0", "hang", "garbage", "wrong-seq", "bad-schema", "nan", "lone-surrogate", "non-utf8",
        "huge-line", "endless", "trickle", "half-line", "orphan", "pipe-held", "seq-float", "seq-true",
        "result-null", "moves-int", "state-null", "status-int", "errored-int", "skipped-not-string",
        "errored-act", "ansi-error", "close-stdin", "exit-between",
        "hs-crash", "hs-hang", "hs-garbage", "hs-endless", "hs-version", "hs-version-true", "hs-profiles-string",
        "hs-capabilities-null",
    )},
    "legal-objects": (frozenset({"run", "smoke", "winnable", "pytest"}), True),
    "hs-ansi-name": (frozenset(), False),
}
# a fault that the command's output cannot show a difference for (it replies rightly, then leaves)
LATE = {"close-stdin", "exit-between"}
# the rows run by default, one of each kind of fault; CRESCENT_HOSTILE_FULL=1 runs every row (about
# ten minutes on two cores: tests/conformance/test_hostile_adapters.py meets every mode in the runner)
CORE = ("crash", "hang", "garbage", "moves-int", "errored-act", "close-stdin", "orphan", "legal-objects",
        "hs-crash", "hs-profiles-string", "hs-ansi-name")
ROWS = list(MODES) if os.environ.get("CRESCENT_HOSTILE_FULL") else list(CORE)


def test_the_table_knows_every_mode_of_the_fake() -> None:
    assert set(CORE) <= set(MODES) <= set(FAKE_MODES)
    assert {"refuse", "skip", "huge-stderr", "stdout-log", "infinity", "deep", "stderr-flood", "not-object"} >= (
        set(FAKE_MODES) - set(MODES) - {m for m in FAKE_MODES if m.startswith("hs-")}
    )


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def run_cell(command: str, mode: str, tmp: Path, pytester: pytest.Pytester) -> tuple[int, str]:
    """The command against the fake in ``mode``: its exit code and all it printed."""
    flag = tmp / "fired"
    adapter = ["--timeout", TIMEOUT, "--max-line", str(1 << 20)]
    argv = [a.replace("{tmp}", str(tmp)) for a in COMMANDS[command][0]]
    if command == "pytest":
        options = ["--crescent-cmd", fake_command(mode, 1, flag), "--crescent-timeout", TIMEOUT]
        result = pytester.runpytest("-p", "no:hypothesispytest", "-q", *options, "-k", " or ".join(SHORT))
        return int(result.ret), result.stdout.str() + result.stderr.str()
    code = main([*argv, "--cmd", fake_command(mode, 1, flag), *adapter])
    return code, ""


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("mode", ROWS)
def test_a_misbehaving_adapter_in_every_command(
    mode: str, command: str, tmp_path: Path, pytester: pytest.Pytester, capfd: pytest.CaptureFixture[str]
) -> None:
    cannot, fault = MODES[mode]
    if command in cannot:
        pytest.skip(f"{command} never asks what {mode} answers wrongly")
    before, began = fds(), time.monotonic()
    code, said = run_cell(command, mode, tmp_path, pytester)
    took = time.monotonic() - began
    out, err = capfd.readouterr()
    said += out + err
    assert "Traceback" not in said and "INTERNALERROR" not in said, said[-3000:]
    assert "\x1b" not in said, "an adapter's terminal escape reached the terminal raw"
    assert (tmp_path / "fired").exists(), f"{mode} never fired in {command}"
    expected = COMMANDS[command][1] if fault else 0
    if mode not in LATE or code != 0:  # a late fault may land after the last request that mattered
        assert code == expected, said[-3000:]
    assert took < BOUND, f"{command} took {took:.0f}s against {mode}"
    left = [pid for pid in fake_pids(tmp_path / "fired") if lingers(pid)]
    assert not left, f"processes left behind: {left}"
    assert fds() <= before, "a descriptor was left open"
