"""Two suits at a time: ``suits.py``'s relaxation with two suits kept, so that they still block each other.

One suit alone, with the wrap, can nearly always be won: every card of it has two neighbour ranks
and four copies of them, so the one-suit rules seldom prove a position with most of its cards on
the piles dead. What loses such a position is often two suits in each other's way: a card of one
lies on the only free copies of a card of the other. This module keeps two suits together.

**The relaxation.** For a set ``S`` of suits, ``P_S`` keeps the piles' cards of the suits in ``S``
in their order (every other card taken off the piles) and the other suits' foundations complete
(and nothing of theirs held): ``suits.one_suit`` with ``S`` for its one suit.

**Claim, no reshuffle left** (a profile without autoplay). If ``P`` can be won, so can ``P_S``.
Keep, from a winning line of ``P``, only its actions on cards of a suit in ``S``, with the invariant
"the piles of ``P_S`` are the piles of ``P`` without the other suits' cards":

- a move of a card of another suit changes no pile of ``P_S``;
- a move of a card ``c`` of ``S`` off a pile: ``c`` tops its pile in ``P``, so it tops it in ``P_S``;
  onto a pile, that pile's top in ``P`` is a neighbour of ``c``, of ``c``'s suit and so in ``S``, so
  it is the top in ``P_S`` too, the pile is not empty there, and it is no taller than in ``P``
  (the pile limit agrees); onto a foundation or into the hold: ``c``'s suit's foundations and hold
  are the same in both, since only actions on that suit change them;
- a move between two foundations of a suit in ``S``, or a give-back, is the same move in both;
- with no reshuffle left, no pile rotates.

The status rule never ends ``P_S`` early (``suits.py``'s argument: the line's next action on ``S``
is legal in ``P_S``; where only pile moves count, a slide needs meeting foundations, which make
every pile card of that suit movable). At the end every card of ``S`` is home, and the other suits
were home from the start: ``P_S`` is won.

**Claim, one reshuffle left.** ``last.py``'s argument with "of suit ``s``" read "of a suit in
``S``": until the reshuffle every pile keeps its bottom card, so the reshuffle of ``P`` lifts, in
``P_S``, the first card of exactly the piles whose bottom card in ``P`` is of a suit in ``S``
(``rotating``), and leaves the others' cards of ``S`` in order. So ``Q_S``, ``P_S`` whose one
reshuffle lifts only those piles' bottom cards, is won if ``P`` is; after the reshuffle the claim
above applies. ``last.solve`` searches ``Q_S`` (its argument needs nothing of the one suit but that
the marks are right) and asks the claim above of each position after its reshuffle.

So ``P_S`` (or ``Q_S``) proved not winnable proves ``P`` dead. ``P_S`` is a position of the same
game, so the solver's own search decides it, with the one-suit rules on (a suit lost alone in
``P_S`` is lost in ``P_S``), within a node budget; an undecided ``P_S`` proves nothing. Its answer
is remembered (by its key, marked so that it never meets a one-suit answer), and every position an
exhausted search of it met is proved not winnable (``search.Search.remember_lost``): a key names a
position of the game, lost whatever position of the solve led to it. With autoplay the solve asks
this of the unforced rules (``unforced.py``), as it asks the one-suit rules. Pairs are asked only
when three suits or more are on the piles (with two, ``P_S`` is ``P``), and only pairs with at most
``MOST_CARDS`` pile cards: a bigger pair's own search seldom ends within its budget, and asking costs.
Profiles with give-backs are left out, as the dead rules leave them out (the claims would hold there
too, but the other rules that make a pair's search end do not).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import last
from crescent_ref.solver.canon import key

MOST_CARDS = 30  # pairs with more pile cards than this are not asked: their searches seldom end within budget
MARK = b"P"  # first byte of this module's memo keys (a card index or canon's bytes never start with it here)
Marks = tuple[bool, ...]
SolveZero = Callable[[Position], str]  # decides a two-suit position with no reshuffle left
SolveOne = Callable[[Position, Marks], str]  # decides ``Q_S`` (one reshuffle left, its marks)


def kept(pos: Position, suits: tuple[int, ...]) -> Position:
    """``P_S``: the pile cards of ``suits`` in order, every other suit home, the reshuffles left kept."""
    piles = tuple(tuple(c for c in pile if c // 13 in suits) for pile in pos.piles)
    others = [s not in suits for s in range(4)]
    up = tuple(KING if o else r for o, r in zip(others, pos.up, strict=True))
    down = tuple(ACE if o else r for o, r in zip(others, pos.down, strict=True))
    held = tuple(0 if o else r for o, r in zip(others, pos.held, strict=True))
    return Position(piles, (0,) * len(piles), up, down, held, pos.reshuffles, 0)


def rotating(pos: Position, suits: tuple[int, ...]) -> Marks:
    """Per pile: its bottom card is of a suit in ``suits`` (so ``Q_S``'s reshuffle lifts it)."""
    return tuple(bool(pile) and pile[0] // 13 in suits for pile in pos.piles)


def pairs(pos: Position, most: int = MOST_CARDS) -> list[tuple[int, int]]:
    """The pairs of suits to ask about: every two of the suits on the piles, when there are three or
    more, with at most ``most`` pile cards between them."""
    count = [0] * 4
    for pile in pos.piles:
        for card in pile:
            count[card // 13] += 1
    present = [s for s in range(4) if count[s]]
    if len(present) < 3:
        return []
    return [(s, t) for s, t in itertools.combinations(present, 2) if count[s] + count[t] <= most]


def applies(profile: Profile, pos: Position, one_left: bool) -> bool:
    """The claims cover the position: no autoplay, and no reshuffle left (or one, when ``one_left``)."""
    return not profile.autoplay and not profile.give_backs and pos.reshuffles <= int(one_left)


def some_pair_lost(profile: Profile, pos: Position, solve_zero: SolveZero, solve_one: SolveOne | None,
                   memo: dict[bytes, str]) -> bool:
    """Some pair of suits is proved not winnable together (the caller checked ``applies``; with one
    reshuffle left only when ``solve_one`` is given)."""
    for pair in pairs(pos):
        part = kept(pos, pair)
        if pos.reshuffles == 0:
            verdict = zero(profile, part, solve_zero, memo)
        elif solve_one is not None:
            verdict = one(part, rotating(pos, pair), solve_one, memo)
        else:
            return False
        if verdict == "not winnable":
            return True
    return False


def zero(profile: Profile, part: Position, solve_zero: SolveZero, memo: dict[bytes, str]) -> str:
    """A two-suit position's verdict with no reshuffle left, remembered."""
    part_key = MARK + key(profile, part)
    verdict = memo.get(part_key)
    if verdict is None:
        verdict = memo[part_key] = solve_zero(part)
    return verdict


def one(part: Position, marks: Marks, solve_one: SolveOne, memo: dict[bytes, str]) -> str:
    """``Q_S``'s verdict, remembered by its marked key."""
    part_key = MARK + last.marked_key(part, marks)
    verdict = memo.get(part_key)
    if verdict is None:
        verdict = memo[part_key] = solve_one(part, marks)
    return verdict
