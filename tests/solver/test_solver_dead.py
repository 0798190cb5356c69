"""The dead-position rule (crescent_ref/solver/dead.py): it never calls a winnable position dead
(an exhaustive brute force judges), it does fire, and it reads the documents' kind of lock."""

from __future__ import annotations

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver.dead import dead
from tests.solver.small import PROFILES, brute_force, meeting_position, small_position

SEEDS = range(300)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_dead_position_is_never_winnable(profile: str) -> None:
    rules, fired = get_profile(profile), 0
    for seed in SEEDS:
        pos = small_position(seed, most=9)
        pos = pos._replace(reshuffles=min(pos.reshuffles, rules.reshuffles))
        if dead(rules, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 20


def lock(pile: str, reshuffles: int, down_clubs: str = "4♣") -> Position:
    """Every suit home but clubs: its Ace foundation done, its King foundation at ``down_clubs``."""
    piles = "/".join([pile] + ["-"] * 15)
    return Position.from_text(f"up:K♠,K♥,K♦,K♣ down:A♠,A♥,A♦,{down_clubs} piles:{piles} "
                              f"reshuffles:{reshuffles} moves:0")


def test_an_ace_above_the_two_it_waits_for_is_dead_without_reshuffles() -> None:
    app = get_profile("app")
    assert dead(app, lock("2♣,A♣,3♣", 0))
    assert not brute_force("app", lock("2♣,A♣,3♣", 0))
    # one reshuffle left can bring the Two up: not dead, and indeed winnable
    assert not dead(app, lock("2♣,A♣,3♣", 1)) and brute_force("app", lock("2♣,A♣,3♣", 1))
    # in the right order nothing is locked
    assert not dead(app, lock("A♣,2♣,3♣", 0)) and brute_force("app", lock("A♣,2♣,3♣", 0))


def test_give_backs_are_never_judged() -> None:
    assert not dead(get_profile("app+give-backs"), lock("2♣,A♣,3♣", 0))


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892", "hoffmann-1892+reversal"])
def test_nor_where_foundations_meet_or_a_card_is_held(profile: str) -> None:
    """Meeting foundations, slides between them and the hold (small_position never has 13 cards
    of one suit out): the rule stays silent where they could still save the position."""
    rules, fired = get_profile(profile), 0
    for seed in range(40):
        pos = meeting_position(seed, profile)
        if dead(rules, pos):
            fired += 1
            assert not brute_force(profile, pos), (seed, pos.to_text())
    assert fired >= 2
