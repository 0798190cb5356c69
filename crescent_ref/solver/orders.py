"""Search orders: which position the best-first search expands next. An order never decides an
answer (every answer is exact whatever the order); it decides how soon a win is found.

``Promise`` scores a position by cards home, reshuffles kept, and how deep the cards the
foundations take next lie in their piles. No single weighting finds every win soon: on the same
deal one weighting wins in a few thousand positions and another wanders for millions. So the
solver restarts with a *portfolio* of weightings (``PORTFOLIO``), each for a slice of nodes that
grows after each round (``slices``), the way SAT solvers restart to escape an unlucky order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position

DEEP = 20  # a card not in the piles counts as this deep


@dataclass(frozen=True, slots=True)
class Promise:
    """Larger is expanded sooner: ``home`` per card on the foundations, ``kept`` per reshuffle
    left, minus ``buried`` per card above each card a foundation takes next (its shallowest copy)."""

    home: int = 8
    kept: int = 48
    buried: int = 1

    def __call__(self, pos: Position) -> int:
        return pos.foundation_count() * self.home + pos.reshuffles * self.kept - self.buried * burial(pos)

    def __str__(self) -> str:
        return f"promise({self.home},{self.kept},{self.buried})"


def burial(pos: Position) -> int:
    """How many cards lie above the cards the eight foundations take next (shallowest copies)."""
    depth: dict[int, int] = {}
    for pile in pos.piles:
        below = len(pile) - 1
        for i, card in enumerate(pile):
            if depth.get(card, DEEP) > below - i:
                depth[card] = below - i
    buried = 0
    for suit in range(4):
        if pos.up[suit] < KING:
            buried += min(depth.get(suit * 13 + pos.up[suit], DEEP), DEEP)
        if pos.down[suit] > ACE:
            buried += min(depth.get(suit * 13 + pos.down[suit] - 2, DEEP), DEEP)
    return buried


def depth_first(pos: Position) -> int:
    """Every position alike: the newest is expanded first (depth first), for re-proving an answer
    another way."""
    return 0


Order = Callable[[Position], int]

# Measured on app deals (docs/solver.md): each finds wins the others miss.
PORTFOLIO: tuple[Promise, ...] = (
    Promise(8, 48, 1), Promise(8, 24, 1), Promise(16, 48, 1), Promise(8, 64, 2),
    Promise(8, 32, 1), Promise(8, 96, 1), Promise(8, 48, 0), Promise(12, 40, 2),
)
FIRST_SLICE = 6_000  # nodes for each order in the first round; doubled each round


def slices(orders: tuple[Order, ...], first: int = FIRST_SLICE) -> Iterator[tuple[Order, int]]:
    """The restarts, endless: each order of ``orders`` for ``first`` nodes, then each for twice as
    many, and so on (the caller's budget ends it)."""
    size = first
    while True:
        for order in orders:
            yield order, size
        size *= 2
