"""Deals proved not winnable (the whole games titled so in spec/scenarios/whole-games.yaml): the solver's
proof, the same in both search orders, and checked another way. Without the wrap (the locked-card
rule's proofs): random games never free the locked card, the plain rules (rules.faults) never let it
move, and none is won. With the wrap, every claim is one of the deals test_solver_proved_wrap.py
proves on both cores and checks without the solver."""

from __future__ import annotations

import random

import pytest

from crescent_ref.actions import PLACES, RESHUFFLE
from crescent_ref.cards import CARD_TEXT
from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.game import Game
from crescent_ref.profiles import get_profile
from crescent_ref.rules import faults
from crescent_ref.solver import Budget, solve
from crescent_ref.solver.dead import dead, witness
from crescent_ref.spec_files import load_yaml
from tests.solver.test_solver_proved_wrap import CODES as WRAP_CODES
from tests.solver.test_solver_proved_wrap import PROFILES as WRAP_PROFILES

CLAIMS = [(s["profiles"][0], s["given"]["code"]) for s in load_yaml("scenarios/whole-games.yaml")["scenarios"]
          if "proved not winnable" in s["title"]]  # the corpus's claims, each re-proved here
PROVED = [(profile, code) for profile, code in CLAIMS if not get_profile(profile).pile_wrap]


def test_the_corpus_claims_proved_deals() -> None:
    assert len(PROVED) >= 3
    assert {profile for profile, _ in CLAIMS} >= {"app", "open", "morehead-1949", "hoffmann-1892"}


@pytest.mark.parametrize(("profile", "code"), [claim for claim in CLAIMS if claim not in PROVED])
def test_a_wrap_claim_is_a_deal_the_wrap_tests_prove(profile: str, code: str) -> None:
    assert profile in WRAP_PROFILES and code in WRAP_CODES
    answer = solve(Game.deal(profile, code), Budget(seconds=10))
    assert answer.verdict == "not winnable" and answer.nodes == 0


@pytest.mark.parametrize(("profile", "code"), PROVED)
@pytest.mark.parametrize("order", ["portfolio", "depth-first"])
def test_the_solver_proves_the_deal_not_winnable(profile: str, code: str, order: str) -> None:
    game = Game.deal(profile, code)
    found = witness(game.profile, game.position)
    assert found is not None
    pile, card = found
    answer = solve(game, Budget(seconds=10), order=order)
    assert answer.verdict == "not winnable" and answer.nodes == 0
    assert answer.proof.startswith(f"dead at the start: {CARD_TEXT[card]} on pile {pile + 1} is locked")


@pytest.mark.parametrize(("profile", "code"), PROVED)
def test_random_games_never_move_the_locked_card(profile: str, code: str) -> None:
    start = Game.deal(profile, code)
    found = witness(start.profile, start.position)
    assert found is not None
    pile, card = found
    rng = random.Random(code)
    for _ in range(60):
        game = Game.deal(profile, code)
        while game.status() not in ("won", "lost"):
            cards = game.position.piles[pile]
            assert card in cards and cards.index(card) >= game.position.reshuffles  # never rotated up
            if cards[-1] == card:  # on top: the plain rules refuse it everywhere
                assert all(next(faults(game.profile, game.position, pile, dst), None) for dst in range(PLACES)
                           if dst != pile)
            moves = game.legal_moves()
            left = game.position.reshuffles
            game.play(rng.choice(moves) if moves and (not left or rng.random() < 0.97) else RESHUFFLE)
        assert game.status() == "lost"


@pytest.mark.parametrize("profile", ["app", "open", "morehead-1949"])
def test_with_the_wrap_no_fresh_deal_is_dead(profile: str) -> None:
    # an Ace's neighbours are both Twos and the loose King: three cards, and only two lie out of
    # reach of three reshuffles under a pile's top card (docs/solver.md)
    for i in range(1, 3001):
        game = Game.deal(profile, str(GameCode(i * 104729 % (MAX_SEED + 1))))
        assert not dead(game.profile, game.position)
