"""Wrap deals proved not winnable at the start (docs/solver.md, "Deals proved not winnable"):
``waits.py``'s proof on both cores and in both search orders, and an argument of its own checked
here without the solver: two piles are topped by the two copies of one card, and every copy of
that card's two pile neighbours lies under one of them, out of reach of the three reshuffles.
The first of the six cards to leave must then be one of the two tops, and it has nowhere to go.
Random games confirm it: the six cards never leave their piles, and no game is won."""

from __future__ import annotations

import random

import pytest

from crescent_ref.actions import PLACES, RESHUFFLE
from crescent_ref.cards import ACE, KING
from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.rules import faults
from crescent_ref.solver import Budget, solve

CODES = ("CR1-N-SNJSSDU", "CR1-N-YFTTZIP", "CR1-N-ZLSBXGH", "CR1-N-JXAWKCP")  # benchmarks/start_waits.py
PROFILES = ("app", "open", "morehead-1949")
CASES = [(profile, code) for profile in PROFILES for code in CODES]


def twin_lock(pos: Position) -> tuple[int, int, int] | None:
    """Two piles (p, q) topped by the two copies of one card (neither an Ace nor a King), with the
    four copies of its rank neighbours of its suit in those two piles, each with at least as many
    cards below it as reshuffles are left (so no reshuffle lifts it); the card and the two piles."""
    tops = [pile[-1] if pile else -1 for pile in pos.piles]
    for p in range(len(tops)):
        for q in range(p + 1, len(tops)):
            card = tops[p]
            if card < 0 or card != tops[q] or card % 13 + 1 in (ACE, KING):
                continue
            pinned = [c for r in (p, q) for c in pos.piles[r][pos.reshuffles:-1]]
            if all(pinned.count(n) == 2 for n in (card - 1, card + 1)):
                return card, p, q
    return None


def foundations_need_a_neighbour(pos: Position, card: int) -> bool:
    """Neither foundation of the suit can take the card before a copy of a neighbour arrives: the
    Ace foundation lacks the rank below it, the King foundation the rank above it."""
    suit, below = divmod(card, 13)  # the card's rank is below + 1
    return pos.up[suit] < below and pos.down[suit] > below + 2


@pytest.mark.parametrize(("profile", "code"), CASES)
def test_the_start_is_a_twin_lock(profile: str, code: str) -> None:
    pos = Game.deal(profile, code).position
    found = twin_lock(pos)
    assert found is not None
    assert pos.reshuffles == 3 and not any(pos.held)
    assert foundations_need_a_neighbour(pos, found[0])


@pytest.mark.parametrize(("profile", "code"), CASES)
@pytest.mark.parametrize(("order", "core"), [("portfolio", "compiled"), ("depth-first", "python")])
def test_the_solver_proves_the_deal_not_winnable(profile: str, code: str, order: str, core: str) -> None:
    answer = solve(Game.deal(profile, code), Budget(seconds=10), order=order, core=core)
    assert answer.verdict == "not winnable" and answer.nodes == 0
    assert answer.proof.startswith("dead at the start:") and "waits.py" in answer.proof


@pytest.mark.parametrize(("profile", "code"), CASES)
def test_random_games_never_free_the_lock(profile: str, code: str) -> None:
    start = Game.deal(profile, code)
    found = twin_lock(start.position)
    assert found is not None
    card, p, q = found
    locked = {r: sorted(start.position.piles[r][3:]) for r in (p, q)}
    rng = random.Random(code + profile)
    for _ in range(15):
        game = Game.deal(profile, code)
        while game.status() not in ("won", "lost"):
            for r in (p, q):
                cards = game.position.piles[r]
                assert all(cards.count(c) >= locked[r].count(c) for c in locked[r])  # none has left
                if cards[-1] == card:  # on top: the plain rules refuse every move of it
                    assert all(next(faults(game.profile, game.position, r, dst), None) for dst in range(PLACES)
                               if dst != r)
            moves = game.legal_moves()
            game.play(rng.choice(moves) if moves and (not game.position.reshuffles or rng.random() < 0.97)
                      else RESHUFFLE)
        assert game.status() == "lost"


def test_the_pattern_is_rare_and_found_where_the_scan_found_it() -> None:
    # the scan's neighbours in the list (benchmarks/start_waits.py: list index 207994) are not locked
    near = [str(GameCode(i * 104729 % (MAX_SEED + 1))) for i in range(207990, 208000)]
    locked = [code for code in near if twin_lock(Game.deal("app", code).position)]
    assert locked == ["CR1-N-SNJSSDU"]
