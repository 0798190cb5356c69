"""Output files: checked before a run starts, written whole or not at all.

``write_atomic`` writes to a temporary file with a unique name beside the target and renames it
into place, so a reader never sees half a file, a failed write leaves the old file as it was, and
two runs writing the same report do not collide. Lone surrogates (which no UTF-8 file can hold)
are replaced with U+FFFD rather than losing the whole file.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

from crescent_ref.errors import CrescentError

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class OutputPathError(CrescentError):
    """An output file that cannot be written (its folder is missing, it is a folder, no permission)."""

    def __init__(self, option: str, path: Path, why: str) -> None:
        self.path = path
        super().__init__(f"{option} {str(path)!r}: {why}")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (so it encodes as UTF-8)."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def check_writable(path: Path, option: str) -> None:
    """Raise OutputPathError unless ``path`` could be written now."""
    folder = path.parent
    if path.is_dir():
        raise OutputPathError(option, path, "is a folder")
    if not folder.is_dir():
        raise OutputPathError(option, path, f"the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputPathError(option, path, "not writable (permission denied)")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` through a uniquely named temporary file and a rename."""
    data = clean_text(text).encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
