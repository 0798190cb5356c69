"""A game log (spec/game-log.md) read into small frozen types: its header and one record per action."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crescent_ref.actions import Action

FORMAT_VERSION = 1
STATE_FIELDS = (
    "piles", "hidden", "foundations", "held", "reshuffles", "moves", "status", "foundation_cards", "undo", "selected",
)
EFFECTS = ("move", "select", "deselect", "reshuffle", "undo")


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The first line: the profile, the start (a position text or a game code), who wrote it."""

    line: int
    profile: str
    position: str | None = None
    code: str | None = None
    implementation: str = ""
    deviations: dict[str, dict[str, Any]] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    observes: frozenset[str] | None = None  # the observation capabilities of the game (None: all of them)
    reason_codes: frozenset[str] | None = None  # partial reasons: the only codes the game names (None: all)


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One action as the game saw it: accepted or refused, and what it recorded of the outcome.

    ``reason``, ``effect`` and ``moves`` are None when the log does not say; ``state`` holds only the
    fields of the canonical state JSON it recorded. ``text`` is the line itself, for error messages.
    """

    number: int
    line: int
    action: Action
    accepted: bool
    reason: str | None = None
    effect: str | None = None
    moves: tuple[str, ...] | None = None
    state: dict[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True, slots=True)
class GameLog:
    """A whole log: where it is, its header, its records in order."""

    file: str
    header: LogHeader
    records: tuple[LogRecord, ...]

    def location(self, line: int) -> str:
        """``file:line``."""
        return f"{self.file}:{line}"
