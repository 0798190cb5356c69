"""Search orders: which position the best-first search expands next. An order never decides an
answer (every answer is exact whatever the order); it decides how soon a win is found.

``Promise`` scores a position by cards home, reshuffles kept, how deep the cards the
foundations take next lie in their piles, and how many pairs of one suit in one pile lie upside
down for the foundations (``tangles``). No single weighting finds every win soon: on the same
deal one weighting wins in a few thousand positions and another wanders for millions. So the
solver restarts with a *portfolio* of weightings (``PORTFOLIO``), each for a slice of nodes that
grows after each round (``slices``), the way SAT solvers restart to escape an unlucky order. From the
second round on, each weighting's score gets a tie-break drawn from the position's key and the
round (``noise``, ``SPREAD``), so that a restart explores anew rather than repeating its order's
last search with more nodes (SAT solvers randomise their restarts for the same reason).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position
from crescent_ref.profiles import Profile

DEEP = 20  # a card not in the piles counts as this deep


@dataclass(frozen=True, slots=True)
class Promise:
    """Larger is expanded sooner: ``home`` per card on the foundations, ``kept`` per reshuffle
    left, minus ``buried`` per card above each card a foundation takes next (its shallowest copy),
    minus ``tangled`` per tangle; with a ``spread``, plus a tie-break from the position's key and
    ``seed`` (``noise``), so that searches with other seeds take other paths."""

    home: int = 8
    kept: int = 48
    buried: int = 1
    tangled: int = 0
    seed: int = 0
    spread: int = 0

    def __post_init__(self) -> None:
        if self.spread < 0 or not 0 <= self.seed < 2**32:
            raise ValueError(f"{self!r}: seed is 0..2**32-1 and spread at least 0")

    def __call__(self, pos: Position) -> int:
        buried, tangled = features(pos)
        return (pos.foundation_count() * self.home + pos.reshuffles * self.kept - self.buried * buried
                - self.tangled * tangled)

    def __str__(self) -> str:
        tie = f",seed {self.seed},spread {self.spread}" if self.spread else ""
        return f"promise({self.home},{self.kept},{self.buried},{self.tangled}{tie})"


def noise(order: Callable[[Position], int], pos_key: bytes) -> int:
    """A queued position's tie-break, added to ``order``'s score: ``zlib.crc32(key, seed) % spread``
    for a Promise with a spread, else 0. It depends on the key alone, so both loops (and the
    compiled core, csrc/steps.c) queue alike; it only reorders positions, so every answer stays exact."""
    if not isinstance(order, Promise) or not order.spread:
        return 0
    return zlib.crc32(pos_key, order.seed) % order.spread


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


def tangles(pos: Position) -> int:
    """Pairs of cards of one suit in one pile, the upper one due home after the lower (both with
    one way home: ranks the Ace foundation has passed go down, ranks the King foundation has
    passed go up)."""
    count = 0
    for pile in pos.piles:
        seen: list[tuple[int, int]] = []  # (suit, when due) of the cards below
        for card in pile:
            suit, rank = divmod(card, 13)
            rank += 1
            if rank <= pos.up[suit]:
                due = KING - rank  # down the King foundation: high ranks first
            elif rank >= pos.down[suit]:
                due = rank
            else:
                continue
            count += sum(1 for s, d in seen if s == suit and d < due)
            seen.append((suit, due))
    return count


Share = tuple[int, tuple[tuple[int, int], ...]]  # a pile's tangles; (i, depth) of next card i in it
MEMO_SIZE = 300_000  # pile shares remembered before the memo is cleared


class _State:
    """What ``features`` needs of one foundation state, and the pile shares counted in it."""

    __slots__ = ("codes", "nexts", "shares")

    def __init__(self, up: tuple[int, ...], down: tuple[int, ...]) -> None:
        self.nexts = [s * 13 + up[s] for s in range(4) if up[s] < KING]
        self.nexts += [s * 13 + down[s] - 2 for s in range(4) if down[s] > ACE]
        # a card's suit * 16 + when it is due (as in ``tangles``), or -1: a pair of one suit is
        # upside down when the upper code ``u`` and the lower ``l`` have u - u % 16 <= l < u
        self.codes = [_code(card, up[card // 13], down[card // 13]) for card in range(52)]
        self.shares: dict[tuple[int, ...], Share] = {}

    def share(self, pile: tuple[int, ...]) -> Share:
        codes, count = [self.codes[c] for c in pile], 0
        for i, upper in enumerate(codes):
            if upper > 0:
                low = upper - upper % 16
                count += sum(1 for lower in codes[:i] if low <= lower < upper)
        top = len(pile) - 1
        depths = tuple((i, top - max(j for j, c in enumerate(pile) if c == n))
                       for i, n in enumerate(self.nexts) if n in pile)
        found = self.shares[pile] = (count, depths)
        return found


def _code(card: int, up: int, down: int) -> int:
    suit, rank = divmod(card, 13)
    rank += 1
    return suit * 16 + KING - rank if rank <= up else suit * 16 + rank if rank >= down else -1


_STATES: dict[tuple[tuple[int, ...], tuple[int, ...]], _State] = {}
_SIZE = [0]


def features(pos: Position) -> tuple[int, int]:
    """``(burial(pos), tangles(pos))``, fast: both add up over the piles, so each pile's share
    is remembered per foundation state (a position's children share most of its piles)."""
    state = _STATES.get((pos.up, pos.down))
    if state is None or _SIZE[0] > MEMO_SIZE:
        state = _fresh(pos)
    tangled, depths, shares = 0, [DEEP] * len(state.nexts), state.shares
    for pile in pos.piles:
        share = shares.get(pile)
        if share is None:
            share, _SIZE[0] = state.share(pile), _SIZE[0] + 1
        tangled += share[0]
        for i, depth in share[1]:
            if depth < depths[i]:
                depths[i] = depth
    return sum(depths), tangled


def _fresh(pos: Position) -> _State:
    if _SIZE[0] > MEMO_SIZE:
        _STATES.clear()
        _SIZE[0] = 0
    state = _STATES[(pos.up, pos.down)] = _State(pos.up, pos.down)
    return state


def depth_first(pos: Position) -> int:
    """Every position alike: the newest is expanded first (depth first), for re-proving an answer
    another way."""
    return 0


Order = Callable[[Position], int]

# Chosen on 48 app deals (codes 100-147 of benchmarks/winrate.py's list, 2 CPU seconds each, one
# order at a time): the first wins 25; each next one adds the most wins the earlier ones missed
# (8, 4, 3, 1); the last three add variety. All ten tried won 41 of the 48 between them.
PORTFOLIO: tuple[Promise, ...] = (
    Promise(8, 48, 1, 4), Promise(8, 48, 1, 0), Promise(8, 48, 1, 6), Promise(8, 48, 0, 4),
    Promise(8, 48, 2, 4), Promise(8, 40, 1, 4), Promise(16, 48, 1, 4), Promise(8, 24, 1, 0),
)
FIRST_SLICE = 8_000  # nodes for each order in the first round; doubled each round
NO_WRAP_FIRST = 32_000  # the same without the wrap (hoffmann-1892). Chosen on the training half of hoffmann-1892's 10 s
# unknowns (benchmarks/bench_orders.py --recorded: the first 14, each at the nodes its 10 s run spent, where the 8,000
# slice won none of them): 32,000 won 4, 64,000 2; the portfolio without its weakest orders (5 or 7 of the 8) 1 each
# (held out, 10 CPU s: 8 of 42 won). In open 32,000 won 2 of its 10 training unknowns, 0 of the 10 held out: not taken
SPREAD = 8  # the tie-break's range from the second round on (0: every round repeats the same searches). Chosen on
# the training half of the 10 s runs' unknowns (benchmarks/bench_orders.py, 2 M nodes a deal, 14 app and 14
# hoffmann-1892 deals): without it 0 of the first 12 won; spread 4: 8 of 12; 8: 19 of 28; 16: 19 of 28; 32: 8 of 12;
# 8 with half the first slice: 10 of 16 (12 with the full one); 8 with only the first order: 7 of 12


def first_slice(profile: Profile) -> int:
    """The first round's slice for ``profile``: NO_WRAP_FIRST without the wrap, else FIRST_SLICE. Without
    the wrap fewer cards can move out of the way, and a first-round search that needs more than 8,000
    nodes to win is common (measured: see NO_WRAP_FIRST). A first-round search begins as it did with
    the smaller slice and runs on further (what earlier searches proved lost may differ), so an easy
    deal is still won early; the control runs of docs/solver.md check it."""
    return FIRST_SLICE if profile.pile_wrap else NO_WRAP_FIRST


def slices(orders: tuple[Order, ...], first: int = FIRST_SLICE, spread: int = 0, *, skip: int = 0,
           seeds: int = 0) -> Iterator[tuple[Order, int]]:
    """The restarts, endless: each order of ``orders`` for ``first`` nodes, then each for twice as
    many, and so on (the caller's budget ends it). With a ``spread``, round ``r`` (from 0) gives each
    Promise from the second round on the tie-break of seed ``r`` (``noise``), so a restart is not the
    previous search of its order again with more nodes; the first round stays as it was. ``skip``
    rounds are left out (the sequence starts at round ``skip``), and ``seeds`` is added to every seed
    (another sequence of tie-breaks). (Luby's sequence of slices instead of doubling, seeded alike,
    won 5 of 14 training deals against 7.)"""
    size, rounds = first << skip, skip
    while True:
        for order in orders:
            if spread and rounds and isinstance(order, Promise):
                order = replace(order, seed=seeds + rounds, spread=spread)
            yield order, size
        size, rounds = size * 2, rounds + 1


def merged(*plans: Iterator[tuple[Order, int]]) -> Iterator[tuple[Order, int]]:
    """Several restart sequences in turn, endless: the next search is the next one of the sequence
    that has been given the fewest nodes so far (the first of them on a tie), so each gets its share."""
    given = [0] * len(plans)
    while True:
        turn = given.index(min(given))
        order, size = next(plans[turn])
        given[turn] += size
        yield order, size
