"""Dead positions: a proof, read off the position, that it can never be won.

The search drops a dead position as it drops a lost one, so the proof must be exact: a position
called dead here has no winning line. The test looks for one *locked* card that can never be placed.

**Trapped cards.** With ``R`` reshuffles left, a card with at least ``R`` cards below it in its pile
never reaches the top by a reshuffle (each reshuffle takes one card from below it; the card itself
rises only from the bottom, which takes ``R + 1``). Cards are added only on top. So such a card
``t`` lying below a card ``X`` stays below ``X`` until ``X`` leaves the pile: ``t`` is *trapped*
under ``X``.

**Locked.** ``X`` is locked when every copy of each of its pile neighbours (the cards that could
take it on a pile) that is not on a foundation or held is trapped under ``X`` or is itself a
locked card above ``X`` in the same pile. Cards on a foundation or held never return to a pile
(no give-backs); a trapped card cannot become the top of another pile before ``X`` leaves; a
locked card above ``X`` leaves only for a foundation or the hold, so it never tops another pile
either (and ``X`` cannot go onto a card above itself). So ``X`` never goes onto another pile: it
leaves its pile only to a foundation or to the hold, and a won game needs it to leave. The pile is
walked from the top down, so the locked cards above are known when ``X`` is judged.

**Never placed.** To go onto the Ace foundation (or into the hold, or onto the Ace foundation
over a held card of the rank below, which stands in for that rank) the Ace foundation must first
show every rank below ``X``'s, a held card counting for its own rank; to go onto the King
foundation, every rank above. Each rank a foundation still lacks must come from a pile card or a
held card, and once every pile copy of that rank is trapped under ``X`` (and none is held) it can
come only after ``X`` has left. A foundation that has already passed ``X``'s rank (or never takes
it: an Ace on the Ace foundation) never takes ``X`` either, since a foundation shrinks only by
giving cards to the other foundation of its suit, which needs the two to meet. So where cards
move between foundations and the two could still meet (the King foundation above the Ace
foundation, with no rank between them trapped for good), the rule says nothing. Otherwise, if
both routes are closed, ``X`` can never be placed before it leaves, and it can leave no other
way: the position is dead.

Profiles with give-backs are never judged dead here (a foundation card may return to a pile).
The rule is checked against an exhaustive brute force on small positions (tests/solver/).
"""

from __future__ import annotations

from crescent_ref.cards import ACE, CARD_TEXT, KING
from crescent_ref.movegen import tables
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


def dead(profile: Profile, pos: Position) -> bool:
    """The position can be proved never won by a locked card that can never be placed."""
    return witness(profile, pos) is not None


def witness(profile: Profile, pos: Position) -> tuple[int, int] | None:
    """The first pile (by number) with a locked card that can never be placed, and that card."""
    if profile.give_backs:
        return None
    loose = [0] * 53
    for pile in pos.piles:
        for card in pile:
            loose[card] += 1
    deep, near = pos.reshuffles + 1, tables(profile).near
    verdicts = _verdicts(profile, pos, loose)
    for number, pile in enumerate(pos.piles):
        if len(pile) > deep:
            found = verdicts.get(pile)
            if found is None:
                found = verdicts[pile] = _pile_dead(profile, pos, pile, loose, near)
            if found >= 0:
                return number, found
    return None


def explain(profile: Profile, pos: Position) -> str:
    """Why the position is dead, in a sentence (empty when it is not proved dead here)."""
    found = witness(profile, pos)
    if found is None:
        return ""
    number, card = found
    return (f"{CARD_TEXT[card]} on pile {number + 1} is locked: every card it could go onto lies under it, "
            f"out of reach of the {pos.reshuffles} reshuffle(s) left, and neither foundation can take it "
            "before one of those comes up (crescent_ref/solver/dead.py)")


_VERDICTS: dict[tuple[object, ...], dict[tuple[int, ...], int]] = {}
MEMO_SIZE = 2_000  # states remembered before the memo is cleared


def _verdicts(profile: Profile, pos: Position, loose: list[int]) -> dict[tuple[int, ...], int]:
    """The piles judged so far in this state: ``_pile_dead`` reads nothing else of the position
    than the pile, the loose counts, the foundations, the hold and the reshuffles left."""
    state = (profile, pos.up, pos.down, pos.held, pos.reshuffles, *loose)
    found = _VERDICTS.get(state)
    if found is None:
        if len(_VERDICTS) >= MEMO_SIZE:
            _VERDICTS.clear()
        found = _VERDICTS[state] = {}
    return found


def _pile_dead(profile: Profile, pos: Position, pile: tuple[int, ...], loose: list[int],
               near: tuple[tuple[int, ...], ...]) -> int:
    """A card of ``pile`` above its trapped part that is locked and can never be placed, or -1
    (walked from the top, so that a locked card above counts as no target for the cards below it)."""
    trapped = [0] * 53
    for card in pile[pos.reshuffles:]:
        trapped[card] += 1
    locked_above = [0] * 53
    for i in range(len(pile) - 1, pos.reshuffles, -1):
        card = pile[i]
        trapped[card] -= 1
        if all(loose[n] == trapped[n] + locked_above[n] for n in near[card]):
            if _never_placed(profile, pos, card, loose, trapped):
                return card
            locked_above[card] += 1
    return -1


def _never_placed(profile: Profile, pos: Position, card: int, loose: list[int], trapped: list[int]) -> bool:
    """Neither foundation of ``card``'s suit can take it while ``trapped`` stays in its pile."""
    suit, rank = divmod(card, 13)
    rank += 1
    up, down = pos.up[suit], pos.down[suit]
    ace, held = suit * 13 - 1, pos.held[suit]
    lacking = [r for r in range(ACE + 1, KING) if loose[ace + r] == trapped[ace + r] and held != r]
    up_closed = rank == ACE or rank <= up or any(up < r < rank for r in lacking)
    down_closed = rank == KING or rank >= down or any(rank < r < down for r in lacking)
    may_meet = profile.between_foundations and down > up and not any(up < r < down for r in lacking)
    return up_closed and down_closed and not may_meet
