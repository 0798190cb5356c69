"""One exception policy for the command-line tools: what reaches the user, and the exit code.

- a user error (bad input, a bad option, a file that cannot be read or written): one line on
  stderr, exit 2 (argparse's own errors too);
- Ctrl-C: one line, exit 130; a closed pipe (``| head``): quiet, exit 141;
- anything else is a bug of the kit: the traceback, a line asking for a report, exit 70.

Each tool may add its own faults (the conformance kit: a misbehaving implementation, exit 1).
The argparse side (number types, the one-line parser) is crescent_ref.arguments: a tool that reads
no options (``crescent-ref serve``) keeps argparse off its start-up.
"""

from __future__ import annotations

import atexit
import functools
import gc
import os
import sys
from collections.abc import Callable, Mapping

from crescent_ref.errors import CrescentError

OK, FAILED, BAD_INPUT, BUG, INTERRUPTED, BROKEN_PIPE = 0, 1, 2, 70, 130, 141
REPORT_BUG = (
    "this is a bug in the kit, not in your input: please report it with the command line and the traceback above"
)


def one_line(err: BaseException) -> str:
    """An error's whole text on one line (its lines joined), with the file name for an OSError."""
    if isinstance(err, OSError) and err.filename is not None:
        return f"{err.strerror or type(err).__name__}: {err.filename!r}"
    return " | ".join(line.strip() for line in str(err).splitlines() if line.strip()) or type(err).__name__


def guarded(prog: str, run: Callable[[], int], faults: Mapping[type[BaseException], int] | None = None) -> int:
    """``run()``'s exit code, with every exception turned into a line and an exit code as above."""
    _tolerant_output()
    quick_shutdown()
    try:
        code = run()
        sys.stdout.flush()  # here, so that a closed pipe is met while the policy still holds
        return code
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as err:
        return _report(prog, err, {**(faults or {}), CrescentError: BAD_INPUT, OSError: BAD_INPUT})


def _report(prog: str, err: Exception, codes: Mapping[type[BaseException], int]) -> int:
    code = next((c for kind, c in codes.items() if isinstance(err, kind)), None)
    if code is None:
        import traceback  # only for a bug: off every start-up

        traceback.print_exc()
        print(f"{prog}: {REPORT_BUG}", file=sys.stderr)
        return BUG
    print(f"{prog}: {one_line(err) if code == BAD_INPUT else err}", file=sys.stderr)
    return code


@functools.cache
def quick_shutdown() -> None:
    """Let this process end without the garbage collector's passes over everything it made.

    When the interpreter shuts down, it runs full collections over every object still alive: about
    70 ms each in a process that judged the corpus (90,000 objects), and several per shutdown. At
    exit (the first time this is called registers it; later calls do nothing), every object moves to
    the collector's permanent generation (``gc.freeze``), which those passes skip. Objects are still
    freed as their last reference goes; only objects in reference cycles that are still alive at
    exit go unfreed, as Python already allows ("__del__ is not guaranteed to be called for objects
    that still exist when the interpreter exits"). The kit closes its files and ends its child
    processes explicitly, never through the collector.
    """
    atexit.register(gc.freeze)


def _tolerant_output() -> None:
    """Text that cannot be encoded (a lone surrogate, a narrow locale) is escaped, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """After a closed pipe: send what is still buffered to /dev/null, so exit flushes quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
