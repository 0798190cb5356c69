"""Ctrl-C and SIGTERM while an adapter hangs: answered at once, and no adapter process outlives the command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "conformance"))

from deliverable import sigint_default  # noqa: E402
from harness import fake_command, fake_pids, lingers  # noqa: E402

KIT = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]
ARGS = {
    "run": ("run", "-q", "--id", "autoplay-001"),
    "fuzz": ("fuzz", "--games", "3", "--steps", "4", "--no-shrink", "--quiet", "--out", "{tmp}/found"),
}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("command", list(ARGS))
def test_a_signal_during_a_hang_ends_the_adapter_and_the_command_at_once(
    command: str, signum: int, tmp_path: Path
) -> None:
    flag = tmp_path / "fired"
    args = [a.replace("{tmp}", str(tmp_path)) for a in ARGS[command]]
    argv = [*KIT, *args, "--cmd", fake_command("hang", 1, flag), "--timeout", "120"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=sigint_default)
    end = time.monotonic() + 90
    while not flag.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    assert flag.exists(), "the fake never hung"
    time.sleep(0.3)  # the runner is waiting for the reply now
    began = time.monotonic()
    proc.send_signal(signum)
    code = proc.wait(timeout=60)
    took = time.monotonic() - began
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read().decode()
    assert code == 130
    assert took < 15, f"{took:.1f}s to answer the signal (the request's timeout is 120s)"
    assert not [pid for pid in fake_pids(flag) if lingers(pid)]
    assert os.path.exists(flag)
