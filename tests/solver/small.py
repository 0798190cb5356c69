"""Small end-of-game positions for the solver's tests, and an exhaustive brute force to judge them.

A position is built from a seed: for each suit, where its two foundations stand (near the end),
and the cards still out dealt at random onto a few piles. The brute force knows nothing of the
solver: it plays ``Game`` actions (every legal move and the reshuffle), depth first, remembering
exact positions (move counter aside), with no key, no symmetry and no pruning.
"""

from __future__ import annotations

import dataclasses
import random

from crescent_ref.actions import RESHUFFLE
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949", "open+reversal", "hoffmann-1892+reversal",
            "app+closed", "app+four")
# give-backs are left out: a card may leave every finished foundation, and the brute force's
# space grows past a unit test's budget; tests/solver/test_solver.py checks their lines another way.


def position_rules(profile: str) -> tuple[object, ...]:
    """What a profile makes of a given position: every parameter but its name, how its deal is
    dealt (open or closed: a given position says which cards are face down) and how many
    reshuffles it deals (a given position says how many are left)."""
    rules = get_profile(profile)
    kept = [f.name for f in dataclasses.fields(rules) if f.name not in ("name", "deal", "reshuffles")]
    return tuple(getattr(rules, name) for name in kept)


# the profiles whose rules differ on a given position (app+closed and app+four play one as app does):
# the slow position-level tests run once per distinct set of rules
DISTINCT = [p for i, p in enumerate(PROFILES) if position_rules(p) not in [position_rules(q) for q in PROFILES[:i]]]


def out_cards(suit: int, up: int, down: int) -> list[int]:
    """The cards of a suit that are not on its foundations (Ace foundation at ``up``, King's at ``down``)."""
    return [suit * 13 + rank - 1 for rank in range(1, 14) for _ in range(2 - (rank <= up) - (rank >= down))]


def small_position(seed: int, most: int = 7) -> Position:
    """A valid position with at most ``most`` cards on the piles (``most`` >= 2)."""
    rng = random.Random(seed)
    ups, downs, cards = [13] * 4, [1] * 4, list[int]()
    for suit in rng.sample(range(4), rng.randint(1, 3)):
        while len(cards) < most:
            up, down = rng.randint(1, 13), rng.randint(1, 13)
            more = out_cards(suit, up, down)
            if 0 < len(more) <= most - len(cards):
                ups[suit], downs[suit] = up, down
                cards += more
                break
    rng.shuffle(cards)
    piles: list[list[int]] = [[] for _ in range(16)]
    for card in cards:
        piles[rng.randrange(rng.randint(2, 3))].append(card)
    rng.shuffle(piles)
    return Position(tuple(map(tuple, piles)), (0,) * 16, tuple(ups), tuple(downs), reshuffles=rng.randint(0, 2))


def brute_force(profile: str, pos: Position) -> bool:
    """Can ``pos`` be won under ``profile``? Exhaustive; exact positions only."""
    seen: set[Position] = set()
    todo = [pos]
    rules = get_profile(profile)
    while todo:
        game = Game(rules, todo.pop())
        if game.status() == "won":
            return True
        actions = game.legal_moves() + ([RESHUFFLE] if game.status() != "lost" and game.position.reshuffles else [])
        for action in actions:
            child = Game(rules, game.position)
            child.play(action)
            exact = child.position._replace(moves=0)
            if exact not in seen:
                seen.add(exact)
                todo.append(exact)
    return False


def meeting_position(seed: int, profile: str) -> Position:
    """A valid position where one suit's foundations are one to three ranks apart (so they meet
    or can meet: 13 to 15 of its cards out, a held card in profiles with the hold), with a few
    cards of another suit, on two to six piles (the states small_position never reaches)."""
    rng, rules = random.Random(seed), get_profile(profile)
    ups, downs, held = [13] * 4, [1] * 4, [0] * 4
    suit, gap = rng.randrange(4), rng.choice((1, 2, 3))
    ups[suit] = rng.randint(1, 13 - gap)
    downs[suit] = ups[suit] + gap
    cards = out_cards(suit, ups[suit], downs[suit])
    if rules.hold_double_fit and gap == 2 and rng.random() < 0.5:
        held[suit] = ups[suit] + 1
        cards.remove(suit * 13 + ups[suit])
    other = (suit + 1 + rng.randrange(3)) % 4
    ups[other] = rng.randint(10, 13)
    cards += out_cards(other, ups[other], 1)
    rng.shuffle(cards)
    piles = spread(rng, cards, rng.randint(2, 6), rules.pile_limit)
    return Position(piles, (0,) * 16, tuple(ups), tuple(downs), tuple(held), rng.randint(0, min(2, rules.reshuffles)))


def spread(rng: random.Random, cards: list[int], count: int, limit: int | None) -> tuple[tuple[int, ...], ...]:
    """``cards`` dealt at random onto the first ``count`` of 16 piles, none taller than ``limit``."""
    piles: list[list[int]] = [[] for _ in range(16)]
    for card in cards:
        piles[rng.randrange(count)].append(card)
    while max(len(p) for p in piles) > (limit or 99):
        tallest = max(piles, key=len)
        min(piles[:max(count, 2)], key=len).insert(0, tallest.pop(0))
    return tuple(map(tuple, piles))
