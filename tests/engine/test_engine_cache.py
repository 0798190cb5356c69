"""The move generator's caches never change an answer."""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import game

from crescent_ref import Game, GameCode, movegen, rules
from crescent_ref.actions import PLACES
from crescent_ref.profiles import get_profile


def no_fault_moves(g: Game) -> list[str]:
    """The legal moves as the slow ``faults`` sees them."""
    pos = g.position
    return [f"{s}-{d}" for s in range(PLACES) for d in range(PLACES) if not list(rules.faults(g.profile, pos, s, d))]


def fast_moves(g: Game) -> list[str]:
    return [f"{m.src}-{m.dst}" for m in movegen.legal_moves(g.profile, g.position)]


@pytest.mark.parametrize("profile", ["app", "open+give-backs", "hoffmann-1892+reversal"])
def test_a_tiny_foundation_cache_gives_the_same_moves(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movegen, "CACHE_SIZE", 1)
    for seed in range(1, 40, 7):
        g = Game.deal(profile, str(GameCode(seed)))
        for _ in range(30):
            assert fast_moves(g) == no_fault_moves(g)
            moves = g.legal_moves()
            g.apply(moves[len(moves) // 2] if moves else "reshuffle")


def test_each_profile_object_has_its_own_tables() -> None:
    app = get_profile("app")
    no_wrap = dataclasses.replace(app, pile_wrap=False)
    g = game("app", "p1:K♠ p2:9♦,A♠", up="2♠,A♥,A♦,A♣")
    assert movegen.reason(app, g.position, 0, 1) is None
    assert movegen.reason(no_wrap, g.position, 0, 1) == "wrong-rank"
    assert [str(m) for m in movegen.legal_moves(no_wrap, g.position) if m.src == 0] == []


def test_a_new_position_gets_new_moves() -> None:
    g = game("app", "p1:9♦,5♠ p2:9♣,6♠")
    first = g.legal_moves()
    g.position = game("app", "p1:9♦,5♠ p2:9♣,7♠").position
    assert first and g.legal_moves() == []
    assert g.status() == "waiting"


def test_legal_moves_hands_out_a_fresh_list() -> None:
    g = game("app", "p1:9♦,5♠ p2:9♣,6♠")
    g.legal_moves().clear()
    assert [str(m) for m in g.legal_moves()] == ["p1-p2", "p2-p1"]


def test_a_new_profile_gets_new_moves() -> None:
    g = game("app", "p1:K♠ p2:9♦,A♠", up="2♠,A♥,A♦,A♣")
    assert "p1-p2" in [str(m) for m in g.legal_moves()]
    g.profile = get_profile("hoffmann-1892")
    assert "p1-p2" not in [str(m) for m in g.legal_moves()]
