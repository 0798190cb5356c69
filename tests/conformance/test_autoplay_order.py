"""An open engine that autoplays in its own pile order, and declares it, fails no scenario the base engine passes.

001 says only that the cards "go to their foundations by themselves" (I-AUTOPLAY-ORDER): the order in
which autoplay looks at the piles is the implementation's, declared as ``autoplay_order``. The engine
below is not the reference's autoplay with another parameter: it turns the reference's autoplay off
and runs a loop of its own, looking at the piles in its order, so the test checks the declared-rules
judging against an independent autoplay.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from harness import Pair, key, pairs, passing_pairs, run_pairs

from conformance.adapter import Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.coverage import dependents
from conformance.judging.state import game_state
from crescent_ref import transitions
from crescent_ref.actions import HOLD, PILES, UP, place_text
from crescent_ref.game import Game
from crescent_ref.profiles import get_profile

SHUFFLED = random.Random(21).sample(range(1, 17), 16)
ORDERS: list[Any] = ["descending", SHUFFLED, [*range(9, 17), *range(1, 9)]]


class OwnOrderAutoplay(ReferenceAdapter):
    """The reference's rules with its autoplay off, and an autoplay of its own over the piles in ``order``."""

    def __init__(self, order: Any, *, declare: bool = True) -> None:
        super().__init__({"open": {"autoplay_order": order}} if declare else None)
        self.order = list(range(1, PILES + 1))[::-1] if order == "descending" else list(order)
        self.autoplays = False

    def _new_game(self, profile: str, position: str | None, code: str | None) -> Game:
        rules = get_profile(profile)
        self.autoplays = rules.autoplay
        plain = rules.changed({"autoplay": False})
        game = Game.deal(plain, code) if code else Game.from_text(plain, position or "")
        if code:
            self._go_up(game)
        return game

    def act(self, action: str) -> Reply:
        game = self._game()
        out = game.apply(action)
        made = [str(m) for m in out.moves]
        if out.accepted and out.effect in ("move", "reshuffle"):
            made += self._go_up(game)
        return Reply(out.accepted, out.reason, out.effect, tuple(made), game_state(game))

    def _go_up(self, game: Game) -> list[str]:
        """Send up, one at a time, the first top card in ``order`` whose only destination is a foundation."""
        made: list[str] = []
        while self.autoplays and (found := self._first(game)) is not None:
            game.position = transitions.move(game.position, *found)
            made.append(f"{place_text(found[0])}-{place_text(found[1])}")
        return made

    def _first(self, game: Game) -> tuple[int, int] | None:
        for number in self.order:
            places = game.destinations(number - 1) if game.position.piles[number - 1] else []
            if len(places) == 1 and UP <= places[0] < HOLD:
                return number - 1, places[0]
        return None


def open_pairs() -> list[Pair]:
    return [p for p in passing_pairs() if p[1].split("+")[0] == "open"]


@functools.cache
def order_dependents(order: str) -> frozenset[str]:
    profiles = sorted({profile for _, profile in open_pairs()})
    return frozenset().union(*(dependents(p, "autoplay_order", order) for p in profiles))


def test_the_own_order_engine_in_the_base_order_passes_everything_undeclared() -> None:
    results = run_pairs(OwnOrderAutoplay(list(range(1, 17)), declare=False), open_pairs())
    assert [k for k, r in results.items() if r.verdict != "passed"] == []


@pytest.mark.parametrize("order", ORDERS, ids=["descending", "shuffled", "from-9"])
def test_an_engine_autoplaying_in_another_order_that_declares_it_fails_nothing_the_base_passes(order: Any) -> None:
    results = run_pairs(OwnOrderAutoplay(order), open_pairs())
    assert [k for k, r in results.items() if r.verdict != "passed"] == []
    judged = {k for k, r in results.items() if r.judged_as}
    assert judged and all("autoplay_order=" in results[k].judged_as for k in judged)


@pytest.mark.parametrize("order", ORDERS[:2], ids=["descending", "shuffled"])
def test_the_same_engine_undeclared_fails_and_only_where_the_order_decides(order: Any) -> None:
    results = run_pairs(OwnOrderAutoplay(order, declare=False), open_pairs())
    failing = {k for k, r in results.items() if r.verdict != "passed"}
    assert failing, "the corpus pins no autoplay order"
    assert failing <= {key(p) for p in pairs()}
    if order == "descending":
        assert failing == order_dependents("descending")
        assert {"autoplay-006[open]", "worked-example-020[open]"} <= failing
