"""Game logs as pytest items (``--crescent-logs DIR``): one item per ``*.jsonl`` file, in a stable sorted
order, failing with the same report as ``crescent-conformance check-log``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.logs.check import check_log
from conformance.logs.read import LogError, read_log
from conformance.logs.report import format_verdict


def log_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.jsonl`` file below the folders (a file given is taken as it is), sorted."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.rglob("*.jsonl")) if path.is_dir() else [path])
    return files


class LogFolder(pytest.File):
    """A folder (or file) given to ``--crescent-logs``; its items are its logs."""

    def collect(self) -> Iterator[pytest.Item]:
        root = self.path if self.path.is_dir() else self.path.parent
        for file in log_files([self.path]):
            name = file.relative_to(root).as_posix()
            yield LogItem.from_parent(self, name=name, nodeid=f"{self.nodeid}::{name}", log=file)


class LogItem(pytest.Item):
    """One game log, replayed on the reference."""

    def __init__(self, *, log: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.log = log

    def runtest(self) -> None:
        try:
            verdict = check_log(read_log(self.log))
        except LogError as err:
            raise LogFailed(f"log {err}") from None
        if not verdict.consistent:
            raise LogFailed(format_verdict(verdict))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, LogFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.log, 0, f"game log {self.name}"


class LogFailed(Exception):
    """The log differs from the reference, or cannot be read; the message is the report."""


def log_items(session: pytest.Session, paths: Iterable[Path]) -> list[tuple[LogFolder, list[pytest.Item]]]:
    """One folder node per path given, with its log items."""
    found = []
    for path in paths:
        node = LogFolder.from_parent(session, path=path.resolve(), nodeid=f"crescent/logs/{path.name}")
        found.append((node, list(node.collect())))
    return found
