"""A game played on the solver's compiled core: the legal moves, the status and what a move or a
reshuffle does come from ``csrc/*.c`` instead of ``movegen`` and ``transitions``.

It exists to hold the compiled core to the corpus, perft and fuzz like any implementation
(``crescent-conformance run --impl conformance.adapters.compiled:factory``). Everything else is
the reference's ``Game``: the order of the checks, undo, taps and drops. A refused move's reason is
the plain rules' (``rules.faults``), asked only once the compiled core has refused it; where the
plain rules find no fault the game refuses with ``compiled-core-refused``, which no scenario
expects, so a disagreement shows as a failure.
"""

from __future__ import annotations

from crescent_ref.actions import MOVES, PILES, Action
from crescent_ref.game import Game, Status
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.rules import faults
from crescent_ref.solver import fast

DISAGREES = "compiled-core-refused"


class CompiledGame(Game):
    """``Game`` on the compiled core (fast.CoreUnavailable when it is not built)."""

    def __init__(self, profile: Profile | str, position: Position) -> None:
        super().__init__(profile, position)
        self.core = fast.build(self.profile)

    def _facts(self) -> tuple[Position, Profile, list[Action], Status]:
        known = self._known
        if known is None or known[0] is not self.position or known[1] is not self.profile:
            pos = self.position
            status: Status = self.core.status(pos)  # type: ignore[assignment]
            known = self._known = (pos, self.profile, self.core.pile_moves(pos), status)
        return known

    def _foundation_moves(self) -> list[Action]:
        return self.core.foundation_moves(self.position)

    def _reason(self, src: int, dst: int) -> str | None:
        legal = self._pile_moves() if src < PILES else self._foundation_moves()
        if 0 <= src < len(MOVES) and 0 <= dst < len(MOVES) and MOVES[src][dst] in legal:
            return None
        return next(faults(self.profile, self.position, src, dst), DISAGREES)

    def _moved(self, src: int, dst: int, count: int) -> Position:
        return self.core.move(self.position, src, dst, count)

    def _reshuffled(self) -> Position:
        return self.core.reshuffle(self.position)

    def _deal_autoplay(self) -> None:
        self._autoplay()
