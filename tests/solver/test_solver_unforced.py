"""Autoplay as a choice (crescent_ref/solver/unforced.py): in profiles with autoplay, the one-suit
rules asked under the same rules without autoplay never call a position dead that the brute force
(which plays the profile itself, autoplay included) wins, and they do fire."""

from __future__ import annotations

import dataclasses

import pytest

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import suits, unforced
from crescent_ref.solver.search import Budget, Search
from tests.solver.small import PROFILES, brute_force, small_position
from tests.solver.test_solver_suits import fired

AUTOPLAY = [p for p in PROFILES if get_profile(p).autoplay]


def unforced_lost(profile: str, pos: Position) -> bool:
    """Some suit is lost alone, unforced (with its last reshuffle, if one is left)."""
    rules = get_profile(profile)
    search = Search(rules, Budget(nodes=200_000), relax=False)
    return suits.some_suit_lost(unforced.relaxed(rules), pos, search.solve_suit, {}, search.solve_last)


def test_the_autoplay_profiles_are_tested() -> None:
    assert "open" in AUTOPLAY and len(AUTOPLAY) >= 2


def test_the_relaxed_profile_only_turns_autoplay_off() -> None:
    rules = get_profile("open")
    relaxed = unforced.relaxed(rules)
    assert not relaxed.autoplay and relaxed.name == "open~unforced"
    assert dataclasses.replace(relaxed, name=rules.name, autoplay=True) == rules
    assert unforced.relaxed(get_profile("app")) is get_profile("app")


def test_off_the_one_suit_rules_stay_off_with_autoplay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unforced, "ENABLED", False)
    assert unforced.relaxed(get_profile("open")) is get_profile("open")
    assert not suits.applies(unforced.relaxed(get_profile("open")), small_position(1)._replace(reshuffles=0))


@pytest.mark.parametrize("profile", AUTOPLAY)
def test_a_suit_lost_alone_unforced_means_the_position_is_not_winnable(profile: str) -> None:
    positions = (small_position(seed, most=10)._replace(reshuffles=0) for seed in range(150))
    assert fired(profile, positions, unforced_lost) >= 20


@pytest.mark.parametrize("profile", AUTOPLAY)
def test_with_its_last_reshuffle_too(profile: str) -> None:
    positions = (small_position(seed, most=10)._replace(reshuffles=1) for seed in range(150))
    assert fired(profile, positions, unforced_lost) >= 10


def test_whole_solves_under_autoplay_match_the_brute_force() -> None:
    rules, verdicts = get_profile("open"), set()
    for seed in range(60):
        pos = small_position(seed, most=9)
        answer = Search(rules, Budget(nodes=200_000), last=True).run(pos)
        assert answer.verdict != "unknown"
        assert (answer.verdict == "winnable") == brute_force("open", pos), pos.to_text()
        verdicts.add(answer.verdict)
    assert verdicts == {"winnable", "not winnable"}
