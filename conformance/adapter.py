"""The adapter protocol: how the runner drives an implementation, in-process or over stdio.

An adapter declares who it is and what it supports up front (``Info``), starts games, applies
actions, and reports the canonical state JSON (spec/interpreting.md) after each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

CAPABILITIES = ("undo", "tap", "drop", "game-codes", "legal-moves", "selection", "messages")


@dataclass(frozen=True, slots=True)
class Info:
    """What an implementation says of itself in the handshake."""

    name: str
    version: str
    language: str
    profiles: tuple[str, ...]
    variants: tuple[str, ...] = ()
    capabilities: frozenset[str] = frozenset()
    languages: tuple[str, ...] = ()

    def supports(self, profile: str) -> str | None:
        """None when ``profile`` (base+variants) is supported, else why not."""
        base, *variants = profile.split("+")
        if base not in self.profiles:
            return f"profile {base!r} not supported (declared: {', '.join(self.profiles)})"
        missing = [v for v in variants if v not in self.variants]
        return f"variant(s) {', '.join(missing)} not supported" if missing else None


@dataclass(frozen=True, slots=True)
class Reply:
    """An implementation's answer to one action."""

    accepted: bool
    reason: str | None
    effect: str | None
    moves: tuple[str, ...]
    state: dict[str, Any] = field(default_factory=dict)


class Skip(Exception):
    """Raised by an adapter for a request it cannot serve (the scenario is skipped, not failed)."""


class AdapterError(Exception):
    """The implementation misbehaved (crashed, hung, wrote garbage); ``context`` says what was seen."""

    def __init__(self, message: str, context: str = "") -> None:
        self.message = message
        self.context = context
        super().__init__(message + (f"\n{context}" if context else ""))


class RuleError(Exception):
    """The implementation refused to load a position or code (distinct from a rules difference)."""


@runtime_checkable
class Adapter(Protocol):
    """What the runner needs of an implementation."""

    def info(self) -> Info:
        """Name, version, language, profiles, variants and capabilities."""
        ...

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start a game from a position text or a game code; return the state JSON."""
        ...

    def act(self, action: str) -> Reply:
        """Apply one action (canonical text) and report its outcome and the state after it."""
        ...

    def legal_moves(self) -> list[str]:
        """The legal card moves now (only called with the ``legal-moves`` capability)."""
        ...

    def message(self, reason: str, lang: str) -> str:
        """The player-facing message of a reason code in ``lang`` (only called with ``messages``)."""
        ...

    def close(self) -> None:
        """Release the implementation (end a process, ...)."""
        ...
