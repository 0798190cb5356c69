"""Output files and folders: checked before a run starts, written whole or not at all, never over a device.

``write_atomic`` writes to a temporary file with a unique name beside the target and renames it
into place, so a reader never sees half a file, a failed write (a full disk) leaves the old file as
it was, and two commands writing the same file do not collide. A symlink is written through: the
file it points to is replaced, the link stays. A target that exists and is not a regular file (a
character device such as /dev/null, a FIFO, a socket, a folder) is refused, never replaced.
``write_folder`` does the same for a folder of pages (the docs site): built beside the target and
moved into place whole. Lone surrogates (which no UTF-8 file can hold) become U+FFFD.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from crescent_ref.errors import CrescentError

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
SITE_SUFFIXES = (".html", ".js", ".css", ".svg")  # what a folder may hold for write_folder to replace it
_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))  # fmt: skip


class OutputPathError(CrescentError):
    """An output file that cannot be written (its folder is missing, it is a folder or a device, no permission)."""

    def __init__(self, option: str, path: Path, why: str) -> None:
        self.path = path
        super().__init__(f"{option} {str(path)!r}: {why}" if option else f"{str(path)!r}: {why}")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (so it encodes as UTF-8)."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def _kind(mode: int) -> str | None:
    """What a non-regular file is (None for a regular file)."""
    return next((name for test, name in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")


def target_of(path: Path, option: str = "", folder: bool = False) -> Path:
    """The real path a write to ``path`` replaces (symlinks followed); OutputPathError when it exists
    and is not a regular file (``folder``: not a folder)."""
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as err:
        raise OutputPathError(option, path, f"cannot be written: {err.strerror or err}") from None
    kind = _kind(mode)
    if folder and not stat.S_ISDIR(mode):
        raise OutputPathError(option, path, f"is {kind or 'a file'}, not a folder")
    if not folder and kind is not None:
        shown = "is a folder" if kind == "a folder" else f"is {kind}, not a regular file: refused"
        raise OutputPathError(option, path, shown)
    return real


def check_writable(path: Path, option: str) -> None:
    """Raise OutputPathError unless ``path`` could be written now."""
    real = target_of(path, option)
    folder = real.parent
    if not folder.is_dir():
        raise OutputPathError(option, path, f"the folder {str(path.parent)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (real.exists() and not os.access(real, os.W_OK)):
        raise OutputPathError(option, path, "not writable (permission denied)")


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str, option: str = "") -> None:
    """Write ``text`` as UTF-8 to ``path`` (through a symlink) by a uniquely named temporary file and a rename.

    Raises:
        OutputPathError: the target is not a regular file, or the write failed (the old file is kept).
    """
    real = target_of(path, option)
    if not real.parent.is_dir():
        raise OutputPathError(option, path, f"cannot be written: the folder {str(path.parent)!r} does not exist")
    data = clean_text(text).encode("utf-8")
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    except OSError as err:
        raise OutputPathError(option, path, f"cannot be written: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise OutputPathError(option, path, f"cannot be written: {err.strerror or err}") from None
        raise


def write_folder(out: Path, files: Mapping[str, str], option: str = "--out") -> list[Path]:
    """Write ``files`` (name -> text) as the folder ``out``, built beside it and moved into place whole.

    An existing ``out`` is replaced only when it holds nothing but pages (``SITE_SUFFIXES``), so a
    folder of other files is never swept away. Returns the paths written.

    Raises:
        OutputPathError: ``out`` is not a folder, holds other files, or a write failed (the old
            folder is kept as it was).
    """
    real = check_folder(out, option)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=real.parent, prefix=f".{real.name}.", suffix=".new"))
    except OSError as err:
        raise OutputPathError(option, out, f"cannot be written: {err.strerror or err}") from None
    try:
        for name, text in files.items():
            (fresh / name).write_bytes(clean_text(text).encode("utf-8"))
        os.chmod(fresh, 0o777 & ~_umask())
        _swap(fresh, real)
    except OSError as err:
        shutil.rmtree(fresh, ignore_errors=True)
        raise OutputPathError(option, out, f"cannot be written (the old one is kept): {err.strerror or err}") from None
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return [out / name for name in files]


def check_folder(out: Path, option: str = "--out") -> Path:
    """The real folder ``write_folder`` would replace; OutputPathError when it may not (before any work)."""
    real = target_of(out, option, folder=True)
    if real.is_dir():
        other = sorted(p.name for p in real.iterdir() if not (p.is_file() and p.suffix in SITE_SUFFIXES))
        if other:
            why = f"holds {other[0]!r}, which is not a page: give an empty folder or a site built before"
            raise OutputPathError(option, out, why)
    return real


def _swap(fresh: Path, real: Path) -> None:
    """Put ``fresh`` where ``real`` is (the old folder removed once the new one is in place)."""
    if not real.exists():
        os.rename(fresh, real)
        return
    old = Path(tempfile.mkdtemp(dir=real.parent, prefix=f".{real.name}.", suffix=".old"))
    os.rename(real, old / "site")
    try:
        os.rename(fresh, real)
    except OSError:
        os.rename(old / "site", real)
        raise
    shutil.rmtree(old, ignore_errors=True)
