"""The scenario model: what a scenario file holds, read into small frozen types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Citation:
    """A document, its section, and a short quote."""

    doc: str
    section: str
    quote: str

    def __str__(self) -> str:
        return f"{self.doc} § {self.section}: “{self.quote}”"


@dataclass(frozen=True, slots=True)
class Expect:
    """What must come of an action: outcome, reason, effect, card moves, state (each optional)."""

    outcome: str | None = None
    reason: str | None = None
    effect: str | None = None
    moves: tuple[str, ...] | None = None
    state: dict[str, Any] = field(default_factory=dict)
    messages: dict[str, str] | None = None  # language -> the message for the reason (exact text)

    def merged(self, override: Expect) -> Expect:
        """This expectation with the fields ``override`` sets replaced (state merged key by key).
        A profile that sets its own outcome or reason drops the default messages unless it gives its own."""
        new_reason = bool(override.outcome or override.reason)
        return Expect(
            outcome=override.outcome or self.outcome,
            reason=override.reason if new_reason else self.reason,
            effect=override.effect or self.effect,
            moves=override.moves if override.moves is not None else self.moves,
            state={**self.state, **override.state},
            messages=override.messages if override.messages is not None or new_reason else self.messages,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a scenario with what must come of it, by default and per profile."""

    number: int
    line: int
    action: str
    expect: Expect
    by_profile: dict[str, Expect] = field(default_factory=dict)
    note: str = ""

    def expected(self, profile: str) -> Expect:
        """The expectation for ``profile``."""
        override = self.by_profile.get(profile)
        return self.expect.merged(override) if override else self.expect


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario: a starting point, steps, and where it comes from."""

    id: str
    title: str
    area: str
    file: str
    line: int
    sources: tuple[Citation, ...]
    statements: tuple[str, ...]
    profiles: tuple[str, ...]
    features: tuple[str, ...]
    interpretations: tuple[str, ...]
    position: str | None
    code: str | None
    given_state: dict[str, Any]
    given_by_profile: dict[str, dict[str, Any]]
    steps: tuple[Step, ...]
    # The deviations it was written under (a fuzz finding or a converted log of a deviating game): it is
    # judged as if the implementation declared them for the profile's base (spec/protocol.md).
    declared: dict[str, dict[str, Any]] = field(default_factory=dict)

    def given_state_for(self, profile: str) -> dict[str, Any]:
        """The expected starting state for ``profile``."""
        return {**self.given_state, **self.given_by_profile.get(profile, {})}

    @property
    def location(self) -> str:
        """``file:line`` of the scenario."""
        return f"{self.file}:{self.line}"
