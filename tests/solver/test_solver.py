"""The solver: its answers agree with brute force, its lines win, its pruning changes no answer,
and a budget that runs out says ``unknown``."""

from __future__ import annotations

import pytest

from crescent_ref import movegen
from crescent_ref.cli import main
from crescent_ref.game import Game
from crescent_ref.profiles import get_profile
from crescent_ref.solver import Budget, replay, solve
from crescent_ref.solver.safe import last_card, safe_move
from tests.solver.small import PROFILES, brute_force, small_position

SEEDS = range(60)
SMALL = Budget(nodes=200_000, seconds=30)


def fit(profile: str, seed: int) -> Game:
    pos = small_position(seed)
    return Game(profile, pos._replace(reshuffles=min(pos.reshuffles, get_profile(profile).reshuffles)))


@pytest.mark.parametrize("profile", PROFILES)
def test_answers_agree_with_brute_force_and_winning_lines_win(profile: str) -> None:
    verdicts = set()
    for seed in SEEDS:
        game = fit(profile, seed)
        answer = solve(game, SMALL)
        verdicts.add(answer.verdict)
        assert answer.verdict == ("winnable" if brute_force(profile, game.position) else "not winnable"), seed
        if answer.verdict == "winnable":
            assert replay(Game(profile, game.position), answer.line) == "won"
    assert verdicts == {"winnable", "not winnable"}


@pytest.mark.parametrize("profile", PROFILES)
def test_pruning_and_search_order_change_no_answer(profile: str) -> None:
    for seed in SEEDS:
        game = fit(profile, seed)
        pruned = solve(game, SMALL).verdict
        assert solve(game, SMALL, prune=False).verdict == pruned, seed
        assert solve(game, SMALL, order="depth-first").verdict == pruned, seed


@pytest.mark.parametrize("profile", ["app+give-backs", "open+give-backs"])
def test_give_back_lines_win_when_found(profile: str) -> None:
    found = 0
    for seed in range(20):
        game = fit(profile, seed)
        answer = solve(game, Budget(nodes=5_000, seconds=10))
        if answer.verdict == "winnable":
            found += 1
            assert replay(Game(profile, game.position), answer.line) == "won"
    assert found >= 5


def test_the_safe_rule_fires_only_on_a_foundations_last_card() -> None:
    fired = 0
    for seed in range(400):
        game = fit("hoffmann-1892" if seed % 2 else "app", seed)
        move = safe_move(game.profile, game.position, movegen.pile_moves(game.profile, game.position))
        if move is not None:
            fired += 1
            assert last_card(game.position, game.position.piles[move.src][-1])
    assert fired >= 5


def test_a_spent_budget_answers_unknown() -> None:
    answer = solve(Game.deal("app", "CR1-N-AAAAAAB"), Budget(nodes=300, seconds=30))
    assert (answer.verdict, answer.limit) == ("unknown", "nodes")


def test_the_memory_bound_answers_unknown() -> None:
    answer = solve(Game.deal("app", "CR1-N-AAAAAAB"), Budget(nodes=10**6, seconds=60, stored=100))
    assert (answer.verdict, answer.limit) == ("unknown", "stored")


def test_closed_deals_are_solved_thoughtfully() -> None:
    answer = solve(Game.deal("morehead-1949", "CR1-N-AAAAAAB"), Budget(nodes=300))
    assert answer.thoughtful and not solve(Game.deal("app", "CR1-N-AAAAAAB"), Budget(nodes=300)).thoughtful


def test_solve_prints_a_line_that_play_replays(capsys: pytest.CaptureFixture[str]) -> None:
    seed = next(s for s in SEEDS if brute_force("app", fit("app", s).position))
    text = fit("app", seed).position.to_text()
    assert main(["solve", text, "--profile", "app", "--nodes", "100000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("answer: winnable")
    line = next(row for row in out.splitlines() if row.startswith("line")).partition(": ")[2].split()
    assert main(["play", "--profile", "app", "--position", text, *line]) == 0
    assert "· won ·" in capsys.readouterr().out
