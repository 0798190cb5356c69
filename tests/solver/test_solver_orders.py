"""Restarts (crescent_ref/solver/orders.py, search.Restarts): the slices, the budget across
searches, and the tangles the order counts."""

from __future__ import annotations

import itertools

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.solver import Budget, solve
from crescent_ref.solver.orders import PORTFOLIO, Promise, slices, tangles


def test_each_order_gets_a_slice_and_the_slices_double_each_round() -> None:
    first = list(itertools.islice(slices(PORTFOLIO, 100), 2 * len(PORTFOLIO)))
    assert [order for order, _ in first] == list(PORTFOLIO) * 2
    assert {size for _, size in first[: len(PORTFOLIO)]} == {100}
    assert {size for _, size in first[len(PORTFOLIO):]} == {200}


def test_the_node_budget_holds_across_restarts() -> None:
    answer = solve(Game.deal("app", "CR1-N-AAARWUD"), Budget(nodes=30_000, seconds=60))
    assert answer.verdict == "unknown" and answer.limit == "nodes"
    assert answer.searches >= 3
    assert answer.nodes < 30_000 + 5_000  # a search looks at its budget every few expansions


def test_tangles_count_pairs_of_one_suit_upside_down_in_a_pile() -> None:
    # clubs: Ace foundation done, King foundation at 5: 4, 3, 2, A must come down in that order
    # (piles are written bottom to top)
    base = "up:K♠,K♥,K♦,K♣ down:A♠,A♥,A♦,5♣ piles:{}/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- reshuffles:0 moves:0"
    assert tangles(Position.from_text(base.format("A♣,2♣,3♣,4♣"))) == 0
    assert tangles(Position.from_text(base.format("4♣,3♣,2♣,A♣"))) == 6
    assert tangles(Position.from_text(base.format("A♣,2♣,4♣,3♣"))) == 1
    upside = Position.from_text(base.format("4♣,3♣,2♣,A♣"))
    assert Promise(8, 48, 1, 4)(upside) == Promise(8, 48, 1, 0)(upside) - 4 * 6
