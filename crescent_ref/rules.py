"""The rules: which card moves are legal, why a move is refused, and what a move does.

Every function here is pure: a profile and a position in, an answer or a new position out.
``faults`` lists every reason a move breaks, in the precedence order of spec/reasons.yaml; the
first one is the reason given. ``legal_moves`` is the fast generator; tests check the two agree.
"""

from __future__ import annotations

from collections.abc import Iterator

from crescent_ref.actions import DOWN, HOLD, MOVES, PILES, UP, Action
from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


def neighbours(rank: int, wrap: bool) -> tuple[int, ...]:
    """Ranks one away from ``rank`` on the piles (King and Ace meet when ``wrap``)."""
    below, above = rank - 1, rank + 1
    if wrap:
        return (below or KING, above if above <= KING else ACE)
    return tuple(r for r in (below, above) if ACE <= r <= KING)


def foundation_takes(pos: Position, place: int) -> tuple[int, ...]:
    """Ranks the foundation at ``place`` takes next (a held card counts as already there)."""
    if place < DOWN:
        suit = place - UP
        held, top, step = pos.held[suit], pos.up[suit], 1
    else:
        suit = place - DOWN
        held, top, step = pos.held[suit], pos.down[suit], -1
    if held:
        return (held, held + step)
    nxt = top + step
    return (nxt,) if ACE <= nxt <= KING else ()


def source_card(pos: Position, place: int) -> int:
    """The card index a move from ``place`` would take, or -1 when there is none."""
    if place < PILES:
        pile = pos.piles[place]
        return pile[-1] if pile else -1
    if place < DOWN:
        suit = place - UP
        return suit * 13 + pos.up[suit] - 1
    if place < HOLD:
        suit = place - DOWN
        return suit * 13 + pos.down[suit] - 1
    return -1


def is_base(pos: Position, place: int) -> bool:
    """The foundation at ``place`` shows only its base card."""
    if place < DOWN:
        return pos.up[place - UP] == ACE
    return pos.down[place - DOWN] == KING


def fits_both(pos: Position, card: int) -> bool:
    """``card`` fits the Ace foundation and the King foundation of its suit at once."""
    suit, rank = divmod(card, 13)
    rank += 1
    return rank in foundation_takes(pos, UP + suit) and rank in foundation_takes(pos, DOWN + suit)


def faults(profile: Profile, pos: Position, src: int, dst: int) -> Iterator[str]:
    """Every reason the move ``src``-``dst`` is refused, in precedence order (none = legal)."""
    card = source_card(pos, src)
    if card < 0:
        yield "empty-source"
        return
    if src == dst:
        yield "same-place"
        return
    if src >= PILES:
        yield from _leaving_foundation(profile, pos, src, dst)
    if dst < PILES:
        yield from _onto_pile(profile, pos, card, dst)
    elif dst == HOLD:
        yield from _into_hold(profile, pos, card)
    else:
        yield from _onto_foundation(profile, pos, src, card, dst)


def _leaving_foundation(profile: Profile, pos: Position, src: int, dst: int) -> Iterator[str]:
    if is_base(pos, src):
        yield "base-locked"
    if dst < PILES:  # a give-back; not while a card of the suit waits in the hold between the foundations
        allowed = profile.give_backs and not pos.held[(src - UP) % 4]
    else:
        allowed = dst != HOLD and profile.between_foundations
    if not allowed:
        yield "foundation-final"


def _onto_pile(profile: Profile, pos: Position, card: int, dst: int) -> Iterator[str]:
    pile = pos.piles[dst]
    if not pile:
        yield "empty-pile"
        return
    if profile.pile_limit is not None and len(pile) >= profile.pile_limit:
        yield "pile-full"
    top = pile[-1]
    if top // 13 != card // 13:
        yield "wrong-suit"
    if top % 13 + 1 not in neighbours(card % 13 + 1, profile.pile_wrap):
        yield "wrong-rank"


def _into_hold(profile: Profile, pos: Position, card: int) -> Iterator[str]:
    if not profile.hold_double_fit:
        yield "hold-unavailable"
    elif pos.held[card // 13] or not fits_both(pos, card):
        yield "not-double-fit"


def _onto_foundation(profile: Profile, pos: Position, src: int, card: int, dst: int) -> Iterator[str]:
    suit = (dst - UP) % 4
    if card // 13 != suit:
        yield "wrong-suit"
    if card % 13 + 1 not in foundation_takes(pos, dst):
        yield "out-of-sequence"
    elif profile.hold_double_fit and src < PILES and card // 13 == suit and not pos.held[suit] and fits_both(pos, card):
        yield "must-hold"


def reason(profile: Profile, pos: Position, src: int, dst: int) -> str | None:
    """The reason the move is refused, or None when it is legal."""
    return next(faults(profile, pos, src, dst), None)


def legal_moves(profile: Profile, pos: Position) -> list[Action]:
    """Every legal card move, pile moves first (by source, then destination), then foundation moves."""
    moves = _pile_moves(profile, pos)
    if profile.between_foundations or profile.give_backs:
        moves.extend(_foundation_moves(profile, pos))
    return moves


def _pile_moves(profile: Profile, pos: Position) -> list[Action]:
    piles, moves = pos.piles, list[Action]()
    tops = [p[-1] if p else -1 for p in piles]
    limit = profile.pile_limit or 10_000
    wrap, hold = profile.pile_wrap, profile.hold_double_fit
    for i, card in enumerate(tops):
        if card < 0:
            continue
        suit, rank = divmod(card, 13)
        targets = {suit * 13 + n - 1 for n in neighbours(rank + 1, wrap)}
        moves.extend(MOVES[i][j] for j, t in enumerate(tops) if t in targets and len(piles[j]) < limit)
        up = rank + 1 in foundation_takes(pos, UP + suit)
        down = rank + 1 in foundation_takes(pos, DOWN + suit)
        if up and down and hold and not pos.held[suit]:
            moves.append(MOVES[i][HOLD])
            continue
        if up:
            moves.append(MOVES[i][UP + suit])
        if down:
            moves.append(MOVES[i][DOWN + suit])
    return moves


def partner(place: int) -> int:
    """The other foundation of the same suit."""
    return place + 4 if place < DOWN else place - 4


def _foundation_moves(profile: Profile, pos: Position) -> list[Action]:
    moves: list[Action] = []
    for src in range(UP, HOLD):
        if is_base(pos, src):
            continue
        targets = list(range(PILES)) if profile.give_backs else []
        if profile.between_foundations:
            targets.append(partner(src))
        moves.extend(MOVES[src][d] for d in targets if reason(profile, pos, src, d) is None)
    return moves


def met(pos: Position, suit: int) -> bool:
    """The two foundations of ``suit`` meet: the King foundation's top is one above the Ace's."""
    return pos.down[suit] == pos.up[suit] + 1


def pile_card_can_move(profile: Profile, pos: Position) -> bool:
    """Some top card of a pile can go somewhere now, or (where cards move between foundations)
    after sliding cards between two foundations that meet: then every card of that suit fits."""
    if _pile_moves(profile, pos):
        return True
    if not profile.between_foundations:
        return False
    return any(p and met(pos, p[-1] // 13) for p in pos.piles)
