"""Building a position by hand: set the foundations and the piles that matter, fill the rest.

The corner generators (corners.py) place the few cards a rule corner needs; ``Table.position``
spreads every other card (two of each in all) over the remaining piles, at random or, with
``inert``, with top cards that fit no foundation and no other top (as crescent_ref.compose does),
so that nothing but the corner can move.
"""

from __future__ import annotations

import random

from crescent_ref import rules
from crescent_ref.actions import DOWN, PILES, UP
from crescent_ref.cards import ACE, KING
from crescent_ref.errors import NotationError
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


def card(suit: int, rank: int) -> int:
    """The card index of ``rank`` (1..13, wrapping) of ``suit``."""
    return suit * 13 + (rank - 1) % 13


class Table:
    """A position under construction for one profile."""

    def __init__(self, profile: Profile, rng: random.Random) -> None:
        self.profile, self.rng = profile, rng
        self.up, self.down, self.held = [ACE] * 4, [KING] * 4, [0] * 4
        self.piles: dict[int, list[int]] = {}
        self.reshuffles = profile.reshuffles
        self.quiet_suits: set[int] = set()  # suits no inert top may be of (foundations that meet)

    def foundation(self, suit: int, up: int, down: int, held: int = 0) -> Table:
        """Set the tops of ``suit``'s two foundations (and its held card)."""
        self.up[suit], self.down[suit], self.held[suit] = up, down, held
        return self

    def pile(self, cards: list[int], at: int | None = None) -> int:
        """Put ``cards`` (bottom first) on a free pile (``at`` or a random one); its index."""
        index = at if at is not None else self.rng.choice(self.free())
        self.piles[index] = list(cards)
        return index

    def free(self) -> list[int]:
        """Piles not yet set."""
        return [i for i in range(PILES) if i not in self.piles]

    def pool(self) -> list[int]:
        """The cards still to place (two of each in all), shuffled; NotationError when overused."""
        counts = Position(self._piles(), (0,) * PILES, tuple(self.up), tuple(self.down), tuple(self.held)).card_counts()
        if any(n > 2 for n in counts.values()):
            raise NotationError("position", "table", "a card placed more than twice")
        cards = [c for c in range(52) for _ in range(2 - counts[c])]
        self.rng.shuffle(cards)
        return cards

    def draw(self, n: int) -> list[int]:
        """``n`` random cards of the pool (not yet placed: place them with ``pile``)."""
        return self.pool()[:n]

    def stacks(self, tops: list[list[int]], unders: list[int]) -> list[int]:
        """Piles of ``unders[k]`` random cards under the cards ``tops[k]``, on free piles; their indices.

        The top cards are taken from the pool first, so the random cards never use them up.
        """
        pool = self.pool()
        for c in (c for top in tops for c in top):
            if c not in pool:
                raise NotationError("position", "table", "a card placed more than twice")
            pool.remove(c)
        placed = []
        for top, n in zip(tops, unders, strict=True):
            placed.append(self.pile([*pool[:n], *top]))
            pool = pool[n:]
        return placed

    def _piles(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(self.piles.get(i, ())) for i in range(PILES))

    def position(self, *, inert: bool = False, empty: int = 0) -> Position:
        """The finished position; ``empty`` free piles are left empty."""
        free, cards = self.free(), self.pool()
        self.rng.shuffle(free)
        free = free[empty:] if len(free) > empty else free
        if cards and not free:
            raise NotationError("position", "table", "cards left and no pile to put them in")
        tops = _inert_tops(self, cards, len(free)) if inert else []
        for c in tops:
            cards.remove(c)
        for k, c in enumerate(cards):
            self.piles.setdefault(free[k % len(free)], []).append(c)
        for index, c in zip(free, tops, strict=False):
            self.piles.setdefault(index, []).append(c)
        return self._finish()

    def _finish(self) -> Position:
        piles = self._piles()
        hidden = tuple(max(len(p) - 1, 0) for p in piles) if self.profile.closed else (0,) * PILES
        return Position(piles, hidden, tuple(self.up), tuple(self.down), tuple(self.held), self.reshuffles, 0)


def _inert_tops(table: Table, cards: list[int], n: int) -> list[int]:
    """``n`` cards of ``cards`` to top the filler piles: none fits a foundation or another top."""
    pos = Position(table._piles(), (0,) * PILES, tuple(table.up), tuple(table.down), tuple(table.held))
    tops = [p[-1] for p in pos.piles if p]
    chosen: list[int] = []
    for c in cards:
        if len(chosen) == n:
            break
        allowed = c not in chosen and c // 13 not in table.quiet_suits
        if allowed and _quiet(pos, c, tops + chosen, table.profile.pile_wrap):
            chosen.append(c)
    if len(chosen) < n:
        raise NotationError("position", "table", "no inert card left to top a filler pile")
    return chosen


def _quiet(pos: Position, c: int, tops: list[int], wrap: bool) -> bool:
    suit, rank = divmod(c, 13)
    if rank + 1 in rules.foundation_takes(pos, UP + suit) + rules.foundation_takes(pos, DOWN + suit):
        return False
    near = {card(suit, n) for n in rules.neighbours(rank + 1, wrap)} | {c}
    return not near.intersection(tops)

