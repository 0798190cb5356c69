"""One suit at a time (crescent_ref/solver/suits.py): with no reshuffle left, a suit that cannot be
won alone proves the position dead; never for a winnable position (brute force judges). And the
positions an exhausted search met are kept as proved not winnable (search.Search.lost)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import last, suits
from crescent_ref.solver.canon import after, key
from crescent_ref.solver.dead import dead
from crescent_ref.solver.search import Budget, Search
from tests.solver.small import DISTINCT, PROFILES, brute_force, meeting_position, position_rules, small_position

NO_AUTOPLAY = [p for p in PROFILES if not get_profile(p).autoplay]
DISTINCT_NO_AUTOPLAY = [p for p in DISTINCT if not get_profile(p).autoplay]  # for the slow last-reshuffle tests


def suit_lost(profile: str, pos: Position) -> bool:
    rules = get_profile(profile)
    return suits.some_suit_lost(rules, pos, Search(rules, Budget(nodes=20_000), relax=False).solve_suit, {})


def fired(profile: str, positions: Iterable[Position], rule: Callable[[str, Position], bool]) -> int:
    """How many of ``positions`` the rule proves dead, each checked not winnable by brute force."""
    count = 0
    for pos in positions:
        if rule(profile, pos):
            count += 1
            assert not brute_force(profile, pos), pos.to_text()
    return count


@pytest.mark.parametrize("profile", NO_AUTOPLAY)
def test_a_suit_lost_alone_means_the_position_is_not_winnable(profile: str) -> None:
    positions = (small_position(seed, most=10)._replace(reshuffles=0) for seed in range(150))
    assert fired(profile, positions, suit_lost) >= 20


def suit_lost_last(profile: str, pos: Position) -> bool:
    """``some_suit_lost`` with one reshuffle left (crescent_ref/solver/last.py)."""
    rules = get_profile(profile)
    search = Search(rules, Budget(nodes=200_000), relax=False)
    return suits.some_suit_lost(rules, pos, search.solve_suit, {}, search.solve_last)


@pytest.mark.parametrize("profile", DISTINCT_NO_AUTOPLAY)
def test_a_suit_lost_with_its_last_reshuffle_means_the_position_is_not_winnable(profile: str) -> None:
    positions = (small_position(seed, most=10)._replace(reshuffles=1) for seed in range(200))
    assert fired(profile, positions, suit_lost_last) >= 10


@pytest.mark.parametrize("profile", DISTINCT_NO_AUTOPLAY)
def test_the_last_reshuffle_rule_on_meeting_foundations(profile: str) -> None:
    # the rule fires on 9-16 of the first 20 seeds; each position it fires on is brute-forced (the cost)
    positions = (meeting_position(seed, profile)._replace(reshuffles=1) for seed in range(20))
    assert fired(profile, positions, suit_lost_last) >= 5


def test_only_piles_with_the_suit_at_the_bottom_rotate() -> None:
    # clubs: the King foundation at 3♣ needs 2♣ then A♣, and A♣ lies on 2♣. With A♠ at the
    # bottom the last reshuffle lifts A♠, not 2♣: lost. With 2♣ at the bottom it lifts 2♣: won.
    text = "up:K♠,K♥,K♦,K♣ down:2♠,A♥,A♦,3♣ piles:{}/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- reshuffles:1 moves:0"
    spade = Position.from_text(text.format("A♠,2♣,A♣"))
    assert suit_lost_last("app", spade) and not brute_force("app", spade)
    bottom = Position.from_text(text.format("2♣,A♠,A♣"))
    assert not suit_lost_last("app", bottom) and brute_force("app", bottom)
    assert last.rotating(spade, 3)[0] is False and last.rotating(bottom, 3)[0] is True


def test_one_suit_keeps_the_suits_cards_in_order_and_sends_the_rest_home() -> None:
    pos = Position.from_text("up:K♠,K♥,Q♦,K♣ down:A♠,A♥,A♦,3♣ piles:2♣,K♦,A♣/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- "
                             "reshuffles:0 moves:0")
    clubs = suits.one_suit(pos, 3)
    assert clubs.piles[0] == (3 * 13 + 1, 3 * 13) and clubs.up[2] == 13 and clubs.down[3] == 3
    assert suit_lost("app", pos) and not brute_force("app", pos)


def test_three_reshuffles_left_or_autoplay_turn_it_off() -> None:
    pos = small_position(1)._replace(reshuffles=0)
    assert suits.applies(get_profile("app"), pos)
    assert suits.applies(get_profile("app"), pos._replace(reshuffles=1))  # last.py
    assert suits.applies(get_profile("app"), pos._replace(reshuffles=2))  # two.py
    assert not suits.applies(get_profile("app"), pos._replace(reshuffles=3))
    assert not suits.applies(get_profile("open"), pos)
    lost_at_one = Position.from_text("up:K♠,K♥,K♦,K♣ down:2♠,A♥,A♦,3♣ piles:A♠,2♣,A♣/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- "
                                     "reshuffles:1 moves:0")
    assert not suit_lost("app", lost_at_one)  # without solve_last a reshuffle left proves nothing
    assert not suit_lost("app", small_position(1)._replace(reshuffles=2))  # nor two without solve_two


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892+reversal"])
def test_nor_where_foundations_meet_or_a_card_is_held(profile: str) -> None:
    fired = 0
    for seed in range(25):
        pos = meeting_position(seed, profile)._replace(reshuffles=0)
        if suit_lost(profile, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 3


def met_position(search: Search, start: Position, end: bytes) -> Position:
    """The position a search met under key ``end``, rebuilt by replaying its steps from ``start``."""
    pos = start
    for action in search.line_to(end):
        pos = after(search.profile, pos, (action,))
    return pos


@pytest.mark.parametrize("profile", NO_AUTOPLAY)
def test_every_position_an_exhausted_search_met_is_not_winnable(profile: str) -> None:
    rules, checked = get_profile(profile), 0
    for seed in range(120):
        start = small_position(seed, most=9)._replace(reshuffles=0)
        search = Search(rules, Budget(nodes=20_000), relax=False)
        if search.run(start).verdict != "not winnable" or len(search.parents) < 3:
            continue
        for met in list(search.parents)[:8]:
            assert not brute_force(profile, met_position(search, start, met)), (seed, start.to_text())
            checked += 1
    assert checked >= 40


def test_positions_proved_lost_are_shared_and_pruned() -> None:
    rules, shared = get_profile("app"), 0
    for seed in range(150):
        pos = small_position(seed, most=10)._replace(reshuffles=0)
        search = Search(rules, Budget(nodes=20_000))
        if dead(rules, pos) or search.run(pos).verdict != "not winnable" or not search.lost:
            continue
        shared += 1  # a one-suit search was exhausted: the positions it met are kept as lost
        again = Search(rules, Budget(nodes=20_000), lost={key(rules, pos)})
        assert again.run(pos).verdict == "not winnable" and again.nodes == 0  # pruned at once
    assert shared >= 5


def test_the_profiles_left_out_of_the_slow_tests_play_a_position_as_one_kept_in() -> None:
    left_out = set(NO_AUTOPLAY) - set(DISTINCT_NO_AUTOPLAY)
    assert left_out == {"app+closed", "app+four"}
    assert all(position_rules(p) == position_rules("app") for p in left_out)
