"""A child process spoken to over pipes, bounded in every dimension.

- time: every exchange has a deadline that holds while data streams in (no read waits past it);
- size: a reply line longer than ``max_line`` bytes is a fault, not a growing buffer;
- stderr: read in blocks, in the same loop as stdout, into a ring keeping the last ``stderr_cap`` bytes;
- processes: the child leads its own process group (session), and the whole group is killed;
- descriptors: all three pipes are closed when the child is killed.

A child that exits while a grandchild keeps its stdout open is noticed within ``POLL`` seconds.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

MAX_LINE = 8 << 20  # bytes in one reply line
STDERR_CAP = 64 << 10  # bytes of stderr kept (the tail)
POLL = 0.05  # seconds between checks that the child still lives
BLOCK = 1 << 16


class LineTooLong(Exception):
    """The child wrote more than ``max_line`` bytes without a newline."""


class Tail:
    """The last ``cap`` bytes written to a stream."""

    def __init__(self, cap: int = STDERR_CAP) -> None:
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        """Append, then forget what exceeds the cap (oldest first)."""
        self.data += chunk
        excess = len(self.data) - self.cap
        if excess > 0:
            del self.data[:excess]
            self.dropped += excess

    def text(self) -> str:
        """The kept bytes as text (undecodable bytes replaced), saying how much was cut."""
        kept = self.data.decode("utf-8", "replace").strip()
        return f"[{self.dropped} earlier bytes cut]\n{kept}" if self.dropped and kept else kept


class Child:
    """A running child process with non-blocking pipes; stdin is written, stdout read by lines."""

    def __init__(self, argv: list[str], max_line: int = MAX_LINE, stderr_cap: int = STDERR_CAP) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            close_fds=True,
            start_new_session=True,
            preexec_fn=_die_with_parent(),
        )
        LIVE.add(self)
        self.max_line = max_line
        self.stderr = Tail(stderr_cap)
        self.pending = bytearray()
        self._scanned = 0
        self._in, self._out, self._err = (_fileno(f) for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr))
        self._reading = {self._out, self._err}
        self._poller = select.poll()  # one for the child's life (not one per wait)
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        for fd in self._reading:
            self._poller.register(fd, select.POLLIN)

    def send(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` by ``deadline`` (TimeoutError), reading stdout and stderr meanwhile.

        Raises BrokenPipeError when the child stopped reading its input.
        """
        view = memoryview(data)
        with contextlib.suppress(BlockingIOError):  # the pipe has room nearly always: no poll needed
            view = view[os.write(self._in, view) :]
        if not view:
            return
        self._poller.register(self._in, select.POLLOUT)
        try:
            while view:
                readable, writable = self._wait(deadline, write=True)
                self._drain(readable)
                if writable:
                    with contextlib.suppress(BlockingIOError):
                        view = view[os.write(self._in, view) :]
        finally:
            self._poller.unregister(self._in)

    def receive(self, deadline: float) -> bytes | None:
        """The next stdout line (without its newline); None when stdout ended or the child exited.

        Raises TimeoutError at ``deadline`` and LineTooLong as soon as more than ``max_line`` bytes of
        one line were read (newline or not).
        """
        while (line := self._line()) is None:
            if self._out not in self._reading:
                return None
            readable, _ = self._wait(deadline, write=False)
            self._drain(readable)
            if not readable and self.proc.poll() is not None:
                self._drain(self._ready(0.0)[0])
                return self._line()
        return line

    def settle(self, grace: float) -> None:
        """Give the child up to ``grace`` seconds to exit by itself (reading its output meanwhile)."""
        end = time.monotonic() + grace
        while self.proc.poll() is None and (left := end - time.monotonic()) > 0:
            self._drain(self._ready(min(left, POLL))[0])

    def _line(self) -> bytes | None:
        cut = self.pending.find(b"\n", self._scanned)
        if cut < 0 or cut > self.max_line:
            self._scanned = len(self.pending)
            if self._scanned > self.max_line:
                raise LineTooLong(f"a reply line of more than {self.max_line} bytes")
            return None
        line = bytes(self.pending[:cut])
        del self.pending[: cut + 1]
        self._scanned = 0
        return line

    def _wait(self, deadline: float, write: bool) -> tuple[list[int], bool]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        readable, writable = self._ready(min(left, POLL))
        if write and not writable and not readable and self.proc.poll() is not None:
            raise BrokenPipeError
        return readable, writable

    def _ready(self, timeout: float) -> tuple[list[int], bool]:
        """Which pipes are ready within ``timeout`` seconds (poll, not select: no 1024-descriptor ceiling)."""
        events = self._poller.poll(timeout * 1000)
        return [fd for fd, _ in events if fd != self._in], any(fd == self._in for fd, _ in events)

    def _drain(self, readable: list[int]) -> None:
        for fd in readable:
            try:
                chunk = os.read(fd, BLOCK)
            except BlockingIOError:
                continue
            if not chunk:
                self._reading.discard(fd)
                self._poller.unregister(fd)
            elif fd == self._out:
                self.pending += chunk
            else:
                self.stderr.add(chunk)

    def kill(self) -> None:
        """Kill the child's whole process group, reap the child, close every pipe (once; later calls do nothing)."""
        LIVE.discard(self)
        if self.proc.stdout is None or self.proc.stdout.closed:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._drain_stderr()
        self.close_pipes()

    def _drain_stderr(self) -> None:
        """Read what the dead child left on stderr (its last words), as far as it is there now."""
        self._reading.discard(self._out)
        for _ in range(1024):  # bounded: a survivor outside the group could write forever
            readable, _ = self._ready(0.0)
            if not readable:
                return
            self._drain(readable)

    def close_pipes(self) -> None:
        """Close stdin, stdout and stderr (idempotent); nothing is read from them afterwards."""
        for fd in self._reading:
            self._poller.unregister(fd)
        self._reading.clear()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


@functools.cache
def _die_with_parent() -> Callable[[], None] | None:
    """On Linux, what makes the child get SIGKILL when the runner dies without cleaning up (an xdist worker
    ended abruptly, SIGKILL): prctl(PR_SET_PDEATHSIG). Elsewhere None. Made once (libc loaded once)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    return lambda: libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


_PR_SET_PDEATHSIG = 1
LIVE: set[Child] = set()  # children not yet killed: ended on every way out of the runner (end_all)


def end_all() -> None:
    """Kill every live child's process group (at exit, on SIGTERM or SIGHUP: no adapter outlives the runner)."""
    for child in list(LIVE):
        child.kill()


def _ended_by_signal(signum: int, frame: object) -> None:
    """Kill the groups at once (no reading: the interrupted code may be inside a poll), then unwind as
    Ctrl-C does; the unwinding reaps the children and closes their pipes."""
    for child in list(LIVE):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.proc.pid, signal.SIGKILL)
    raise Terminated(signal.Signals(signum).name)


class Terminated(KeyboardInterrupt):
    """The runner was asked to stop (SIGTERM, SIGHUP): handled as an interrupt, adapters ended first."""


def end_children_on_exit() -> None:
    """Make SIGTERM and SIGHUP end the adapters and then the runner as Ctrl-C does; kill live ones at exit.

    Only signals left at their default are taken (a host program's own handlers stay); call it from
    the main thread (a no-op elsewhere).
    """
    atexit.register(end_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _ended_by_signal)


def _fileno(pipe: object) -> int:
    fileno = getattr(pipe, "fileno", None)
    assert fileno is not None
    number: int = fileno()
    return number
