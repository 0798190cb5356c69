"""Cards that wait on each other (crescent_ref/solver/waits.py): the rule never calls a winnable
position dead (an exhaustive brute force judges), it fires on positions dead.py leaves alone, and
it contains dead.py's rule."""

from __future__ import annotations

import pytest

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import dead, search, waits
from crescent_ref.solver.search import Budget, solve
from tests.solver.small import PROFILES, brute_force, meeting_position, small_position

SEEDS = range(300)


@pytest.mark.parametrize("profile", PROFILES)
def test_cards_that_wait_on_each_other_mean_the_position_is_not_winnable(profile: str) -> None:
    rules, fired, beyond = get_profile(profile), 0, 0
    for seed in SEEDS:
        pos = small_position(seed, most=9)
        pos = pos._replace(reshuffles=min(pos.reshuffles, rules.reshuffles))
        if waits.dead(rules, pos):
            fired += 1
            beyond += not dead.dead(rules, pos)
            assert not brute_force(profile, pos), (seed, pos.to_text())
        else:
            assert not dead.dead(rules, pos), (seed, pos.to_text())  # the rule contains dead.py's
    assert fired >= 70 and beyond >= 18  # measured: 74 and 25 with the wrap, 94 and 20 without


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892", "hoffmann-1892+reversal", "open+reversal"])
def test_nor_where_foundations_meet_or_a_card_is_held(profile: str) -> None:
    rules, fired = get_profile(profile), 0
    for seed in range(40):
        pos = meeting_position(seed, profile)
        if waits.dead(rules, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 2


# Clubs: the Ace foundation waits for K♣, the King foundation at 6♣. A♣ could go onto K♣ once 3♣
# has left, or home after 2♣, which lies under it; 3♣ could go onto 2♣ or 4♣, or home after 4♣,
# and both lie under A♣ (no reshuffle left). Two piles, so dead.py sees no lock.
CROSSED = ("up:K♠,K♥,K♦,Q♣ down:A♠,A♥,A♦,6♣ piles:-/-/-/-/-/-/-/-/-/5♣/-/-/2♣,4♣,A♣/K♣,3♣/-/- "
           "reshuffles:0 moves:0")


def test_two_cards_on_two_piles_that_wait_on_each_other() -> None:
    app, pos = get_profile("app"), Position.from_text(CROSSED)
    assert not dead.dead(app, pos) and not brute_force("app", pos)
    assert waits.stuck(app, pos) == [(12, 2), (13, 1)]
    assert "A♣ on pile 13, 3♣ on pile 14 can never leave" in waits.explain(app, pos)
    # with a reshuffle left 2♣ may rotate up: the rule is silent (the position is lost all the same)
    assert not waits.dead(app, pos._replace(reshuffles=1))


def test_give_backs_are_never_judged() -> None:
    assert not waits.dead(get_profile("app+give-backs"), Position.from_text(CROSSED))


@pytest.mark.parametrize("order", ["portfolio", "depth-first"])
def test_the_solver_reads_the_proof_off_the_start(order: str) -> None:
    answer = solve(Game("app", Position.from_text(CROSSED)), Budget(nodes=1_000), order=order)
    assert answer.verdict == "not winnable" and answer.nodes == 0
    assert answer.proof.startswith("dead at the start: A♣ on pile 13, 3♣ on pile 14 can never leave")


def test_the_search_asks_the_rule_in_every_profile_near_the_end() -> None:
    assert search.WAITS_MOST >= 0
    for profile in ("open", "app", "hoffmann-1892", "morehead-1949"):
        assert search.waits_most(get_profile(profile)) == search.WAITS_MOST
