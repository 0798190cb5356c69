"""Two suits at a time (crescent_ref/solver/pairs.py): two suits proved lost together, with no
reshuffle left or one, mean the position is not winnable (an exhaustive brute force judges), and
the solve asks it on both loops when ``Search(pairs=True)``."""

from __future__ import annotations

import random

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast, pairs, waits
from crescent_ref.solver.dead import dead
from crescent_ref.solver.search import Budget, Search
from tests.solver.small import DISTINCT, brute_force, out_cards

COMPILED = fast.core_for(get_profile("app"), "auto") is not None


def three_suits(seed: int) -> Position:
    """A valid position with three suits out, three to five cards each, on two to four piles, and
    no reshuffle left or one (the positions where one suit's view misses how suits block each other)."""
    rng = random.Random(seed)
    ups, downs, cards = [13] * 4, [1] * 4, list[int]()
    for suit in rng.sample(range(4), 3):
        while True:
            up, down = rng.randint(1, 13), rng.randint(1, 13)
            more = out_cards(suit, up, down)
            if 3 <= len(more) <= 5:
                ups[suit], downs[suit] = up, down
                cards += more
                break
    rng.shuffle(cards)
    piles: list[list[int]] = [[] for _ in range(16)]
    count = rng.randint(2, 4)
    for card in cards:
        piles[rng.randrange(count)].append(card)
    rng.shuffle(piles)
    return Position(tuple(map(tuple, piles)), (0,) * 16, tuple(ups), tuple(downs), reshuffles=rng.randint(0, 1))


def others_prove(profile: str, pos: Position) -> bool:
    """The rules the solve had before pairs.py: the locked card, the waiting cards, one suit alone."""
    rules = get_profile(profile)
    return dead(rules, pos) or waits.dead(rules, pos) or Search(rules, Budget(nodes=200_000)).suit_lost(pos)


@pytest.mark.parametrize("profile", DISTINCT)
def test_two_suits_lost_together_mean_the_position_is_not_winnable(profile: str) -> None:
    rules = get_profile(profile)
    fired = beyond = lost = 0
    for seed in range(120):
        pos = three_suits(seed)
        won = brute_force(profile, pos)
        lost += not won
        if Search(rules, Budget(nodes=200_000), pairs=True).pair_lost(pos):
            assert not won, pos.to_text()
            fired += 1
            beyond += not others_prove(profile, pos)
    # measured on these seeds: it fires on 80-90 of the 80-95 lost ones, 4-10 of them beyond the others
    assert fired >= 0.8 * lost and beyond >= 3


def test_a_pair_keeps_its_suits_cards_in_order_and_sends_the_others_home() -> None:
    pos = three_suits(3)
    s, t = pairs.pairs(pos)[0]
    part = pairs.kept(pos, (s, t))
    assert part.piles == tuple(tuple(c for c in pile if c // 13 in (s, t)) for pile in pos.piles)
    assert all(part.up[u] == 13 and part.down[u] == 1 for u in range(4) if u not in (s, t))
    assert (part.up[s], part.down[t], part.reshuffles) == (pos.up[s], pos.down[t], pos.reshuffles)
    assert pairs.rotating(pos, (s, t)) == tuple(bool(p) and p[0] // 13 in (s, t) for p in pos.piles)


def test_pairs_are_asked_only_with_three_suits_out_and_few_enough_cards() -> None:
    pos = three_suits(1)
    assert len(pairs.pairs(pos)) == 3
    two_suits = pairs.kept(pos, pairs.pairs(pos)[0])
    assert pairs.pairs(two_suits) == [] and pairs.pairs(pos, most=1) == []


def fired_alone(profile: str) -> list[Position]:
    """Positions only pairs.py proves dead (no other rule does), from the seeds above."""
    found = []
    for seed in range(120):
        pos = three_suits(seed)
        rules = get_profile(profile)
        if not others_prove(profile, pos) and Search(rules, Budget(nodes=200_000), pairs=True).pair_lost(pos):
            found.append(pos)
    return found


@pytest.mark.parametrize("core", ["python", "compiled"] if COMPILED else ["python"])
@pytest.mark.parametrize("profile", ["app", "open"])
def test_the_solve_asks_pairs_on_either_loop(profile: str, core: str) -> None:
    rules = get_profile(profile)
    compiled = fast.core_for(rules, core)
    for pos in fired_alone(profile)[:3]:
        with_pairs = Search(rules, Budget(nodes=200_000), core=compiled, pairs=True, waits_most=1).run(pos)
        without = Search(rules, Budget(nodes=200_000), core=compiled, waits_most=1).run(pos)
        assert with_pairs.verdict == without.verdict == "not winnable"
        assert with_pairs.stored == 1 < without.stored  # the start itself is dropped, unexpanded
