"""The rules: what the table offers, and why a card move is refused.

Every function here is pure: a profile and a position in, an answer out. ``faults`` lists every
reason a move breaks, in the precedence order of spec/reasons.yaml; the first one is the reason
given. This is the plain statement of the rules; ``crescent_ref.movegen`` is the fast generator
with its caches, and tests check that the two agree on every move.
"""

from __future__ import annotations

from collections.abc import Iterator

from crescent_ref.actions import DOWN, HOLD, PILES, UP
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
        return ranks_after(pos.up[suit], pos.held[suit], 1)
    suit = place - DOWN
    return ranks_after(pos.down[suit], pos.held[suit], -1)


def ranks_after(top: int, held: int, step: int) -> tuple[int, ...]:
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


def partner(place: int) -> int:
    """The other foundation of the same suit."""
    return place + 4 if place < DOWN else place - 4


def met(pos: Position, suit: int) -> bool:
    """The two foundations of ``suit`` meet: the King foundation's top is one above the Ace's."""
    return pos.down[suit] == pos.up[suit] + 1


# -- why a move is refused ---------------------------------------------------------------------

def faults(profile: Profile, pos: Position, src: int, dst: int) -> Iterator[str]:
    """Every reason the move ``src``-``dst`` is refused, in precedence order (none = legal)."""
    return iter(_faults(profile, pos, src, dst))


def _faults(profile: Profile, pos: Position, src: int, dst: int) -> list[str]:
    card = source_card(pos, src)
    if card < 0:
        return ["empty-source"]
    if src == dst:
        return ["same-place"]
    found = _leaving_foundation(profile, pos, src, dst) if src >= PILES else []
    if dst < PILES:
        return found + _onto_pile(profile, pos, card, dst)
    if dst == HOLD:
        return found + _into_hold(profile, pos, card)
    return found + _onto_foundation(profile, pos, src, card, dst)


def _leaving_foundation(profile: Profile, pos: Position, src: int, dst: int) -> list[str]:
    found = ["base-locked"] if is_base(pos, src) else []
    allowed = profile.give_backs if dst < PILES else dst != HOLD and profile.between_foundations
    if pos.held[(src - UP) % 4]:  # a card of the suit waits in the hold: its foundations give nothing
        allowed = False
    return found if allowed else [*found, "foundation-final"]


def _onto_pile(profile: Profile, pos: Position, card: int, dst: int) -> list[str]:
    pile = pos.piles[dst]
    if not pile:
        return ["empty-pile"]
    found = []
    if profile.pile_limit is not None and len(pile) >= profile.pile_limit:
        found.append("pile-full")
    top = pile[-1]
    if top // 13 != card // 13:
        found.append("wrong-suit")
    if top % 13 + 1 not in neighbours(card % 13 + 1, profile.pile_wrap):
        found.append("wrong-rank")
    return found


def _into_hold(profile: Profile, pos: Position, card: int) -> list[str]:
    if not profile.hold_double_fit:
        return ["hold-unavailable"]
    if pos.held[card // 13] or not fits_both(pos, card):
        return ["not-double-fit"]
    return []


def _onto_foundation(profile: Profile, pos: Position, src: int, card: int, dst: int) -> list[str]:
    suit = (dst - UP) % 4
    found = [] if card // 13 == suit else ["wrong-suit"]
    if card % 13 + 1 not in foundation_takes(pos, dst):
        found.append("out-of-sequence")
    elif profile.hold_double_fit and src < PILES and card // 13 == suit and not pos.held[suit] and fits_both(pos, card):
        found.append("must-hold")
    return found
