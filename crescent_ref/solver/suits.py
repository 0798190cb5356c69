"""One suit at a time: with no reshuffle left, a position is won only if each suit alone is.

**The relaxation.** For a suit ``s``, the position ``P_s`` keeps the piles' cards of ``s`` in
their order (every other card taken off the piles) and the other suits' foundations complete.

**Claim.** With no reshuffle left, in a profile without autoplay: if ``P`` can be won, so can
each ``P_s``. Take a winning line of ``P`` and keep only its actions on cards of ``s``. We keep
the invariant "the piles of ``P_s`` are the piles of ``P`` with the other suits' cards removed":

- a move of another suit's card changes no pile of ``P_s``;
- a move of a card ``c`` of ``s`` from a pile: ``c`` tops its pile in ``P``, so it tops it in
  ``P_s``; onto a pile, that pile's top in ``P`` is a neighbour of ``c`` in ``s``, so it is the top
  in ``P_s`` too (and the pile is not empty there, and no taller than in ``P``: the pile limit
  agrees); onto a foundation or the hold, the suit's foundations and hold are the same in both;
- a move between the suit's foundations, or a give-back, is the same move in both;
- there is no reshuffle left to rotate piles whose bottom cards differ.

The status rule never ends ``P_s`` early: if the line still has an action on ``s``, that action
is legal in ``P_s``, and where only pile moves count (``no-pile-move``) a slide needs meeting
foundations, which make every pile card of the suit count as movable. At the end every card of
``s`` is home. Autoplay breaks the claim (it may take a card home in ``P_s`` that the line kept
on its pile), so profiles with autoplay are left out.

So if some ``P_s`` is proved not winnable (its own search space is small: one suit's cards),
``P`` is dead. ``P_s`` is solved by the same search, without this relaxation, within a small
node budget; an undecided ``P_s`` proves nothing. Answers are remembered by ``P_s``'s key (an
undecided one too: it is not tried again within the solve). The one-suit search prunes with
``dead`` and ``safe`` and keys positions by ``canon``, so its "not winnable" rests on their
proofs as well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import last, two
from crescent_ref.solver.canon import key

SolveOne = Callable[[Position], str]  # solves a one-suit position: "winnable", "not winnable", "unknown"
SolveLast = Callable[[Position, tuple[bool, ...]], str]  # the same with one reshuffle left (last.py)
SolveTwo = Callable[[Position, two.Piles, tuple[bool, ...]], str]  # the same with two left (two.py)


class Parts(Protocol):
    """How ``some_suit_lost`` makes and names the one-suit positions: ``Plain`` (this module and
    ``last.py``), or the compiled core (fast.py), whose methods give the same values."""

    def suits(self, pos: Position, /) -> Iterable[int]: ...
    def one_suit(self, pos: Position, suit: int, /) -> Position: ...
    def key(self, pos: Position, /) -> bytes: ...
    def rotating(self, pos: Position, suit: int, /) -> tuple[bool, ...]: ...
    def marked_key(self, pos: Position, marks: tuple[bool, ...], /) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Plain:
    """The Python ``Parts``."""

    profile: Profile

    def suits(self, pos: Position) -> Iterable[int]:
        return {c // 13 for pile in pos.piles for c in pile}

    def one_suit(self, pos: Position, suit: int) -> Position:
        return one_suit(pos, suit)

    def key(self, pos: Position) -> bytes:
        return key(self.profile, pos)

    def rotating(self, pos: Position, suit: int) -> tuple[bool, ...]:
        return last.rotating(pos, suit)

    def marked_key(self, pos: Position, marks: tuple[bool, ...]) -> bytes:
        return last.marked_key(pos, marks)


def applies(profile: Profile, pos: Position) -> bool:
    """The claim covers the position: no autoplay, and no reshuffle left (this module), one
    (``last.py``) or two (``two.py``)."""
    return pos.reshuffles <= 2 and not profile.autoplay


def one_suit(pos: Position, suit: int) -> Position:
    """``P_s``: the suit's pile cards in order, every other suit home, the reshuffles left kept."""
    piles = tuple(tuple(c for c in pile if c // 13 == suit) for pile in pos.piles)
    others = [s != suit for s in range(4)]
    up = tuple(KING if o else r for o, r in zip(others, pos.up, strict=True))
    down = tuple(ACE if o else r for o, r in zip(others, pos.down, strict=True))
    held = tuple(0 if o else r for o, r in zip(others, pos.held, strict=True))
    return Position(piles, (0,) * len(piles), up, down, held, pos.reshuffles, 0)


def some_suit_lost(profile: Profile, pos: Position, solve_one: SolveOne, memo: dict[bytes, str],
                   solve_last: SolveLast | None = None, solve_two: SolveTwo | None = None,
                   parts: Parts | None = None) -> bool:
    """Some suit alone is proved not winnable (the caller checked ``applies``; with one reshuffle
    left, only when ``solve_last`` is given, with two only when ``solve_two`` is). ``parts``: how the
    one-suit positions are made and keyed (``Plain`` by default)."""
    parts = parts or Plain(profile)
    suits = tuple(parts.suits(pos))
    if len(suits) < 2 and pos.reshuffles == 0:
        return False  # the one suit's position is the position itself
    for suit in suits:
        if pos.reshuffles == 0:
            verdict = zero(profile, parts.one_suit(pos, suit), solve_one, memo, parts)
        elif pos.reshuffles == 1 and solve_last is not None:
            verdict = one_left(parts.one_suit(pos, suit), parts.rotating(pos, suit), solve_last, memo, parts)
        elif pos.reshuffles == 2 and solve_two is not None:
            verdict = two_left(pos, suit, solve_two, memo)
        else:
            return False
        if verdict == "not winnable":
            return True
    return False


def zero(profile: Profile, part: Position, solve_one: SolveOne, memo: dict[bytes, str],
         parts: Parts | None = None) -> str:
    """A one-suit position's verdict with no reshuffle left, remembered by its key."""
    part_key = key(profile, part) if parts is None else parts.key(part)
    verdict = memo.get(part_key)
    if verdict is None:
        verdict = memo[part_key] = solve_one(part)
    return verdict


def one_left(part: Position, marks: tuple[bool, ...], solve_last: SolveLast, memo: dict[bytes, str],
             parts: Parts | None = None) -> str:
    """The same with one reshuffle left (``last.py``), remembered by the marked key."""
    part_key = last.marked_key(part, marks) if parts is None else parts.marked_key(part, marks)
    verdict = memo.get(part_key)
    if verdict is None:
        verdict = memo[part_key] = solve_last(part, marks)
    return verdict


def two_left(pos: Position, suit: int, solve_two: SolveTwo, memo: dict[bytes, str]) -> str:
    """The same with two reshuffles left (``two.py``), remembered by its key."""
    part, piles = one_suit(pos, suit), two.Piles(pos, suit)
    free = two.start_free(pos, part, piles)
    part_key = two.key(part, piles, free)
    verdict = memo.get(part_key)
    if verdict is None:
        verdict = memo[part_key] = solve_two(part, piles, free)
    return verdict
