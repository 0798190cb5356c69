"""In-process implementations that declare deviations, for ``--impl declaring:<name>`` (this folder on the path)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from verdict_only import VerdictOnly, Wrapped

from conformance.adapter import AdapterError, Info, Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.judging.state import game_state
from crescent_ref.game import Game
from crescent_ref.profiles import Profile


def no_pile_limit() -> ReferenceAdapter:
    """The app without the 13-card limit and with five undo steps, both declared."""
    return ReferenceAdapter({"app": {"pile_limit": None, "undo_limit": 5}})


class PlaysOtherwise(ReferenceAdapter):
    """The reference playing ``plays`` (deviations) while its handshake declares ``declares``."""

    def __init__(self, plays: Mapping[str, Mapping[str, Any]], declares: Mapping[str, Mapping[str, Any]]) -> None:
        super().__init__(declares)
        self.plays = dict(plays)

    def _new_game(self, profile: str, position: str | None, code: str | None) -> Game:
        rules = Profile.declared(profile, self.plays.get(profile.split("+")[0], {}))
        return Game.deal(rules, code) if code else Game.from_text(rules, position or "")


def no_reshuffles_undeclared() -> PlaysOtherwise:
    """The app without reshuffles, not declared: a smoke names the deviation that would explain it."""
    return PlaysOtherwise({"app": {"reshuffles": 0}}, {})


def no_reshuffles() -> ReferenceAdapter:
    """The app without reshuffles, declared (``reshuffles: 0``, a true deviation of three real games)."""
    return ReferenceAdapter({"app": {"reshuffles": 0}})


def more_reshuffles() -> ReferenceAdapter:
    """Four reshuffles in the app, declared on the base: app+six still has six."""
    return ReferenceAdapter({"app": {"reshuffles": 4}})


def unbounded_undo() -> ReferenceAdapter:
    """The app with undo back to the deal (``undo_limit: null``)."""
    return ReferenceAdapter({"app": {"undo_limit": None}})


class RefusesReshuffles(ReferenceAdapter):
    """A game that shows reshuffles left but refuses every reshuffle (perft must not count it as played)."""

    def act(self, action: str) -> Reply:
        """Every reshuffle refused, the state unchanged."""
        if action == "reshuffle":
            return Reply(False, "no-reshuffles", None, (), game_state(self._game()))
        return super().act(action)


def refuses_reshuffles() -> RefusesReshuffles:
    """The reference refusing every reshuffle."""
    return RefusesReshuffles()


class Declares(Wrapped):
    """``inner`` seen through a game that observes, names or offers less, and declares exactly that."""

    drops: frozenset[str] = frozenset()  # capabilities it does not declare

    def info(self) -> Info:
        """The inner info without what this game lacks."""
        info = self.inner.info()
        return dataclasses.replace(info, capabilities=info.capabilities - self.drops)

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start, the state as this game reports it."""
        return self.seen(self.inner.start(profile, position=position, code=code))

    def act(self, action: str) -> Reply:
        """Act, the reply as this game reports it."""
        reply = self.inner.act(action)
        return dataclasses.replace(reply, reason=self.reason(reply.reason), state=self.seen(reply.state))

    def seen(self, state: dict[str, Any]) -> dict[str, Any]:
        """The state as this game reports it (unchanged here)."""
        return state

    def reason(self, reason: str | None) -> str | None:
        """The reason as this game gives it (unchanged here)."""
        return reason


class NoCounters(Declares):
    """A game that keeps no move counter and no reshuffle counter (both reported 0) and never says lost."""

    drops = frozenset({"move-count", "reshuffle-count", "lost"})

    def seen(self, state: dict[str, Any]) -> dict[str, Any]:
        """Counters 0, lost shown as playing."""
        status = "playing" if state.get("status") == "lost" else state.get("status")
        return {**state, "moves": 0, "reshuffles": 0, "status": status}


NAMED = frozenset({"pile-full", "wrong-suit", "no-reshuffles", "empty-pile", "game-over"})


class NamesSome(Declares):
    """A game that names five kinds of refusal (``reason_codes``) and gives no reason for the others."""

    drops = frozenset({"reasons"})

    def info(self) -> Info:
        """Declares its reason codes."""
        return dataclasses.replace(super().info(), reason_codes=NAMED)

    def reason(self, reason: str | None) -> str | None:
        """Only the named codes."""
        return reason if reason in NAMED else None


class NoCodes(Declares):
    """A game that deals with its own shuffle: it cannot start from a game code."""

    drops = frozenset({"game-codes"})

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Positions only."""
        if code is not None:
            raise AdapterError(f"this game cannot deal game code {code}")
        return super().start(profile, position=position)


def missing_capabilities() -> NoCounters:
    """Verdict only, and no counters and no lost status."""
    return NoCounters(VerdictOnly(ReferenceAdapter()))


def partial_reasons() -> NamesSome:
    """Five reason codes named."""
    return NamesSome(ReferenceAdapter())


def base_with_variants() -> ReferenceAdapter:
    """Deviations declared for the app base: four reshuffles, and a no-op give_backs: false."""
    return ReferenceAdapter({"app": {"reshuffles": 4, "give_backs": False}})


def no_game_codes() -> NoCodes:
    """No game-codes."""
    return NoCodes(ReferenceAdapter())


def pile_limit_undeclared() -> PlaysOtherwise:
    """The app without its pile limit, not declared: its differences go in an expectations file."""
    return PlaysOtherwise({"app": {"pile_limit": None}}, {})


class AppOnly(Declares):
    """A game of the app alone: no other base profile, no variant."""

    def info(self) -> Info:
        """Claims app only."""
        return dataclasses.replace(super().info(), name="app-only", profiles=("app",), variants=())


def app_only() -> AppOnly:
    """The reference claiming only the app."""
    return AppOnly(ReferenceAdapter())
