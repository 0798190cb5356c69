"""One suit with its last reshuffle: ``suits.py``'s relaxation extended to one reshuffle left.

**Why the bottoms are known.** A card is added to a pile only on top, an empty pile is never
refilled, and a pile's bottom card leaves only as the pile's last card. So until the next
reshuffle, every pile keeps its bottom card or is empty for good. A reshuffle lifts each pile's
bottom card to its top (piles of two cards or more).

**The relaxation.** For a suit ``s`` and a position ``P`` with one reshuffle left (no autoplay),
``Q_s`` is ``P_s`` (``suits.one_suit``: the suit's pile cards in order, the other suits home) with
one reshuffle left, played by the usual rules except that its reshuffle lifts the bottom card
only of the piles marked *rotating*: those whose bottom card in ``P`` is of suit ``s``.

**Claim.** If ``P`` can be won, so can ``Q_s``. Follow a winning line of ``P`` with the invariant
"``Q_s``'s piles are ``P``'s piles without the other suits' cards" (``suits.py`` shows moves keep
it). At the reshuffle, each pile of ``P`` is empty (and so is its part in ``Q_s``) or has its
bottom card of ``P``. If that card is of ``s``, ``P`` lifts it, which in ``Q_s`` lifts the first
card of the pile, as ``Q_s``'s reshuffle does (with one card of ``s`` alone both change nothing).
If it is of another suit, lifting it leaves the pile's cards of ``s`` in order, and ``Q_s`` does
not touch the pile. After the reshuffle none is left, and the invariant is ``suits.py``'s claim:
the rest of the line, cut down to ``s``, wins ``P'_s``, the position after the reshuffle.

So ``Q_s`` not winnable proves ``P`` dead. ``solve`` searches ``Q_s`` depth first, every position
once (pile numbers carry the marks, so the key is the exact position), and drops positions
``dead`` proves lost (its argument holds when some piles never rotate). At each position it asks
``solve_zero`` about the position after the reshuffle (a ``suits.py`` one-suit position with no
reshuffle left). Within ``nodes`` positions it answers ``not winnable`` only when every position
and every reshuffle from it were proved lost; ``winnable`` means only that the relaxation does not
prove ``P`` dead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol, TypeVar

from crescent_ref import movegen
from crescent_ref.actions import Action
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver.canon import after, steps
from crescent_ref.solver.dead import dead


class Moves(Protocol):
    """What ``sweep`` asks of a position, when not of the Python engine: the compiled core (fast.py),
    whose answers are the same (``children``: every ``canon.steps`` step with ``canon.after``'s result)."""

    def children(self, pos: Position, /) -> list[tuple[tuple[Action, ...], Position]]: ...
    def dead(self, pos: Position, /) -> bool: ...


MARK = b"L"  # first byte of a marked key: a card index (0..51) or the separator never is


def rotating(pos: Position, suit: int) -> tuple[bool, ...]:
    """Per pile: its bottom card is of ``suit`` (so the reshuffle lifts it in ``Q_s``)."""
    return tuple(bool(pile) and pile[0] // 13 == suit for pile in pos.piles)


def marked_key(pos: Position, marks: tuple[bool, ...]) -> bytes:
    """A key for ``Q_s`` positions: piles with their marks (sorted: renumbering piles together
    with their marks maps lines to lines), the foundations, the hold and the reshuffles left."""
    piles = sorted(bytes((mark, *pile)) for mark, pile in zip(marks, pos.piles, strict=True))
    return MARK + b"\xff".join(piles) + bytes((*pos.up, *pos.down, *pos.held, pos.reshuffles))


def reshuffle(pos: Position, marks: tuple[bool, ...]) -> Position:
    """``Q_s``'s reshuffle: the bottom card of each marked pile of two cards or more to its top."""
    piles = tuple(p[1:] + p[:1] if mark and len(p) > 1 else p for mark, p in zip(marks, pos.piles, strict=True))
    return pos._replace(piles=piles, reshuffles=pos.reshuffles - 1)


def solve(profile: Profile, start: Position, marks: tuple[bool, ...], solve_zero: Callable[[Position], str],
          nodes: int, core: Moves | None = None) -> tuple[str, int]:
    """``Q_s``'s verdict ("winnable", "not winnable", "unknown") and the positions generated."""
    return sweep(profile, start, lambda pos: pos, lambda pos: solve_zero(reshuffle(pos, marks)),
                 lambda _, child: child, nodes, core)


S = TypeVar("S", bound=Hashable)


def sweep(profile: Profile, start: S, position: Callable[[S], Position], at_reshuffle: Callable[[S], str],
          child_of: Callable[[S, Position], S], nodes: int, core: Moves | None = None) -> tuple[str, int]:
    """The one-suit search both relaxations share: every state reachable from ``start`` by pile moves
    (no autoplay: suits.applies), ``at_reshuffle`` asked of each (what the reshuffle from there gives);
    "winnable" at the first won position or reshuffle that is not proved lost, "not winnable" when none
    is, "unknown" past ``nodes`` positions generated (the second value). ``core``: the compiled core, or
    None for the Python engine."""
    seen, todo, made = {start}, [start], 0
    while todo:
        state = todo.pop()
        pos = position(state)
        if pos.won():
            return "winnable", made
        if dead(profile, pos) if core is None else core.dead(pos):
            continue
        verdict = at_reshuffle(state)
        if verdict != "not winnable":
            return verdict, made
        for after_step in _children(profile, pos, core):
            made += 1
            if made > nodes:
                return "unknown", made
            child = child_of(state, after_step._replace(moves=0))
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return "not winnable", made


def _children(profile: Profile, pos: Position, core: Moves | None) -> list[Position]:
    """The position after each step ``canon.steps`` lists, by the Python engine or the compiled core."""
    if core is None:
        return [after(profile, pos, step) for step in steps(profile, pos, movegen.pile_moves(profile, pos))]
    return [child for _, child in core.children(pos)]
