"""Dead positions, second rule: placements that must happen before each other, in a circle.

Write ``e(X)`` for the time a pile card ``X`` is placed for good (onto a foundation or into the
hold). A won game places every pile card, so if the rules force ``e(A) < e(B) < ... < e(A)``, no
line wins. Two kinds of facts give such "before" edges:

1. **Locked over trapped** (as in ``dead.py``): a locked card ``X`` leaves its pile only to be
   placed, and every card trapped under it (``R`` or more cards below it, ``R`` the reshuffles
   left) leaves that pile only after ``X`` has: ``e(X) < e(Y)``.
2. **Foundation order, for cards with one way home.** A suit's Ace foundation holds one copy of
   each rank up to ``u``, its King foundation one of each from ``d``. A pile card of rank ``≤ u``
   is the last copy of its rank, and the Ace foundation has passed it: it can only go onto the
   King foundation. One of rank ``≥ d`` can only go onto the Ace foundation. Such cards go
   home in rank order: down the King foundation from the highest, up the Ace foundation from the
   lowest. Neither goes to the hold (that needs a card both foundations take). Where cards move
   between foundations the two could trade cards and this is not so, unless they already overlap
   (``d ≤ u``: they can never meet again); only such suits give edges there.

A circle among these edges proves the position dead. Profiles with give-backs are left out (a card
may leave a foundation). Checked against brute force in tests/solver/.
"""

from __future__ import annotations

import itertools

from crescent_ref.movegen import tables
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


def circular(profile: Profile, pos: Position) -> bool:
    """The placements the position forces contain a circle."""
    if profile.give_backs:
        return False
    edges: dict[int, list[int]] = {}
    loose = [0] * 53
    for pile in pos.piles:
        for card in pile:
            loose[card] += 1
    _lock_edges(profile, pos, loose, edges)
    if not edges:
        return False
    _foundation_edges(profile, pos, edges)
    return _has_cycle(edges)


def node(pile: int, index: int) -> int:
    """A pile card by where it lies."""
    return pile * 128 + index


def _lock_edges(profile: Profile, pos: Position, loose: list[int], edges: dict[int, list[int]]) -> None:
    near, low = tables(profile).near, pos.reshuffles
    for p, pile in enumerate(pos.piles):
        if len(pile) <= low + 1:
            continue
        trapped, locked_above = [0] * 53, [0] * 53
        for card in pile[low:]:
            trapped[card] += 1
        for i in range(len(pile) - 1, low, -1):
            card = pile[i]
            trapped[card] -= 1
            if all(loose[n] == trapped[n] + locked_above[n] for n in near[card]):
                locked_above[card] += 1
                edges.setdefault(node(p, i), []).extend(node(p, j) for j in range(low, i))


def _foundation_edges(profile: Profile, pos: Position, edges: dict[int, list[int]]) -> None:
    ups: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    downs: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    for p, pile in enumerate(pos.piles):
        for i, card in enumerate(pile):
            suit, rank = divmod(card, 13)
            rank += 1
            if rank <= pos.up[suit]:
                downs[suit].append((-rank, node(p, i)))
            elif rank >= pos.down[suit]:
                ups[suit].append((rank, node(p, i)))
    for suit in range(4):
        if profile.between_foundations and pos.down[suit] > pos.up[suit]:
            continue
        for chain in (sorted(ups[suit]), sorted(downs[suit])):
            for (_, first), (_, then) in itertools.pairwise(chain):
                edges.setdefault(first, []).append(then)


def _has_cycle(edges: dict[int, list[int]]) -> bool:
    """Depth first, iterative: a grey node met again closes a circle."""
    state: dict[int, int] = {}  # 1 grey (on the path), 2 black (done)
    for root in edges:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(edges[root]))]
        while stack:
            at, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                state[at] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return True
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(edges.get(nxt, ()))))
    return False
