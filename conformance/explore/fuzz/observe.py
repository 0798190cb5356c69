"""What the implementation lets fuzz see, and what the user told fuzz to look past.

``Observed`` answers, from the handshake, which state fields and reply parts are compared (an
implementation that does not observe ``waiting`` reports it as ``playing``; without ``undo-count``
the undo depth is not compared; without ``reasons`` only accepted/refused is). ``Ignore`` holds the
``--ignore KIND:VALUE`` rules: a known difference fuzz should look past.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.adapter import Info
from crescent_ref.errors import NotationError

# The state fields every implementation reports (spec/interpreting.md); optional ones follow.
BASE_FIELDS = ("piles", "hidden", "foundations", "held", "reshuffles", "moves", "status", "foundation_cards")
IGNORE_KINDS = ("reason", "status", "field", "action", "rule")
LEGAL_FIELDS = ("legal_moves", "legal-moves")  # field:legal-moves: the legal-move lists are not compared


@dataclass(frozen=True, slots=True)
class Ignore:
    """Known differences to look past: reason codes, statuses, state fields, action kinds, rules."""

    reasons: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    fields: frozenset[str] = frozenset()
    actions: frozenset[str] = frozenset()
    rules: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, rules: list[str]) -> Ignore:
        """``reason:pile-full``, ``status:waiting``, ``field:undo``, ``action:tap``, ``rule:pile-wrap`` (a rule
        a finding names, rulebook.py); NotationError names a bad one."""
        from conformance.explore.fuzz.rulebook import BY_ID

        sets: dict[str, set[str]] = {k: set() for k in IGNORE_KINDS}
        for rule in rules:
            kind, sep, value = rule.partition(":")
            if not sep or kind not in sets or not value:
                kinds = ", ".join(IGNORE_KINDS)
                raise NotationError("ignore rule", rule, f"expected KIND:VALUE with KIND one of {kinds}")
            if kind == "rule" and value not in BY_ID:
                raise NotationError("ignore rule", rule, f"unknown rule; known: {', '.join(BY_ID)}")
            sets[kind].add(value)
        return cls(*(frozenset(sets[k]) for k in IGNORE_KINDS))


@dataclass(frozen=True, slots=True)
class Observed:
    """The parts of a reply and state that are compared for one implementation."""

    fields: tuple[str, ...]
    reasons: bool
    waiting: bool
    legal_moves: bool
    ignore: Ignore
    effect: bool = True
    card_moves: bool = True
    lost: bool = True
    reason_codes: frozenset[str] | None = None  # partial reasons: only these are compared

    @classmethod
    def of(cls, info: Info, ignore: Ignore = Ignore()) -> Observed:
        """What ``info`` lets fuzz compare, less what ``ignore`` names."""
        extra = [f for f, cap in (("undo", "undo-count"), ("selected", "selection")) if info.observes(cap)]
        counters = (("moves", "move-count"), ("reshuffles", "reshuffle-count"))
        unseen = {f for f, cap in counters if not info.observes(cap)}
        fields = tuple(f for f in (*BASE_FIELDS, *extra) if f not in ignore.fields and f not in unseen)
        legal = "legal-moves" in info.capabilities and not set(LEGAL_FIELDS) & ignore.fields
        return cls(fields, info.observes("reasons"), info.observes("waiting"), legal, ignore,
                   info.observes("effect"), info.observes("card-moves"), info.observes("lost"), info.reason_codes)

    def status(self, status: Any) -> Any:
        """The status as this implementation can report it (``waiting`` is ``playing`` without it; ``lost``
        is ``waiting``, or ``playing``, without ``lost``)."""
        if status == "lost" and not self.lost:
            status = "waiting"
        return "playing" if status == "waiting" and not self.waiting else status

    def reason(self, reason: str | None) -> str | None:
        """The reason as compared: none without the ``reasons`` observation, nor outside the codes named."""
        named = self.reason_codes is None or reason in self.reason_codes
        return reason if self.reasons and named else None
