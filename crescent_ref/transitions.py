"""What accepted actions do to a position: moves, the reshuffle, and 001's autoplay.

These functions assume the action is legal (see crescent_ref.rules); each returns a new Position.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from crescent_ref.actions import DOWN, HOLD, PILES, UP, Action
from crescent_ref.errors import NotationError
from crescent_ref.movegen import pile_moves
from crescent_ref.position import Pile, Position
from crescent_ref.profiles import Profile
from crescent_ref.rules import source_card

T = TypeVar("T")
Tops = tuple[int, ...]


def move(pos: Position, src: int, dst: int, *, count: int = 0) -> Position:
    """Move the card at ``src`` to ``dst``; ``count`` is added to the move counter (autoplay adds 0)."""
    card = source_card(pos, src)
    piles, hidden, up, down, held = pos.piles, pos.hidden, pos.up, pos.down, pos.held
    if src < PILES:
        piles, hidden = _lift(piles, hidden, src)
    elif src < DOWN:
        up = _set(up, src - UP, up[src - UP] - 1)
    else:
        down = _set(down, src - DOWN, down[src - DOWN] + 1)
    if dst < PILES:
        piles = _set(piles, dst, (*piles[dst], card))
    else:
        up, down, held = _land(up, down, held, card, dst)
    return Position(piles, hidden, up, down, held, pos.reshuffles, pos.moves + count)


def _lift(piles: tuple[Pile, ...], hidden: Tops, src: int) -> tuple[tuple[Pile, ...], Tops]:
    """Take the top card off pile ``src``; a face-down card it uncovers turns up."""
    pile = piles[src][:-1]
    if hidden[src] and hidden[src] >= len(pile):
        hidden = _set(hidden, src, max(len(pile) - 1, 0))
    return _set(piles, src, pile), hidden


def _land(up: Tops, down: Tops, held: Tops, card: int, dst: int) -> tuple[Tops, Tops, Tops]:
    """Put ``card`` on a foundation or in the hold (see I-HOFFMANN-HOLD for a held card's fate)."""
    suit, rank = divmod(card, 13)
    rank += 1
    if dst == HOLD:
        return up, down, _set(held, suit, rank)
    waiting = held[suit]
    if waiting:
        held = _set(held, suit, 0)
    if waiting == rank:  # the twin of a held card: one copy on each foundation
        return _set(up, suit, rank), _set(down, suit, rank), held
    if dst < DOWN:  # a held card goes first, under this one (both foundations' cases)
        return _set(up, suit, rank), down, held
    return up, _set(down, suit, rank), held


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1:])


def reshuffle(pos: Position) -> Position:
    """Bottom card of every pile of two or more cards to its top; one reshuffle fewer."""
    piles = tuple([p[1:] + p[:1] if len(p) > 1 else p for p in pos.piles])
    hidden = pos.hidden
    if any(hidden):  # an open deal has none face down
        hidden = tuple([h - 1 if h and len(p) > 1 else h for p, h in zip(pos.piles, hidden, strict=True)])
    return pos._replace(piles=piles, hidden=hidden, reshuffles=pos.reshuffles - 1)


def autoplay_step(profile: Profile, pos: Position) -> tuple[int, int] | None:
    """The first pile (in the profile's ``autoplay_order``) whose top fits exactly one foundation and no
    pile, with that foundation."""
    return first_forced(pile_moves(profile, pos), scan_order(profile.autoplay_order))


def first_forced(moves: list[Action], order: tuple[int, ...] | None = None) -> tuple[int, int] | None:
    """In a position's pile moves (``movegen.pile_moves``): the first pile whose one and only move goes
    to a foundation, that is, whose card fits exactly one foundation and no pile, with that move.
    ``order``: the piles (0-based) in the order they are looked at; None is 1 to 16 (I-AUTOPLAY-ORDER)."""
    if order is None:
        return next(_forced(moves), None)
    found = dict(_forced(moves))
    return next(((src, found[src]) for src in order if src in found), None)


def _forced(moves: list[Action]) -> Iterator[tuple[int, int]]:
    """(source pile, foundation) in pile order, for the sources whose only move goes to a foundation."""
    last = len(moves) - 1
    for k, m in enumerate(moves):
        if UP <= m.dst < HOLD and (k == 0 or moves[k - 1].src != m.src) and (k == last or moves[k + 1].src != m.src):
            yield m.src, m.dst


def scan_order(value: str | tuple[int, ...]) -> tuple[int, ...] | None:
    """The 0-based pile order an ``autoplay_order`` value names (None for ``ascending``, the base order)."""
    if value == "ascending":
        return None
    if value == "descending":
        return tuple(range(PILES - 1, -1, -1))
    if isinstance(value, str):
        why = "expected ascending, descending or the 16 pile numbers"
        raise NotationError("parameter value", f"autoplay_order={value}", why)
    return tuple(n - 1 for n in value)


def autoplay(profile: Profile, pos: Position) -> tuple[Position, list[tuple[int, int]]]:
    """Play every autoplay move in turn; returns the new position and the moves made."""
    made = []
    while (step := autoplay_step(profile, pos)) is not None:
        pos = move(pos, *step)
        made.append(step)
    return pos, made
