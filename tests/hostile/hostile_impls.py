"""In-process implementations that misbehave, for the CLI and plugin tests (``--impl hostile_impls:NAME``)."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.adapter import Info, Reply
from conformance.adapters.reference import ReferenceAdapter


class Skipper(ReferenceAdapter):
    """Declares no profile: every scenario is skipped."""

    def info(self) -> Info:
        return replace(super().info(), profiles=())


class NoUndo(ReferenceAdapter):
    """Raises NotImplementedError on undo (an adapter's own exception, not an AdapterError)."""

    def act(self, action: str) -> Reply:
        if action == "undo":
            raise NotImplementedError("undo is not written yet")
        return super().act(action)


class Slow(ReferenceAdapter):
    """Sleeps at every start; after the third, touches the file named by $HOSTILE_MARK (to time a Ctrl-C)."""

    starts = 0

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        Slow.starts += 1
        if Slow.starts == 3 and os.environ.get("HOSTILE_MARK"):
            Path(os.environ["HOSTILE_MARK"]).touch()
        time.sleep(0.05)
        return super().start(profile, position=position, code=code)


class Surrogate(ReferenceAdapter):
    """Names its implementation with a lone surrogate (which no UTF-8 file can hold)."""

    def info(self) -> Info:
        return replace(super().info(), name="bad\ud800name")


def skipper() -> Skipper:
    return Skipper()


def no_undo() -> NoUndo:
    return NoUndo()


def slow() -> Slow:
    return Slow()


def surrogate() -> Surrogate:
    return Surrogate()
