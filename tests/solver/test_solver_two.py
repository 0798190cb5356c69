"""One suit with its last two reshuffles (crescent_ref/solver/two.py): a suit proved lost alone
with two reshuffles left means the position is not winnable (an exhaustive brute force judges)."""

from __future__ import annotations

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import suits, two
from crescent_ref.solver.dead import dead
from crescent_ref.solver.search import Budget, Search
from tests.solver.small import DISTINCT, brute_force, meeting_position, small_position
from tests.solver.test_solver_suits import fired

NO_AUTOPLAY = [p for p in DISTINCT if not get_profile(p).autoplay]  # each distinct set of rules once


def suit_lost_two(profile: str, pos: Position) -> bool:
    """``some_suit_lost`` with two reshuffles left, where ``dead`` alone does not prove it."""
    rules = get_profile(profile)
    search = Search(rules, Budget(nodes=200_000), relax=False)
    return not dead(rules, pos) and suits.some_suit_lost(rules, pos, search.solve_suit, {}, search.solve_last,
                                                         search.solve_two)


@pytest.mark.parametrize("profile", NO_AUTOPLAY)
def test_a_suit_lost_with_two_reshuffles_left_means_the_position_is_not_winnable(profile: str) -> None:
    positions = (small_position(seed, most=10)._replace(reshuffles=2) for seed in range(150))
    assert fired(profile, positions, suit_lost_two) >= 25


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892+reversal"])
def test_the_two_reshuffle_rule_on_meeting_foundations(profile: str) -> None:
    positions = (meeting_position(seed, profile)._replace(reshuffles=2) for seed in range(20))
    assert fired(profile, positions, suit_lost_two) >= 3


# Spades: pile 2 A♠,10♠,Q♠,J♠,3♠; pile 5 A♥,K♦,9♠,K♠; pile 14 a lone 2♠. Won by sending 3♠ home,
# reshuffling, and putting A♠ then K♠ on the 2♠: pile 14 grows from one card after the first
# reshuffle, and its 2♠ at the bottom rotates at the second.
GROWS = ("up:8♠,K♥,Q♦,K♣ down:4♠,2♥,A♦,A♣ piles:-/A♠,10♠,Q♠,J♠,3♠/-/-/A♥,K♦,9♠,K♠/-/-/-/-/-/-/-/-/2♠/-/- "
         "reshuffles:2 moves:0")


def test_a_lone_card_may_be_the_bottom_of_a_pile_that_grows_later() -> None:
    pos = Position.from_text(GROWS)
    assert brute_force("app", pos) and not suit_lost_two("app", pos)
    piles = two.Piles(pos, 0)
    free = two.start_free(pos, suits.one_suit(pos, 0), piles)
    assert free[13] and not free[1] and not free[4]  # the lone 2♠ is free; 10♠ and K♦ stay in place
    after = suits.one_suit(pos, 0)._replace(reshuffles=1)
    options = two.choices(after, piles, free)
    assert options is not None and {marks[13] for marks in options} == {False, True}


def test_piles_are_freed_once_the_card_second_from_the_bottom_may_have_gone() -> None:
    pos = Position.from_text(GROWS)
    piles, part = two.Piles(pos, 0), suits.one_suit(pos, 0)
    assert piles.first[1] and not piles.first[4] and piles.second[1] and not piles.second[4]
    emptied = part._replace(piles=tuple(() if i == 4 else p for i, p in enumerate(part.piles)))
    assert two.start_free(pos, emptied, piles)[4]  # K♦ may leave once nothing of spades lies on it
