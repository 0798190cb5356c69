"""Run a command between the runner and an adapter, keeping a copy of every line that crosses the pipes.

    python pipe_spy.py FOLDER COMMAND [ARGS...]

Each line the runner writes is appended to FOLDER/sent before it goes on to the command's stdin; each line
the command writes is appended to FOLDER/replied before it goes on to the runner. A line is in its file
before the other side can read it, so what the runner saw is on disk even when it then kills the group.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO


def copy_lines(source: IO[bytes], sink: IO[bytes], log: Path) -> None:
    """Copy ``source`` to ``sink`` line by line, each line appended to ``log`` first; close ``sink`` at the end."""
    with log.open("ab", buffering=0) as kept, contextlib.suppress(BrokenPipeError):  # the other side has gone
        for line in iter(source.readline, b""):
            kept.write(line)
            sink.write(line)
            sink.flush()
        sink.close()


def main(argv: list[str]) -> int:
    """Start the command, copy both directions, exit with its exit code."""
    folder, command = Path(argv[0]), argv[1:]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    to_child = threading.Thread(target=copy_lines, args=(sys.stdin.buffer, child.stdin, folder / "sent"), daemon=True)
    to_child.start()
    copy_lines(child.stdout, sys.stdout.buffer, folder / "replied")
    return child.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
