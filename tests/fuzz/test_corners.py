"""The corner generators make valid, reproducible positions that put the game where their rule bites."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.explore.fuzz import CORNERS, Corner, corners_for, generated_position, make_start
from conformance.explore.fuzz.duel import new_game
from crescent_ref.actions import Action
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949", "app+give-backs", "open+closed+reversal")
BY_NAME = {c.name: c for c in CORNERS}


def start_game(corner: Corner, profile: str, seed: int) -> Game | None:
    start = make_start(corner, get_profile(profile), random.Random(seed))
    return None if start is None else new_game(get_profile(profile), start.given)


@settings(max_examples=60, deadline=None)
@given(corner=st.sampled_from(CORNERS), profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**32))
def test_every_generator_makes_a_valid_reproducible_start(corner: Corner, profile: str, seed: int) -> None:
    first = make_start(corner, get_profile(profile), random.Random(seed))
    again = make_start(corner, get_profile(profile), random.Random(seed))
    assert first == again
    if first is None:
        return
    if "position" in first.given:
        assert Position.from_text(first.given["position"]).card_count() == 104
    for action in (*first.script, *first.focus):
        Action.from_text(action)


def test_generators_apply_by_the_profiles_parameters() -> None:
    names = {p: {c.name for c in corners_for(get_profile(p), frozenset({"undo", "game-codes"}))} for p in PROFILES}
    assert "long-undo" in names["app"] and "long-undo" not in names["open"]
    assert "held" in names["hoffmann-1892"] and "held" not in names["app"]
    assert "closed-turn" in names["morehead-1949"] and "closed-turn" in names["open+closed+reversal"]
    assert "dealt" not in {c.name for c in corners_for(get_profile("app"), frozenset())}


def test_the_full_pile_generator_reaches_the_limit() -> None:
    sizes = set()
    for seed in range(20):
        game = start_game(BY_NAME["full-pile"], "app", seed)
        if game is not None:
            sizes.add(max(len(p) for p in game.position.piles))
    assert sizes == {12, 13}


def test_the_near_win_generator_is_one_or_two_cards_from_a_win() -> None:
    games = [g for s in range(10) if (g := start_game(BY_NAME["near-win"], "app", s)) is not None]
    assert games and {104 - g.position.foundation_count() for g in games} <= {1, 2}
    assert all(g.status() != "won" for g in games)


def test_the_long_undo_script_goes_past_the_undo_limit() -> None:
    starts = [make_start(BY_NAME["long-undo"], get_profile("app"), random.Random(s)) for s in range(10)]
    start = next(s for s in starts if s is not None and s.script[-2:] == ("undo", "undo") and len(s.script) > 200)
    game = new_game(get_profile("app"), start.given)
    outcomes = [game.apply(a) for a in start.script]
    refused = [o.reason for o in outcomes if not o.accepted]
    assert set(refused) == {"nothing-to-undo"} and len(refused) >= 2  # every undo past the 100th


def test_the_stuck_generator_leaves_no_pile_move() -> None:
    games = [g for s in range(10) if (g := start_game(BY_NAME["stuck"], "open", s)) is not None]
    assert games and all(g.status() in ("waiting", "lost") for g in games)


def test_generated_positions_are_valid_and_reproducible() -> None:
    text = generated_position(99, 30, "open")
    assert Position.from_text(text).card_count() == 104
    assert generated_position(99, 30, "open") == text
