"""The solver's compiled core as an in-process implementation (``--impl conformance.adapters.compiled:factory``):
the reference adapter whose games move, reshuffle and judge on ``crescent_ref/solver/csrc/``
(``crescent_ref.solver.fastgame``), so that the corpus, perft and fuzz hold the compiled core as
they hold any implementation."""

from __future__ import annotations

from dataclasses import replace

from conformance.adapter import Info
from conformance.adapters.reference import OnDemandReference
from crescent_ref.game import Game
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast
from crescent_ref.solver.fastgame import CompiledGame


class CompiledCoreAdapter(OnDemandReference):
    """The reference behind the protocol, its moves and transitions from the compiled core."""

    def info(self) -> Info:
        """The reference's info under the core's own name."""
        return replace(super().info(), name="crescent_ref-compiled-core")

    def _new_game(self, profile: str, position: str | None, code: str | None) -> Game:
        info = self.info()
        rules: Profile | str = info.reference_profile(profile) if info.deviated(profile) else profile
        return CompiledGame.deal(rules, code) if code else CompiledGame.from_text(rules, position or "")


def factory() -> CompiledCoreAdapter:
    """The compiled core's adapter; fast.CoreUnavailable (a loading fault) when it is not built."""
    why = fast.refusal(Profile.named("app"))
    if why:
        raise fast.CoreUnavailable(why)
    return CompiledCoreAdapter()
