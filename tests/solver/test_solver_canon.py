"""The canonical key is a true invariant: positions it merges have the same answer."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crescent_ref import movegen
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver.canon import key, meets
from crescent_ref.transitions import move
from tests.solver.small import brute_force, small_position

NO_AUTOPLAY = ("app", "hoffmann-1892", "morehead-1949", "app+give-backs")


def shuffled(pos: Position, rng: random.Random) -> Position:
    """The same table with the piles renumbered, other face-down counts and another move count."""
    order = list(range(16))
    rng.shuffle(order)
    piles = tuple(pos.piles[i] for i in order)
    hidden = tuple(rng.randint(0, max(len(p) - 1, 0)) for p in piles)
    return pos._replace(piles=piles, hidden=hidden, moves=rng.randint(0, 500))


@given(st.integers(0, 10**9), st.sampled_from(NO_AUTOPLAY))
@settings(max_examples=60, deadline=None)
def test_renumbered_piles_faces_and_move_counts_share_a_key_and_an_answer(seed: int, profile: str) -> None:
    pos = small_position(seed)
    other = shuffled(pos, random.Random(seed))
    rules = get_profile(profile)
    assert key(rules, other) == key(rules, pos)
    if not rules.give_backs:
        assert brute_force(profile, other._replace(hidden=(0,) * 16)) == brute_force(profile, pos)


@given(st.integers(0, 10**9))
@settings(max_examples=60, deadline=None)
def test_slides_between_meeting_foundations_keep_the_key(seed: int) -> None:
    pos = small_position(seed)
    rules = get_profile("app")
    for slide in movegen.foundation_moves(rules, pos):
        assert meets(pos, (slide.src - 16) % 4)
        assert key(rules, move(pos, slide.src, slide.dst, count=1)) == key(rules, pos)


@given(st.integers(0, 10**9))
@settings(max_examples=40, deadline=None)
def test_autoplay_keeps_the_pile_order_in_the_key(seed: int) -> None:
    pos = small_position(seed)
    rules = get_profile("open")
    reverse = pos._replace(piles=pos.piles[::-1])
    if sorted(pos.piles) != list(pos.piles) and reverse.piles != pos.piles:
        assert key(rules, reverse) != key(rules, pos)
    assert Game(rules, pos).status() == Game(rules, reverse).status()
