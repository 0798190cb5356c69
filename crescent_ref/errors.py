"""Exceptions, split by who is at fault.

- NotationError: text that is not valid Crescent notation (a card, place, action, position, code).
- IllegalActionError: a well-formed action that the rules refuse (carries the reason code).
- ScenarioError: a broken scenario or spec file (names file, line and JSON path).
- NonConformingError: an implementation under test that broke the protocol or the rules.
"""

from __future__ import annotations

QUOTE_LIMIT = 80  # characters of offending text quoted in a message


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to ``limit`` characters with an ellipsis saying how long it was.

    >>> quoted("p1-p2")
    "'p1-p2'"
    >>> quoted("x" * 100, 10)
    "'xxxxxxxxxx'… (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


class CrescentError(Exception):
    """Base of every error this kit raises on purpose."""


class NotationError(CrescentError, ValueError):
    """Text that cannot be read as the notation it claims to be; the message quotes it."""

    def __init__(self, kind: str, text: str, why: str) -> None:
        self.kind = kind
        self.text = text
        self.why = why
        super().__init__(f"invalid {kind}: {quoted(text)}: {why}")


class IllegalActionError(CrescentError):
    """A legal-looking action the rules refuse; `reason` is a code from spec/reasons.yaml."""

    def __init__(self, action: str, reason: str, position: str) -> None:
        self.action = action
        self.reason = reason
        self.position = position
        super().__init__(f"illegal action {action!r} ({reason}) in {position}")


class ScenarioError(CrescentError):
    """A scenario or spec data file that is malformed; the message names file, line and path."""

    def __init__(self, file: str, line: int | None, where: str, why: str) -> None:
        self.file = file
        self.line = line
        self.where = where
        self.why = why
        at = f"{file}:{line}" if line is not None else file
        super().__init__(f"{at}: {where}: {why}" if where else f"{at}: {why}")


class NonConformingError(CrescentError):
    """An implementation under test answered outside the protocol."""
