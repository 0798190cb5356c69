"""In-process implementations that declare deviations, for ``--impl declaring:<name>`` (this folder on the path)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.adapter import Reply
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
