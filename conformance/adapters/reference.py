"""The built-in reference engine as an in-process adapter (``--crescent-impl reference``)."""

from __future__ import annotations

from collections.abc import Mapping
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
            capabilities=frozenset(CAPABILITIES) | self._on_demand(),
            languages=("en", "id", "zh"),
            deviations=self.deviations,
        )

    def _on_demand(self) -> frozenset[str]:
        """``state-on-demand`` unless a subclass replaces ``start`` or ``act`` (it may not take ``fields``)."""
        kind = type(self)
        plain = kind.start is ReferenceAdapter.start and kind.act is ReferenceAdapter.act
        return frozenset({STATE_ON_DEMAND}) if plain else frozenset()

    def start(
        self,
        profile: str,
        *,
        position: str | None = None,
        code: str | None = None,
        fields: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """Start from a position text or a game code (``fields``: only these state fields)."""
        try:
            self.game = self._new_game(profile, position, code)
        except NotationError as err:
            raise RuleError(str(err)) from None
        return game_state(self.game) if fields is None else state_fields(self.game, fields)

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

    def act(self, action: str, fields: frozenset[str] | None = None) -> Reply:
        """Apply one action (``fields``: only these state fields in the reply)."""
        game = self._game()
        out = game.apply(action)
        state = game_state(game) if fields is None else state_fields(game, fields)
        return Reply(out.accepted, out.reason, out.effect, tuple(str(m) for m in out.moves), state)

    def legal_moves(self) -> list[str]:
        """The legal card moves."""
        return [str(m) for m in self._game().legal_moves()]

    def message(self, reason: str, lang: str) -> str:
        """The message of spec/reasons.yaml."""
        return messages.message(reason, lang)

    def close(self) -> None:
        """Nothing to release."""
        self.game = None


def factory() -> ReferenceAdapter:
    """Entry for ``--crescent-impl conformance.adapters.reference:factory``."""
    return ReferenceAdapter()
