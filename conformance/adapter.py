"""The adapter protocol: how the runner drives an implementation, in-process or over stdio.

An adapter declares who it is and what it supports up front (``Info``), starts games, applies
actions, and reports the canonical state JSON (spec/interpreting.md) after each.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from crescent_ref.errors import NotationError
from crescent_ref.profiles import Profile, base_names, get_profile

# What an implementation can do beyond the core (actions, requests, state fields it reports) ...
OFFERS = ("undo", "tap", "drop", "game-codes", "legal-moves", "selection", "messages")
# ... and the parts of a reply it can observe: each is compared only when declared (spec/protocol.md).
OBSERVATIONS: dict[str, str] = {
    "reasons": "the reason code of a refusal (without it only accepted/refused is compared)",
    "waiting": "the waiting status (without it an expected waiting is satisfied by playing)",
    "undo-count": "STATE's undo field, how many moves an undo could take back",
    "effect": "the effect of an accepted action (move, select, deselect, reshuffle, undo)",
    "card-moves": "the card moves an accepted action made, autoplay included",
    "move-count": "STATE's moves field, the move counter (without it the counter is not compared)",
    "reshuffle-count": "STATE's reshuffles field, the reshuffles left (without it the counter is not compared)",
    "lost": "the lost status (without it an expected lost is satisfied by playing or waiting)",
}
# Observations added in protocol version 3: every earlier handshake is taken to observe them.
COUNTERS = ("move-count", "reshuffle-count", "lost")
CAPABILITIES = OFFERS + tuple(OBSERVATIONS)
# A protocol feature an implementation may declare among its capabilities: the runner then says, in
# each new_game and act request, which state fields it needs, and the reply need hold only those
# (spec/protocol.md, "State on demand"). Not in CAPABILITIES: an in-process adapter declaring it
# must take the ``fields`` keyword of ``start`` and ``act``.
STATE_ON_DEMAND = "state-on-demand"
# A protocol feature: the runner may send a scenario's requests as one ``batch`` request, answered by one
# reply holding a reply per request (spec/protocol.md, "Batches").
BATCH = "batch"


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
    deviations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    reason_codes: frozenset[str] | None = None  # partial reasons: the only codes it names (None: all, with reasons)

    def __post_init__(self) -> None:
        """NotationError for a deviation of an unknown base profile, parameter, or a value outside its type."""
        for base, changes in self.deviations.items():
            if base not in base_names():
                raise NotationError("base profile of a deviation", base, f"known: {', '.join(base_names())}")
            get_profile(base).changed(changes)

    def observes(self, capability: str) -> bool:
        """Whether the part of the reply named by an observation capability is reported (and so compared)."""
        return capability in self.capabilities or (capability == "reasons" and bool(self.reason_codes))

    def names_reason(self, code: str | None) -> bool:
        """Whether a refusal for ``code`` is judged on its reason: ``reasons`` declared, and ``code`` among the
        named ones when the implementation names only some (``reason_codes``)."""
        if self.reason_codes is not None:
            return code in self.reason_codes
        return "reasons" in self.capabilities

    def reference_profile(self, profile: str) -> Profile:
        """The rules this implementation declares for ``profile``: its base with the base's deviations, then
        its variants on top (``{"app": {"reshuffles": 4}}`` leaves app+six at 6)."""
        return Profile.declared(profile, self.deviations.get(profile.split("+")[0], {}))

    def deviated(self, profile: str) -> bool:
        """Whether the implementation declares deviations for ``profile``'s base."""
        return bool(self.deviations.get(profile.split("+")[0]))

    def deviation_lines(self) -> list[str]:
        """The declared deviations as read in a summary: ``app, except pile_limit=null, undo_limit=5``."""
        return [
            f"{base}, except " + ", ".join(f"{key}={json.dumps(value)}" for key, value in changes.items())
            for base, changes in self.deviations.items()
            if changes
        ]

    def unobserved(self) -> dict[str, str]:
        """Observation capabilities not declared, each with what is therefore not compared."""
        return {name: what for name, what in OBSERVATIONS.items() if not self.observes(name)}

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


RESTART_LIMIT = 3  # stdio: processes in a row that fault before answering, before a plain game decides (0: none)
GIVEN_UP = "given up"  # how the fault of an implementation no longer started begins (conformance.adapters.stdio)
NOT_SENT = "not sent any more"  # how a kind of request no longer sent is named (conformance.adapters.kinds)


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


class OnDemand(Protocol):
    """An adapter declaring ``state-on-demand``: ``fields`` names the state fields wanted (None: all)."""

    def start(
        self,
        profile: str,
        *,
        position: str | None = None,
        code: str | None = None,
        fields: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """As Adapter.start; the state need hold only ``fields``."""
        ...

    def act(self, action: str, fields: frozenset[str] | None = None) -> Reply:
        """As Adapter.act; the state need hold only ``fields``."""
        ...


def on_demand(adapter: Adapter, info: Info) -> bool:
    """Whether to ask ``adapter`` for only the state fields needed: it declares ``state-on-demand`` and its
    ``start`` and ``act`` take ``fields`` (a wrapper that copies an inner adapter's capabilities may not)."""
    return STATE_ON_DEMAND in info.capabilities and _takes_fields(type(adapter))


@functools.cache
def _takes_fields(kind: type) -> bool:
    try:
        return all("fields" in inspect.signature(getattr(kind, name)).parameters for name in ("start", "act"))
    except (AttributeError, TypeError, ValueError):
        return False


Call = tuple[str, dict[str, Any]]  # an announced call: "start", "act" or "legal_moves" and its keyword arguments


def pipelines(adapter: Adapter) -> bool:
    """The adapter can be told the calls about to be made (``prefetch``); others gain nothing from it."""
    return callable(getattr(adapter, "prefetch", None))


def announce(adapter: Adapter, calls: list[Call], ahead: bool = False) -> None:
    """Tell an adapter that can pipeline (``prefetch``, the stdio adapter) the calls about to be made, in
    order, so that it sends them at once; the calls themselves are then made as usual. Others ignore it.
    ``ahead``: these come after the calls announced before (the next scenario's)."""
    prefetch = getattr(adapter, "prefetch", None)
    if callable(prefetch) and calls:
        prefetch(calls, ahead)


def start_game(
    adapter: Adapter, profile: str, position: str | None, code: str | None, fields: frozenset[str] | None
) -> dict[str, Any]:
    """``adapter.start``, asking only for ``fields`` when given (the adapter declared state on demand)."""
    if fields is None:
        return adapter.start(profile, position=position, code=code)
    return cast(OnDemand, adapter).start(profile, position=position, code=code, fields=fields)


def act(adapter: Adapter, action: str, fields: frozenset[str] | None) -> Reply:
    """``adapter.act``, asking only for ``fields`` when given (the adapter declared state on demand)."""
    return adapter.act(action) if fields is None else cast(OnDemand, adapter).act(action, fields=fields)
