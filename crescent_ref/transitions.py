"""What accepted actions do to a position: moves, the reshuffle, and 001's autoplay.

These functions assume the action is legal (see crescent_ref.rules); each returns a new Position.
"""

from __future__ import annotations

from crescent_ref.actions import DOWN, HOLD, PILES, UP
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.rules import foundation_takes, reason, source_card


def move(pos: Position, src: int, dst: int) -> Position:
    """Move the card at ``src`` to ``dst`` (the move counter is the caller's: autoplay does not count)."""
    return _put(_take(pos, src), source_card(pos, src), dst)


def _take(pos: Position, src: int) -> Position:
    if src < PILES:
        piles = list(pos.piles)
        piles[src] = pile = piles[src][:-1]
        if pos.hidden[src] and pos.hidden[src] >= len(pile):
            hidden = list(pos.hidden)
            hidden[src] = max(len(pile) - 1, 0)
            return pos._replace(piles=tuple(piles), hidden=tuple(hidden))
        return pos._replace(piles=tuple(piles))
    if src < DOWN:
        return pos._replace(up=_set(pos.up, src - UP, pos.up[src - UP] - 1))
    return pos._replace(down=_set(pos.down, src - DOWN, pos.down[src - DOWN] + 1))


def _put(pos: Position, card: int, dst: int) -> Position:
    suit, rank = divmod(card, 13)
    rank += 1
    if dst < PILES:
        piles = list(pos.piles)
        piles[dst] = piles[dst] + (card,)
        return pos._replace(piles=tuple(piles))
    if dst == HOLD:
        return pos._replace(held=_set(pos.held, suit, rank))
    held = pos.held[suit]
    if held and rank == held:  # the twin of a held card: one copy on each foundation
        return pos._replace(up=_set(pos.up, suit, rank), down=_set(pos.down, suit, rank),
                            held=_set(pos.held, suit, 0))
    if held:
        pos = pos._replace(held=_set(pos.held, suit, 0))
    if dst < DOWN:
        return pos._replace(up=_set(pos.up, suit, rank))
    return pos._replace(down=_set(pos.down, suit, rank))


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


def reshuffle(pos: Position) -> Position:
    """Bottom card of every pile of two or more cards to its top; one reshuffle fewer."""
    piles = tuple(p[1:] + p[:1] if len(p) > 1 else p for p in pos.piles)
    hidden = tuple(h - 1 if h and len(p) > 1 else h for p, h in zip(pos.piles, pos.hidden))
    return pos._replace(piles=piles, hidden=hidden, reshuffles=pos.reshuffles - 1)


def autoplay_step(profile: Profile, pos: Position) -> tuple[int, int] | None:
    """The first pile (by number) whose top fits exactly one foundation and no pile, with that foundation."""
    for i, pile in enumerate(pos.piles):
        if not pile:
            continue
        card = pile[-1]
        suit, rank = divmod(card, 13)
        homes = [f for f in (UP + suit, DOWN + suit) if rank + 1 in foundation_takes(pos, f)]
        if len(homes) == 1 and not _fits_a_pile(profile, pos, i):
            return i, homes[0]
    return None


def _fits_a_pile(profile: Profile, pos: Position, src: int) -> bool:
    return any(reason(profile, pos, src, j) is None for j in range(PILES) if j != src)


def autoplay(profile: Profile, pos: Position) -> tuple[Position, list[tuple[int, int]]]:
    """Play every autoplay move in turn; returns the new position and the moves made."""
    made = []
    while (step := autoplay_step(profile, pos)) is not None:
        pos = move(pos, *step)
        made.append(step)
    return pos, made
