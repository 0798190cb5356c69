"""A cache of scenario files already read, validated and linted, so start-up does not grow with the corpus.

Reading the corpus means parsing YAML with a line for every node and checking it against the JSON
Schema: most of a run's start-up. A file's entry records what that work found (the data, the lines,
whether lint found it clean) under a key made of the file's bytes and a *fingerprint* of everything
the work depends on: the kit's version, the spec's data files and the code that reads and lints
(``conformance/corpus``, ``crescent_ref``). Change any of them and the key changes: an entry is
never stale, only unused.

Entries are JSON (reading one runs no code), one file each, written to a unique temporary name
and renamed into place, so concurrent runs (xdist workers, two terminals) share the cache safely
and a reader sees a whole entry or none. A damaged entry is a miss. The folder is
``$CRESCENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/crescent-kit``, else ``~/.cache/crescent-kit``;
``CRESCENT_CACHE_DIR=off`` turns the cache off. Where the folder cannot be made or written (a
read-only home), the kit reads without it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import crescent_ref
from conformance import __version__
from conformance.corpus.yamlines import JsonPath, Located
from crescent_ref.spec_files import spec_dir

OFF = "off"
MAX_ENTRIES = 400  # older entries are pruned beyond this (one corpus is about 20 files)
_FORMAT = 1


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    chosen = os.environ.get("CRESCENT_CACHE_DIR", "")
    if chosen.strip().lower() == OFF:
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "crescent-kit"


@functools.cache
def fingerprint() -> str:
    """A digest of the kit's version and of every file the reading and linting of scenarios depend on."""
    digest = hashlib.sha256(f"{_FORMAT}:{__version__}".encode())
    for path in _inputs():
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _inputs() -> list[Path]:
    """The spec's data files (not the scenarios: each entry keys on its own bytes) and the reading code."""
    spec = spec_dir()
    here = Path(__file__).resolve().parent
    engine = Path(crescent_ref.__file__ or "").resolve().parent
    files = [p for p in spec.rglob("*") if p.is_file() and "scenarios" not in p.relative_to(spec).parts]
    files += sorted(here.glob("*.py")) + sorted(engine.glob("*.py"))
    return sorted(files)


def key(content: bytes) -> str:
    """The entry name for a file with these bytes under today's fingerprint."""
    return hashlib.sha256(fingerprint().encode() + b"\0" + content).hexdigest()


def lookup(name: str, content: bytes) -> tuple[Located, bool] | None:
    """The validated document stored for these bytes (named ``name``) and whether lint found it clean."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        raw = json.loads((folder / f"{key(content)}.json").read_text("utf-8"))
        lines = {_path(p): int(line) for p, line in raw["lines"]}
        return Located(name, raw["data"], lines), raw["lint_clean"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _path(stored: Any) -> JsonPath:
    if not isinstance(stored, list) or not all(isinstance(p, str | int) for p in stored):
        raise TypeError("a stored JSON path is a list of keys and indices")
    return tuple(stored)


def store(doc: Located, content: bytes, lint_clean: bool = False) -> None:
    """Remember that these bytes load as ``doc`` and pass the schema (and lint, if ``lint_clean``)."""
    folder = cache_dir()
    if folder is None:
        return
    kept = [[list(p), n] for p, n in doc.lines.items() if _kept(p)]
    entry = {"data": doc.data, "lines": kept, "lint_clean": lint_clean}
    with contextlib.suppress(OSError, TypeError, ValueError):
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write(folder, f"{key(content)}.json", json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
        _prune(folder)


def _kept(path: JsonPath) -> bool:
    """The lines a scenario keeps (its own and its steps'): a stored file is valid, so no other line is asked for."""
    return path[:1] == ("scenarios",) and (len(path) == 2 or (len(path) == 4 and path[2] == "steps"))


def _write(folder: Path, name: str, text: str) -> None:
    """Write ``folder/name`` whole: a unique temporary file in the same folder, then an atomic rename."""
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".entry-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _prune(folder: Path) -> None:
    """Drop the oldest entries beyond ``MAX_ENTRIES`` (another process may prune the same ones: fine)."""
    entries = list(folder.glob("*.json"))
    if len(entries) <= MAX_ENTRIES:
        return
    for old in sorted(entries, key=_mtime)[: len(entries) - MAX_ENTRIES]:
        with contextlib.suppress(OSError):
            old.unlink()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def mark_clean(docs: Iterable[tuple[Located, bytes]]) -> None:
    """Record that lint found each of these (already stored) files clean."""
    for doc, content in docs:
        store(doc, content, lint_clean=True)


class Memo:
    """Answers worth keeping across processes (e.g. a scenario's verdict under a changed profile), one JSON
    file per ``name`` and fingerprint: read once, added to in memory, merged into the file on ``flush``.

    Keys are strings the caller makes from the question's full content (never a file name alone), so
    an answer can never be read for another question; two processes flushing at once each merge what
    the file holds first, and a lost race loses answers, never correctness.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.known: dict[str, Any] | None = None
        self.fresh: dict[str, Any] = {}
        atexit.register(self.flush)  # what ``flush_due`` left unwritten

    def _file(self) -> Path | None:
        folder = cache_dir()
        return None if folder is None else folder / f"{self.name}-{fingerprint()[:32]}.json"

    def get(self, question: str) -> Any:
        """The stored answer, or None."""
        if self.known is None:
            self.known = _read_map(self._file())
        return self.fresh.get(question, self.known.get(question))

    def put(self, question: str, answer: Any) -> None:
        """Remember ``answer`` (flushed to the file later)."""
        self.fresh[question] = answer

    def flush_due(self) -> None:
        """Flush when the new answers are a quarter of the known ones or more: each flush rewrites the whole
        file, so a long run of questions rewrites it a logarithmic number of times, not once per call."""
        if len(self.fresh) * 4 >= len(self.known or {}):
            self.flush()

    def flush(self) -> None:
        """Merge the new answers into the file (written whole, atomically)."""
        target = self._file()
        if target is None or not self.fresh:
            return
        merged = {**_read_map(target), **self.fresh}
        with contextlib.suppress(OSError, TypeError, ValueError):
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            _write(target.parent, target.name, json.dumps(merged, separators=(",", ":")))
            self.known, self.fresh = merged, {}


def _read_map(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        found = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def digest(text: str) -> str:
    """A short content key for ``text``."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]
