"""One suit at a time (crescent_ref/solver/suits.py): with no reshuffle left, a suit that cannot be
won alone proves the position dead; never for a winnable position (brute force judges)."""

from __future__ import annotations

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import suits
from crescent_ref.solver.search import Budget, Search
from tests.solver.small import PROFILES, brute_force, meeting_position, small_position

NO_AUTOPLAY = [p for p in PROFILES if not get_profile(p).autoplay]


def suit_lost(profile: str, pos: Position) -> bool:
    rules = get_profile(profile)
    return suits.some_suit_lost(rules, pos, Search(rules, Budget(nodes=20_000), relax=False).solve_suit, {})


@pytest.mark.parametrize("profile", NO_AUTOPLAY)
def test_a_suit_lost_alone_means_the_position_is_not_winnable(profile: str) -> None:
    fired = 0
    for seed in range(150):
        pos = small_position(seed, most=10)._replace(reshuffles=0)
        if suit_lost(profile, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 20


def test_one_suit_keeps_the_suits_cards_in_order_and_sends_the_rest_home() -> None:
    pos = Position.from_text("up:K♠,K♥,Q♦,K♣ down:A♠,A♥,A♦,3♣ piles:2♣,K♦,A♣/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- "
                             "reshuffles:0 moves:0")
    clubs = suits.one_suit(pos, 3)
    assert clubs.piles[0] == (3 * 13 + 1, 3 * 13) and clubs.up[2] == 13 and clubs.down[3] == 3
    assert suit_lost("app", pos) and not brute_force("app", pos)


def test_reshuffles_left_or_autoplay_turn_it_off() -> None:
    pos = small_position(1)._replace(reshuffles=0)
    assert suits.applies(get_profile("app"), pos)
    assert not suits.applies(get_profile("app"), pos._replace(reshuffles=1))
    assert not suits.applies(get_profile("open"), pos)


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892+reversal"])
def test_nor_where_foundations_meet_or_a_card_is_held(profile: str) -> None:
    fired = 0
    for seed in range(25):
        pos = meeting_position(seed, profile)._replace(reshuffles=0)
        if suit_lost(profile, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 3
