"""Pile building: same suit, one rank up or down, the King-Ace wrap, empty piles, the pile limit."""

from __future__ import annotations

import pytest
from engine_helpers import PROFILES, expect, game, pile, verdict

from crescent_ref.profiles import get_profile

TWELVE = "2♥,3♥,4♥,5♥,6♥,7♥,8♥,9♥,10♥,J♥,Q♥,2♦"  # twelve cards that take no part in the moves


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_parameters_match_the_documents(profile: str) -> None:
    params = get_profile(profile).parameters()
    want = expect(profile)
    got = (params["pile_wrap"], params["pile_limit"], params["between_foundations"], params["give_backs"],
           params["hold_double_fit"], params["undo_limit"] > 0, params["autoplay"], params["deal"] == "closed",
           params["reshuffles"])
    assert got == tuple(want)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["p1-p2", "p3-p2"])
def test_one_rank_down_or_up_on_the_same_suit(profile: str, action: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠ p3:7♠")
    assert verdict(g, action) == "ok"
    assert pile(g, 2) == "9♦,6♠," + ("5♠" if action == "p1-p2" else "7♠")
    assert pile(g, 1 if action == "p1-p2" else 3) == "-"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("piles", "reason"), [
    ("p1:4♠ p2:6♠", "wrong-rank"),
    ("p1:6♠ p2:6♠", "wrong-rank"),
    ("p1:5♥ p2:6♠", "wrong-suit"),
    ("p1:7♥ p2:6♠", "wrong-suit"),
])
def test_other_cards_are_refused(profile: str, piles: str, reason: str) -> None:
    g = game(profile, piles)
    before = g.position
    assert verdict(g, "p1-p2") == reason
    assert g.position == before


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("piles", ["p1:K♠ p2:A♠", "p1:A♠ p2:K♠"])
def test_king_and_ace_wrap_except_in_1892(profile: str, piles: str) -> None:
    g = game(profile, piles, up="2♠,A♥,A♦,A♣")
    assert verdict(g, "p1-p2") == ("ok" if expect(profile).wrap else "wrong-rank")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_card_never_goes_onto_an_empty_pile(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:- p3:9♦,6♠")
    assert verdict(g, "p1-p2") == "empty-pile"
    assert verdict(g, "p1-p3") == "ok"
    assert pile(g, 1) == "-"
    assert verdict(g, "p3-p1") == "empty-pile"


@pytest.mark.parametrize("profile", PROFILES)
def test_thirteen_cards_fill_a_pile_in_the_app_only(profile: str) -> None:
    nine = TWELVE[:-5].rstrip(",")
    g = game(profile, f"p1:5♠ p2:{TWELVE},6♠ p3:{nine},4♠")
    assert len(g.position.piles[1]) == 13
    assert verdict(g, "p1-p2") == ("pile-full" if expect(profile).limit == 13 else "ok")


@pytest.mark.parametrize("profile", PROFILES)
def test_twelve_cards_still_take_one_more(profile: str) -> None:
    g = game(profile, f"p1:5♠ p2:{TWELVE[:-3]},6♠")
    assert len(g.position.piles[1]) == 12
    assert verdict(g, "p1-p2") == "ok"
    assert len(g.position.piles[1]) == 13
