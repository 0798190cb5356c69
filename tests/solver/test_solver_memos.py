"""The solver's memos (orders.features, dead's per-state verdicts, canon's key tails) give the
plain answers: the same positions judged with the memos warm and with them cleared agree."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import canon, orders
from crescent_ref.solver import dead as dead_module
from crescent_ref.solver.canon import key
from crescent_ref.solver.dead import dead
from crescent_ref.solver.orders import burial, features, tangles
from tests.solver.small import PROFILES, meeting_position, small_position

T = TypeVar("T")
CODES = ("CR1-N-AAAFYYB", "CR1-N-BAAAAAA", "CR1-N-AABPSMH")


def played(profile: str, seed: int) -> list[Position]:
    """Positions along random games of a few deals (moves, and now and then a reshuffle)."""
    rng, found = random.Random(seed), []
    for code in CODES:
        game = Game.deal(profile, code)
        for _ in range(200):
            moves, left = game.legal_moves(), game.position.reshuffles
            if game.status() in ("won", "lost") or not (moves or left):
                break
            game.play(rng.choice(moves) if moves and (not left or rng.random() < 0.95) else "reshuffle")
            found.append(game.position)
    return found


def positions(profile: str) -> list[Position]:
    small = [small_position(seed, most=9) for seed in range(150)]
    return played(profile, 7) + small + [meeting_position(seed, profile) for seed in range(150)]


@pytest.mark.parametrize("profile", PROFILES)
def test_features_are_burial_and_tangles(profile: str) -> None:
    found = positions(profile)
    warm = [features(pos) for pos in found]
    assert warm == [(burial(pos), tangles(pos)) for pos in found]
    assert len({t for _, t in warm}) > 5 and len({b for b, _ in warm}) > 5  # the sample varies


def warm_and_cold(judge: Callable[[Position], T], memo: dict[Any, Any], found: list[Position]
                   ) -> tuple[list[T], list[T]]:
    """``judge`` of each position with the memo kept, then with the memo cleared before each."""
    warm = [judge(pos) for pos in found]
    cold = []
    for pos in found:
        memo.clear()
        cold.append(judge(pos))
    return warm, cold


@pytest.mark.parametrize("profile", PROFILES)
def test_dead_verdicts_do_not_depend_on_the_memo(profile: str) -> None:
    rules = get_profile(profile)
    warm, cold = warm_and_cold(lambda pos: dead(rules, pos), dead_module._VERDICTS, positions(profile))
    assert warm == cold and any(warm) and not all(warm)


def test_the_memos_are_cleared_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    app, found = get_profile("app"), positions("app")
    expected = [dead(app, pos) for pos in found]
    monkeypatch.setattr(orders, "MEMO_SIZE", 10)
    monkeypatch.setattr(dead_module, "MEMO_SIZE", 3)
    dead_module._VERDICTS.clear()
    assert [features(pos) for pos in found] == [(burial(pos), tangles(pos)) for pos in found]
    assert orders._SIZE[0] <= 10 + 16  # cleared at the next position once past the size
    assert [dead(app, pos) for pos in found] == expected
    assert len(dead_module._VERDICTS) <= 3


@pytest.mark.parametrize("profile", PROFILES)
def test_keys_do_not_depend_on_the_memo(profile: str) -> None:
    rules, found = get_profile(profile), positions(profile)
    warm, cold = warm_and_cold(lambda pos: key(rules, pos), canon._TAILS, found)
    assert warm == cold and len(set(warm)) > len(found) // 2
