"""One suit with its last two reshuffles: ``last.py``'s relaxation extended to two reshuffles left.

**What the first reshuffle leaves at the bottom.** Until the next reshuffle every pile keeps its
bottom card (``last.py``). The card second from the bottom, ``c``, is as fixed while a card lies
on it: cards join a pile only on top, and a card leaves only as its pile's top. When the first
reshuffle comes, a pile that still holds its bottom card and ``c`` lifts the bottom card to its top,
and ``c`` is the new bottom card, which stays until the second reshuffle lifts it.

**Following ``c`` from one suit's view.** For a suit ``s`` and a position ``P`` with two reshuffles
left (no autoplay), ``Q_s`` is ``P_s`` (``suits.one_suit``) with two reshuffles left. Each pile has
``base``, the number of its cards of ``s`` below ``c`` (1 when its bottom card is of ``s``, else 0).
While ``Q_s``'s pile has more than ``base`` cards, ``P``'s pile has a card of ``s`` at ``c``'s place or
above it, so ``c`` is still in place: if ``c`` is of ``s`` it is the card of ``Q_s``'s pile at index
``base`` (to leave, it must be the top, and the pile falls to ``base`` cards), and if not, a card of
``s`` lies on it. Once ``Q_s``'s pile has had ``base`` cards or fewer (or ``P``'s pile has fewer than
two cards), ``c`` may have gone, and the pile is *free*: what its bottom card will be after the
first reshuffle is not known. Free stays free.

**The relaxation.** ``Q_s`` is played by the usual rules, except its reshuffles. The first lifts
the bottom card only of the piles whose bottom card in ``P`` is of ``s`` (as in ``last.py``). Then
each pile is *rotating* for the second when it is not free and its ``c`` is of ``s``; a free pile
may be rotating or not, either way (one without a card of ``s`` is not: its bottom card, if any, is of
another suit), and the position after the first reshuffle is ``last.py``'s
relaxation with those marks.

**Claim.** If ``P`` can be won, so can ``Q_s`` for some choice of the free piles' marks. Cut a
winning line of ``P`` down to ``s``; ``last.py`` shows it stays legal in ``Q_s`` up to the first
reshuffle, with ``Q_s``'s piles ``P``'s piles without the other suits' cards, and that the first
reshuffles agree. So the free flags ``Q_s`` keeps are those of ``P``'s line. At the first reshuffle
a pile that is not free still holds its bottom card and ``c``, so ``P``'s new bottom card is ``c``;
for a free pile, choose the mark by ``P``'s new bottom card. Then the marks are those of
``last.rotating(P', s)`` for ``P'``, the position after ``P``'s first reshuffle, and ``Q_s`` after its
first reshuffle is ``last.py``'s relaxation of ``P'``, which ``last.py`` proves winnable since
``P'`` is. So when, for every position ``Q_s`` reaches before its first reshuffle, every choice of
marks is proved not winnable by ``last.py``, ``P`` is dead.

``solve`` searches ``Q_s`` depth first, each (position, free piles) once, drops positions ``dead``
proves lost (its argument holds when some piles never rotate), and at each position asks
``solve_one`` about each choice of marks after the first reshuffle (at most ``2 ** MOST_FREE``
choices; more answers ``unknown``: the relaxation is then too loose to be worth its cost).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import last

MARK = b"T"  # first byte of a key of this module's positions
MOST_FREE = 3  # free piles with a card of the suit, whose marks are tried both ways
Marks = tuple[bool, ...]
SolveOne = Callable[[Position, Marks], str]  # last.py's relaxation of a position with one reshuffle left


class Piles:
    """What one suit's view knows of each pile of ``P``: the first reshuffle's marks, the second's
    where ``c`` is in place, each pile's ``base``."""

    __slots__ = ("base", "first", "second")

    def __init__(self, pos: Position, suit: int) -> None:
        self.first = last.rotating(pos, suit)
        self.base = tuple(int(mark) for mark in self.first)
        self.second = tuple(len(pile) > 1 and pile[1] // 13 == suit for pile in pos.piles)

    def freed(self, part: Position, free: Marks) -> Marks:
        """The free flags after ``part``'s piles: set once a pile has ``base`` cards or fewer."""
        return tuple(f or len(pile) <= b for f, pile, b in zip(free, part.piles, self.base, strict=True))


def start_free(pos: Position, part: Position, piles: Piles) -> Marks:
    """The free flags of ``Q_s`` at the start: ``P``'s pile has fewer than two cards, or ``Q_s``'s no
    card of the suit at ``c``'s place or above."""
    short = tuple(len(pile) < 2 for pile in pos.piles)
    return piles.freed(part, short)


def key(part: Position, piles: Piles, free: Marks) -> bytes:
    """The memo key of ``Q_s`` (pile numbers matter: they carry the marks, so they stay in order)."""
    marks = bytes(m1 + 2 * m2 + 4 * f for m1, m2, f in zip(piles.first, piles.second, free, strict=True))
    return MARK + marks + last.marked_key(part, (False,) * len(part.piles))


def choices(after_first: Position, piles: Piles, free: Marks) -> list[Marks] | None:
    """The marks for the second reshuffle: each choice for the free piles that hold a card of the
    suit (one such card may be ``P``'s bottom card, and more may be put on it before the second
    reshuffle; a free pile without one has a bottom card of another suit, or none: not rotating);
    None if there are more than ``2 ** MOST_FREE`` choices."""
    open_ = [i for i, (f, pile) in enumerate(zip(free, after_first.piles, strict=True)) if f and pile]
    if len(open_) > MOST_FREE:
        return None
    found = []
    for bits in itertools.product((False, True), repeat=len(open_)):
        marks = list(s and not f for s, f in zip(piles.second, free, strict=True))
        for i, bit in zip(open_, bits, strict=True):
            marks[i] = bit
        found.append(tuple(marks))
    return found


def solve(profile: Profile, part: Position, piles: Piles, free: Marks, solve_one: SolveOne,
          nodes: int) -> tuple[str, int]:
    """``Q_s``'s verdict ("winnable", "not winnable", "unknown") and the positions generated."""
    return last.sweep(profile, (part, free), lambda state: state[0],
                      lambda state: first_reshuffle(state[0], piles, state[1], solve_one),
                      lambda state, child: (child, piles.freed(child, state[1])), nodes)


def first_reshuffle(pos: Position, piles: Piles, free: Marks, solve_one: SolveOne) -> str:
    """"not winnable" when every choice of marks after ``Q_s``'s first reshuffle is proved lost."""
    after_first = last.reshuffle(pos, piles.first)
    options = choices(after_first, piles, free)
    if options is None:
        return "unknown"
    for marks in options:
        verdict = solve_one(after_first, marks)
        if verdict != "not winnable":
            return verdict
    return "not winnable"
