"""The built-in reference engine as an in-process adapter (``--crescent-impl reference``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import crescent_ref
from conformance.adapter import CAPABILITIES, STATE_ON_DEMAND, Info, Reply, RuleError
from conformance.judging.state import game_state
from crescent_ref import messages
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.profiles import Profile, base_names, variant_names
from crescent_ref.state_json import state_fields


class ReferenceAdapter:
    """crescent_ref behind the adapter protocol; with ``deviations`` it plays (and declares) rules changed so."""

    def __init__(self, deviations: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.game: Game | None = None
        self.deviations = dict(deviations or {})

    def info(self) -> Info:
        """The reference engine supports every profile, variant and capability."""
        return Info(
            name="crescent_ref",
            version=crescent_ref.__version__,
            language="python",
            profiles=tuple(base_names()),
            variants=tuple(variant_names()),
            capabilities=frozenset(CAPABILITIES),
            languages=("en", "id", "zh"),
            deviations=self.deviations,
        )

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start from a position text or a game code."""
        self._load(profile, position, code)
        return game_state(self._game())

    def _load(self, profile: str, position: str | None, code: str | None) -> None:
        try:
            self.game = self._new_game(profile, position, code)
        except NotationError as err:
            raise RuleError(str(err)) from None

    def _new_game(self, profile: str, position: str | None, code: str | None) -> Game:
        """The game the runner asked for, under the declared deviations if any (a subclass may play another
        profile: conformance.coverage)."""
        info = self.info()
        rules: Profile | str = info.reference_profile(profile) if info.deviated(profile) else profile
        return Game.deal(rules, code) if code else Game.from_text(rules, position or "")

    def _game(self) -> Game:
        if self.game is None:
            raise RuleError("no game started")
        return self.game

    def act(self, action: str) -> Reply:
        """Apply one action."""
        game = self._game()
        out = game.apply(action)
        return Reply(out.accepted, out.reason, out.effect, tuple(str(m) for m in out.moves), game_state(game))

    def legal_moves(self) -> list[str]:
        """The legal card moves."""
        return [str(m) for m in self._game().legal_moves()]

    def message(self, reason: str, lang: str) -> str:
        """The message of spec/reasons.yaml."""
        return messages.message(reason, lang)

    def close(self) -> None:
        """Nothing to release."""
        self.game = None


class OnDemandReference(ReferenceAdapter):
    """The reference declaring ``state-on-demand``: ``start`` and ``act`` report only the state fields asked
    for (the in-process twin of a stdio adapter's ``"state": [...]``). A class of its own, so that the
    subclasses of ReferenceAdapter that replace ``act`` keep their signature and their whole states."""

    def info(self) -> Info:
        """The reference's info, with ``state-on-demand``."""
        info = super().info()
        return replace(info, capabilities=info.capabilities | {STATE_ON_DEMAND})

    def start(
        self,
        profile: str,
        *,
        position: str | None = None,
        code: str | None = None,
        fields: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """Start from a position text or a game code (``fields``: only these state fields)."""
        self._load(profile, position, code)
        game = self._game()
        return game_state(game) if fields is None else state_fields(game, fields)

    def act(self, action: str, fields: frozenset[str] | None = None) -> Reply:
        """Apply one action (``fields``: only these state fields in the reply)."""
        game = self._game()
        out = game.apply(action)
        state = game_state(game) if fields is None else state_fields(game, fields)
        return Reply(out.accepted, out.reason, out.effect, tuple(str(m) for m in out.moves), state)


def factory() -> ReferenceAdapter:
    """Entry for ``--crescent-impl conformance.adapters.reference:factory``."""
    return OnDemandReference()
