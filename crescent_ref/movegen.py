"""The fast move generator: every legal card move, and a quick answer to "is this move legal?".

It works from per-profile tables (each card's pile neighbours, as cards and as a bit mask) and from
what the foundations accept, cached per foundation state. ``crescent_ref.rules`` states the same
rules plainly (``faults``); tests check that the two agree on every move.
"""

from __future__ import annotations

from typing import NamedTuple

from crescent_ref.actions import DOWN, HOLD, MOVES, PILES, UP, Action
from crescent_ref.cards import ACE, KING
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.rules import faults, met, neighbours, partner, ranks_after

NO_CARD = 52  # the top of an empty pile, in the tables below
BIT = (*(1 << card for card in range(52)), 0)  # BIT[card]; BIT[NO_CARD] = 0
CACHE_SIZE = 4096  # foundation states remembered per profile
FOUNDATION_SHIFT = 53  # in Tables.probe, foundation bits sit above the pile-neighbour bits

def reason(profile: Profile, pos: Position, src: int, dst: int) -> str | None:
    """The reason the move is refused, or None when it is legal."""
    if src < PILES and _plainly_legal(profile, pos, src, dst):
        return None
    return next(faults(profile, pos, src, dst), None)


def _plainly_legal(profile: Profile, pos: Position, src: int, dst: int) -> bool:
    """A quick yes for a legal move from a pile, by the tables of the move generator (False: ask rules.faults)."""
    pile = pos.piles[src]
    if not pile:
        return False
    card, t = pile[-1], tables(profile)
    if dst < PILES:
        target = pos.piles[dst]
        return bool(target) and target[-1] in t.near[card] and len(target) < t.limit
    accept = _accepting(t, pos)
    return bool(BIT[card] & accept.mask) and dst in DESTINATIONS[accept.suits[card // 13].dests[card]]


Source = tuple[int, int, bool, Action | None]  # a foundation's top card: (src, card, may give back, move across)


class SuitAccept(NamedTuple):
    """One suit's part of an Accept, with its sources split by foundation row."""

    mask: int
    fits: dict[int, tuple[int, ...]]  # card -> the foundations that take it
    dests: dict[int, int]  # card -> index in DESTINATIONS of where it may go from a pile
    ups: tuple[Source, ...]  # the Ace foundation, unless down to its base
    downs: tuple[Source, ...]  # the King foundation, unless down to its base


class Accept(NamedTuple):
    """What the foundations take in one foundation state, and which foundation cards may leave."""

    mask: int  # BIT of every card some foundation takes
    suits: tuple[SuitAccept, ...]  # per suit: see SuitAccept (``suits[card // 13].dests[card]``)
    sources: tuple[Source, ...]  # the foundations not down to their base, in place order
    across: tuple[Action, ...]  # the legal moves between foundations


# Where a pile card may go by the foundations' leave: one or both foundations of its suit, or the hold.
DESTINATIONS = [(HOLD,), *((UP + s,) for s in range(4)), *((DOWN + s,) for s in range(4)),
                *((UP + s, DOWN + s) for s in range(4))]
_DEST_MOVES = [[tuple(MOVES[src][d] for d in dests) for dests in DESTINATIONS] for src in range(PILES)]


class Tables:
    """Lookup tables of one profile: pile neighbours per card, and what the foundations accept
    (per suit state, and per foundation state as a cache of at most CACHE_SIZE entries)."""

    __slots__ = ("accept", "limit", "near", "near_bits", "probe", "profile", "suits")

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.near = (*(_near_cards(card, profile.pile_wrap) for card in range(52)), ())
        self.near_bits = tuple(sum(BIT[n] for n in near) for near in self.near)
        # one test for "a neighbour tops a pile, or a foundation takes the card": see pile_moves
        self.probe = tuple(bits | BIT[card] << FOUNDATION_SHIFT for card, bits in enumerate(self.near_bits))
        self.limit = KING * 8 if profile.pile_limit is None else profile.pile_limit
        self.accept: dict[tuple[tuple[int, ...], ...], Accept] = {}
        self.suits: dict[tuple[int, int, int, int], SuitAccept] = {}


def _near_cards(card: int, wrap: bool) -> tuple[int, ...]:
    """The cards a pile topped by ``card`` takes (its neighbours), as card indices."""
    ace = card - card % 13
    return tuple(ace + rank - 1 for rank in neighbours(card % 13 + 1, wrap))


_TABLES: dict[int, Tables] = {}


def tables(profile: Profile) -> Tables:
    """The tables of ``profile`` (built once per profile object)."""
    found = _TABLES.get(id(profile))
    if found is None or found.profile is not profile:
        found = _TABLES[id(profile)] = Tables(profile)
    return found


def _accepting(t: Tables, pos: Position) -> Accept:
    key = (pos.up, pos.down, pos.held)
    found = t.accept.get(key)
    if found is None:
        if len(t.accept) >= CACHE_SIZE:
            t.accept.clear()
        found = t.accept[key] = _combine([_suit(t, s, pos.up[s], pos.down[s], pos.held[s]) for s in range(4)])
    return found


def _combine(suits: list[SuitAccept]) -> Accept:
    """The four suits' acceptance as one (sources in place order: Ace foundations, then King's)."""
    a, b, c, d = suits
    sources = a.ups + b.ups + c.ups + d.ups + a.downs + b.downs + c.downs + d.downs
    return Accept(a.mask | b.mask | c.mask | d.mask, (a, b, c, d), sources,
                  tuple([source[3] for source in sources if source[3] is not None]))


def _suit(t: Tables, suit: int, up: int, down: int, held: int) -> SuitAccept:
    """One suit's acceptance (cached per suit state; there are few)."""
    key = (suit, up, down, held)
    found = t.suits.get(key)
    if found is None:
        found = t.suits[key] = _suit_accept(t.profile, suit, up, down, held)
    return found


def _suit_accept(profile: Profile, suit: int, up: int, down: int, held: int) -> SuitAccept:
    fits: dict[int, tuple[int, ...]] = {}
    for place, ranks in ((UP + suit, ranks_after(up, held, 1)), (DOWN + suit, ranks_after(down, held, -1))):
        for rank in ranks:
            fits[suit * 13 + rank - 1] = (*fits.get(suit * 13 + rank - 1, ()), place)
    hold = profile.hold_double_fit and not held
    dests = {card: DESTINATIONS.index((HOLD,) if hold and len(f) == 2 else f) for card, f in fits.items()}
    ace, king = suit * 13 + up - 1, suit * 13 + down - 1
    ups = () if up == ACE else (_source(profile, UP + suit, ace, held, fits),)
    downs = () if down == KING else (_source(profile, DOWN + suit, king, held, fits),)
    return SuitAccept(sum(BIT[c] for c in fits), fits, dests, ups, downs)


def _source(profile: Profile, src: int, card: int, held: int, fits: dict[int, tuple[int, ...]]) -> Source:
    """A foundation whose top card may leave: may it give back, and may it cross to its partner?"""
    crosses = profile.between_foundations and not held and partner(src) in fits.get(card, ())
    return src, card, profile.give_backs and not held, MOVES[src][partner(src)] if crosses else None


def legal_moves(profile: Profile, pos: Position) -> list[Action]:
    """Every legal card move, sorted by source then destination (pile moves before foundation moves)."""
    moves = pile_moves(profile, pos)
    if profile.between_foundations or profile.give_backs:
        moves += foundation_moves(profile, pos)
    return moves


def pile_moves(profile: Profile, pos: Position) -> list[Action]:
    """The legal moves of pile top cards, sorted by source then destination.

    The hot path of the engine: a pile is skipped unless one of its card's neighbours tops a pile
    (a bit test against ``present``) or a foundation takes it (a bit test against the cached mask).
    """
    t, piles = tables(profile), pos.piles
    tops = [p[-1] if p else NO_CARD for p in piles]
    present = twins = 0
    for card in tops:
        bit = BIT[card]
        twins |= present & bit
        present |= bit
    accept = _accepting(t, pos)
    mask, suits, near_bits, probe, limit = accept.mask, accept.suits, t.near_bits, t.probe, t.limit
    against = present | mask << FOUNDATION_SHIFT
    moves: list[Action] = []
    for src, card in enumerate(tops):
        if not probe[card] & against:
            continue
        hit = near_bits[card] & present
        if hit:
            if hit & (hit - 1) or hit & twins:  # two neighbour cards, or one on two piles
                moves += _onto_piles(t, piles, tops, src, hit)
            elif len(piles[j := tops.index(hit.bit_length() - 1)]) < limit:  # one pile takes it
                moves.append(MOVES[src][j])
        if BIT[card] & mask:
            moves += _DEST_MOVES[src][suits[card // 13].dests[card]]
    return moves


def _onto_piles(t: Tables, piles: tuple[tuple[int, ...], ...], tops: list[int], src: int, hit: int
                ) -> list[Action]:
    """The general case of ``pile_moves``' pile targets (``hit``: the neighbour cards that top a pile):
    two neighbour cards, or twin targets."""
    targets = []
    for near in t.near[tops[src]]:
        if BIT[near] & hit:
            first = tops.index(near)
            targets.append(first)
            if tops.count(near) > 1:
                targets.append(tops.index(near, first + 1))
    targets.sort()
    return [MOVES[src][j] for j in targets if len(piles[j]) < t.limit]


def foundation_moves(profile: Profile, pos: Position) -> list[Action]:
    """The legal moves of foundation top cards (give-backs, moves between foundations), sorted."""
    t = tables(profile)
    accept = _accepting(t, pos)
    if not profile.give_backs:
        return list(accept.across)
    piles, moves = pos.piles, list[Action]()
    for src, card, gives, across in accept.sources:
        if gives:
            near = t.near[card]
            moves += [MOVES[src][j] for j, p in enumerate(piles) if p and p[-1] in near and len(p) < t.limit]
        if across:
            moves.append(across)
    return moves


def can_go_on(profile: Profile, pos: Position, moves: list[Action] | None = None) -> bool:
    """The game is not stuck (I-STUCK), by the profile's ``stuck_when``: ``no-move``, some legal card
    move is left (from a foundation too); ``no-pile-move``, some pile card can move (see
    ``pile_card_can_move``). ``moves``: the position's ``pile_moves`` when the caller has them already."""
    if pile_card_can_move(profile, pos, moves):
        return True
    return profile.stuck_when == "no-move" and bool(foundation_moves(profile, pos))


def pile_card_can_move(profile: Profile, pos: Position, moves: list[Action] | None = None) -> bool:
    """Some top card of a pile can go somewhere now, or (where cards move between foundations)
    after sliding cards between two foundations that meet: then every card of that suit fits.
    ``moves``: the position's ``pile_moves`` when the caller has them already."""
    if pile_moves(profile, pos) if moves is None else moves:
        return True
    if not profile.between_foundations:
        return False
    return any(p and met(pos, p[-1] // 13) for p in pos.piles)
