"""Cards that wait on each other: a proof that some pile card can never leave its pile.

``dead.py`` looks at one card and the cards under it. This rule looks at every pile card of the
position at once and asks which of them could ever leave their piles, given what each one waits
for. A won game needs every pile card to leave its pile, so one card that never can proves the
position dead.

**Pinned cards.** With ``R`` reshuffles left, a card with ``R`` or more cards below it is *pinned*:
a reshuffle takes one card from under it, so it never becomes a bottom card and never rotates to
the top; cards join a pile only on top. So a pinned card stays in its pile until it leaves it as
the top card by a move (to another pile, a foundation or the hold), and while it is there every
pinned card under it stays under it. The other cards are *free*: a reshuffle may bring them up,
so nothing is assumed about what lies on them, but they too leave only by a move.

**Events.** For each pile card ``t`` (at pile ``p``) the rule has two events: ``P(t)``, the first
time ``t`` leaves ``p`` it goes onto another pile, and ``F(t)``, it goes to a foundation or the
hold. ``L(t)`` is "``P(t)`` or ``F(t)``": ``t`` leaves ``p`` at all. Each event has
*prerequisites* that must have happened strictly before it in any game:

- a pinned ``t`` must be the top of ``p``: if a (pinned) card ``u`` lies right on it, ``L(u)`` first.
- ``P(t)``: ``t`` goes onto a copy ``n`` of one of its pile neighbours, on top of another pile.
  A copy on a foundation or held never comes back (no give-backs). A copy pinned under a pinned
  ``t`` cannot top another pile while ``t`` is in ``p``: that copy is no route. Any other copy in
  ``p`` must first have gone onto another pile: ``P(n)`` (had it gone home it would never come
  back). A pinned copy in another pile ``q``, not its top: it is on top of some pile only once the
  card right on it in ``q`` has left ``q``, ``L`` of that card, whether it then still lies in ``q``
  or has moved on. Any other copy in another pile (free, or its top) is a route with no
  prerequisite.
- ``F(t)``: a foundation of ``t``'s suit takes ``t``'s rank ``r``. Let the Ace foundation show ``a``
  and the King foundation ``b``; a held card of rank ``h`` counts as arrived. Ranks join the two
  foundations of a suit only from the piles or the hold, and a foundation gives a card away only
  to the other one when they *meet* (the King foundation one above the Ace foundation), which
  needs every rank between ``a`` and ``b`` to have arrived first. *Slides* are possible only in
  profiles with moves between foundations and while ``b > a`` (once the two overlap they never
  meet). For the Ace foundation to show ``r - 1``: if ``r`` is an Ace, never; if ``r <= a`` it
  must shrink, which needs slides and every rank strictly between ``a`` and ``b`` to arrive; else
  every rank ``k`` with ``a < k < r`` must arrive, except a rank the King foundation holds already
  (``k >= b``) where slides are possible (it can slide over, and the meeting that needs brings the
  ranks between ``a`` and ``b``, which are required anyway). The King foundation mirrors this. The
  hold takes a card only when both foundations would, so it needs more than either route. A rank
  ``k`` *arrives* only when some copy of it now on a pile leaves its pile: ``L`` of one copy.

**The proof.** Let ``S`` be the least set of events closed under "an event whose prerequisites
(as above: the card on it, and one route with every requirement) are in ``S`` is in ``S``",
computed by iterating to a fixed point. Every event that happens in
a game from this position is in ``S``, by induction on the time it happens: its prerequisites
happened strictly before, so they are in ``S``, so it is. Hence a pile card with neither
``P`` nor ``F`` in ``S`` never leaves its pile, and the position cannot be won. This needs no
give-backs (a foundation card may return to a pile there: never judged). Autoplay only moves
cards the player could have moved, along the same routes, so it changes nothing in the argument;
nor does the pile limit, which only forbids more. The rule contains ``dead.py``'s: a card locked
over the ranks its foundations lack waits, through the cards between, on itself. Checked against
the exhaustive brute force on small positions (tests/solver/test_solver_waits.py).
"""

from __future__ import annotations

from collections.abc import Callable

from crescent_ref.cards import ACE, CARD_TEXT, KING
from crescent_ref.movegen import tables
from crescent_ref.position import Position
from crescent_ref.profiles import Profile

ALWAYS = -1  # a requirement met already (a free card, or a copy on top of another pile)
Spot = tuple[int, int]  # (pile, index from the bottom)
Any = tuple[int, ...]  # requirements of which one must be met: codes into the flags of _settle


def dead(profile: Profile, pos: Position) -> bool:
    """Some pile card can be proved never to leave its pile."""
    return bool(stuck(profile, pos))


def stuck(profile: Profile, pos: Position) -> list[Spot]:
    """Pile cards proved never to leave their piles (those with no route that is always open;
    every pinned card under one of them is stuck too); empty when the rule proves nothing."""
    if profile.give_backs:
        return []
    where: list[list[Spot]] = [[] for _ in range(52)]
    reached = [0] * 53  # per card: a bit per pile where a copy tops the pile or may rotate up
    for p, pile in enumerate(pos.piles):
        for i, card in enumerate(pile):
            where[card].append((p, i))
        for card in pile[:pos.reshuffles]:
            reached[card] |= 1 << p
        if pile:
            reached[pile[-1]] |= 1 << p
    near = tables(profile).near
    closed = [(p, i) for p, pile in enumerate(pos.piles) for i in range(len(pile) - 1, -1, -1)
              if not _open(reached, near[pile[i]], p)]
    return _settle(profile, pos, where, closed) if closed else []


def explain(profile: Profile, pos: Position) -> str:
    """The cards that wait on each other, in a sentence (empty when the rule proves nothing)."""
    found = stuck(profile, pos)
    if not found:
        return ""
    named = ", ".join(f"{CARD_TEXT[pos.piles[p][i]]} on pile {p + 1}" for p, i in found)
    return (f"{named} can never leave: each waits, through the cards on it, the neighbours it could go "
            f"onto and the ranks its foundations lack, on cards that never leave, out of reach of the "
            f"{pos.reshuffles} reshuffle(s) left (crescent_ref/solver/waits.py)")


def _open(reached: list[int], near: tuple[int, ...], p: int) -> bool:
    """A neighbour copy is a pile route with no prerequisite: in another pile, on its top or free."""
    piles = 0
    for n in near:
        piles |= reached[n]
    return bool(piles & ~(1 << p))


def _settle(profile: Profile, pos: Position, where: list[list[Spot]], closed: list[Spot]) -> list[Spot]:
    """The fixed point over the cards without an open pile route (``closed``, numbered ``m``): flag
    ``2 m`` is ``P``, ``2 m + 1`` is ``L``; an open pinned card leaves once the nearest closed card
    above it (its *gate*) has left, or at once if it has none; an open free card at once."""
    number = {spot: m for m, spot in enumerate(closed)}
    gated = {p for p, i in closed if i >= pos.reshuffles}
    gates = [_gates(pile, p, number) if p in gated else None for p, pile in enumerate(pos.piles)]
    near = tables(profile).near

    def left(q: int, j: int) -> int:
        if j >= pos.reshuffles:
            pile_gates = gates[q]
            gate = ALWAYS if pile_gates is None else pile_gates[j]
        else:
            gate = number.get((q, j), ALWAYS)
        return ALWAYS if gate < 0 else 2 * gate + 1

    above, onto = [], []
    for p, i in closed:
        above.append(left(p, i + 1) if pos.reshuffles <= i < len(pos.piles[p]) - 1 else ALWAYS)
        onto.append(_onto(pos, where, near[pos.piles[p][i]], p, i, number, left))

    def home(m: int) -> tuple[tuple[Any, ...], ...]:
        p, i = closed[m]
        return _home(profile, pos, where, pos.piles[p][i], left)

    flags = _fixed_point(above, onto, home)
    return [spot for m, spot in enumerate(closed) if not flags[2 * m + 1]]


def _gates(pile: tuple[int, ...], p: int, number: dict[Spot, int]) -> list[int]:
    """Per index of the pile: the closed card at it or nearest above it, or ALWAYS."""
    gates, gate = [ALWAYS] * len(pile), ALWAYS
    for i in range(len(pile) - 1, -1, -1):
        gate = number.get((p, i), gate)
        gates[i] = gate
    return gates


def _onto(pos: Position, where: list[list[Spot]], near: tuple[int, ...], p: int, i: int,
          number: dict[Spot, int], left: Callable[[int, int], int]) -> Any:
    """The requirements of the pile routes of a closed card (none is open)."""
    found = []
    for n in near:
        for q, j in where[n]:
            if q != p:
                found.append(left(q, j + 1))  # pinned, not the top (else the card were open)
            elif j > i or j < pos.reshuffles:  # in the same pile, not pinned under it: onto a pile first
                found.append(2 * number[(q, j)] if (q, j) in number else left(q, j))
    return tuple(found)


def _home(profile: Profile, pos: Position, where: list[list[Spot]], card: int,
          left: Callable[[int, int], int]) -> tuple[tuple[Any, ...], ...]:
    """Per foundation route: per rank that must arrive first, the requirements of its copies."""
    suit, rank = divmod(card, 13)
    routes = []
    for needed in _needed(profile, pos, suit, rank + 1):
        route = []
        for k in needed:
            copies = tuple(left(q, j) for q, j in where[suit * 13 + k - 1])
            if not copies:
                break  # the rank can never arrive
            if ALWAYS not in copies:
                route.append(copies)
        else:
            routes.append(tuple(route))
    return tuple(routes)


_NEEDED: dict[tuple[bool, int, int, int, int], list[list[int]]] = {}


def _needed(profile: Profile, pos: Position, suit: int, rank: int) -> list[list[int]]:
    """Per foundation that could ever take ``rank`` of ``suit``: the ranks that must arrive first
    (remembered per suit state: there are few)."""
    state = (profile.between_foundations, pos.up[suit], pos.down[suit], pos.held[suit], rank)
    found = _NEEDED.get(state)
    if found is None:
        found = _NEEDED[state] = _ranks_needed(*state)
    return found


def _ranks_needed(between: bool, a: int, b: int, h: int, rank: int) -> list[list[int]]:
    slides = between and b > a
    meet = [k for k in range(a + 1, b) if k != h]
    found = []
    if rank != ACE and (rank > a or slides):
        found.append(meet if rank <= a else [k for k in range(a + 1, rank) if k != h and not (slides and k >= b)])
    if rank != KING and (rank < b or slides):
        found.append(meet if rank >= b else [k for k in range(rank + 1, b) if k != h and not (slides and k <= a)])
    return found


def _fixed_point(above: list[int], onto: list[Any], home: Callable[[int], tuple[tuple[Any, ...], ...]]) -> list[bool]:
    """The least set ``S`` as flags (``ALWAYS`` reads as met), iterated until nothing changes; a
    card's foundation routes are listed only once its pile routes have failed with its gate met."""
    flags = [False] * (2 * len(above))
    routes: dict[int, tuple[tuple[Any, ...], ...]] = {}

    def met(code: int) -> bool:
        return code < 0 or flags[code]

    changed = True
    while changed:
        changed = False
        for m, gate in enumerate(above):
            if flags[2 * m] or not met(gate):
                continue
            if any(met(c) for c in onto[m]):
                flags[2 * m] = flags[2 * m + 1] = changed = True
                continue
            if flags[2 * m + 1]:
                continue
            found = routes.get(m)
            if found is None:
                found = routes[m] = home(m)
            if any(all(any(met(c) for c in copies) for copies in route) for route in found):
                flags[2 * m + 1] = changed = True
    return flags
