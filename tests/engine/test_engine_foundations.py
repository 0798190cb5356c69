"""Foundations: in sequence without wrap, base locked, cards leaving a foundation, the 1892 hold."""

from __future__ import annotations

import pytest
from engine_helpers import PROFILES, expect, foundations, game, pile, verdict

from crescent_ref import Action, NotationError

HOLDERS = [p for p in PROFILES if expect(p).hold]
OTHERS = [p for p in PROFILES if not expect(p).hold]
MET = {"up": "5♠,A♥,A♦,A♣", "down": "6♠,K♥,K♦,K♣"}  # the two spade foundations meet
APART = {"up": "4♠,A♥,A♦,A♣", "down": "7♠,K♥,K♦,K♣"}
DOUBLE = {"up": "4♠,A♥,A♦,A♣", "down": "6♠,K♥,K♦,K♣"}  # a 5♠ fits both


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("card", "dst", "reason"), [
    ("2♠", "A♠", "ok"), ("3♠", "A♠", "out-of-sequence"), ("2♥", "A♠", "wrong-suit"),
    ("Q♠", "K♠", "ok"), ("J♠", "K♠", "out-of-sequence"), ("Q♦", "K♠", "wrong-suit"),
    ("2♠", "K♠", "out-of-sequence"), ("Q♠", "A♠", "out-of-sequence"),
])
def test_foundations_build_in_sequence(profile: str, card: str, dst: str, reason: str) -> None:
    g = game(profile, f"p1:{card}")
    assert verdict(g, f"p1-{dst}") == reason
    if reason == "ok":
        up, down = (card, "K♠") if dst == "A♠" else ("A♠", card)
        assert foundations(g) == f"up:{up},A♥,A♦,A♣ down:{down},K♥,K♦,K♣"
        assert g.position.moves == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_a_finished_ace_foundation_takes_no_ace(profile: str) -> None:
    g = game(profile, "p1:A♠", up="K♠,A♥,A♦,A♣")
    assert verdict(g, "p1-A♠") == "out-of-sequence"


@pytest.mark.parametrize("profile", PROFILES)
def test_a_finished_king_foundation_takes_no_king(profile: str) -> None:
    g = game(profile, "p1:K♠", down="A♠,K♥,K♦,K♣")
    assert verdict(g, "p1-K♠") == "out-of-sequence"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["A♠-p1", "K♠-p1", "A♠-K♠", "K♠-A♠", "A♥-hold"])
def test_base_cards_are_locked(profile: str, action: str) -> None:
    g = game(profile, "p1:2♠,Q♠")
    assert verdict(g, action) == "base-locked"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["A♠-K♠", "K♠-A♠"])
def test_cards_cross_between_met_foundations_where_allowed(profile: str, action: str) -> None:
    g = game(profile, "", **MET)
    assert verdict(g, action) == ("ok" if expect(profile).between else "foundation-final")
    if expect(profile).between:
        up, down = ("4♠", "5♠") if action == "A♠-K♠" else ("6♠", "7♠")
        assert foundations(g) == f"up:{up},A♥,A♦,A♣ down:{down},K♥,K♦,K♣"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["A♠-K♠", "K♠-A♠"])
def test_foundations_apart_do_not_exchange(profile: str, action: str) -> None:
    g = game(profile, "", **APART)
    assert verdict(g, action) == ("out-of-sequence" if expect(profile).between else "foundation-final")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_foundation_card_never_crosses_to_another_suit(profile: str) -> None:
    g = game(profile, "", **MET)
    assert verdict(g, "A♠-K♥") == ("wrong-suit" if expect(profile).between else "foundation-final")


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("piles", "reason"), [
    ("p1:9♦,6♠", "ok"), ("p1:9♦,4♠", "ok"), ("p1:9♦,7♠", "wrong-rank"), ("p1:9♦,6♥", "wrong-suit"),
    ("p1:-", "empty-pile"),
])
def test_give_backs(profile: str, piles: str, reason: str) -> None:
    g = game(profile, piles, up="5♠,A♥,A♦,A♣")
    assert verdict(g, "A♠-p1") == (reason if expect(profile).give_backs else "foundation-final")
    if g.position.up[0] == 4:
        assert pile(g, 1) == piles[3:] + ",5♠"


@pytest.mark.parametrize("profile", PROFILES)
def test_give_back_onto_a_full_pile(profile: str) -> None:
    g = game(profile, "p1:2♥,3♥,4♥,5♥,6♥,7♥,8♥,9♥,10♥,J♥,Q♥,2♦,6♠", up="5♠,A♥,A♦,A♣")
    want = expect(profile)
    assert verdict(g, "A♠-p1") == ("foundation-final" if not want.give_backs else
                                   "pile-full" if want.limit else "ok")


@pytest.mark.parametrize("profile", OTHERS)
@pytest.mark.parametrize("dst", ["A♠", "K♠"])
def test_a_double_fit_card_goes_either_way(profile: str, dst: str) -> None:
    g = game(profile, "p1:5♠", **DOUBLE)
    assert Action.from_text(f"p1-{dst}") in g.legal_moves()
    assert verdict(g, f"p1-{dst}") == "ok"
    assert pile(g, 1) == "-"


@pytest.mark.parametrize("profile", OTHERS)
def test_no_hold_outside_1892(profile: str) -> None:
    g = game(profile, "p1:5♠", **DOUBLE)
    assert verdict(g, "p1-hold") == "hold-unavailable"


@pytest.mark.parametrize("profile", HOLDERS)
@pytest.mark.parametrize("dst", ["A♠", "K♠"])
def test_1892_a_double_fit_card_must_wait(profile: str, dst: str) -> None:
    g = game(profile, "p1:5♠", **DOUBLE)
    assert verdict(g, f"p1-{dst}") == "must-hold"
    assert [str(m) for m in g.legal_moves() if m.src == 0] == ["p1-hold"]
    assert verdict(g, "p1-hold") == "ok"
    assert str(g.position).endswith("moves:1 held:5♠")
    assert pile(g, 1) == "-"


@pytest.mark.parametrize("profile", HOLDERS)
@pytest.mark.parametrize("piles", [
    "p1:2♠",  # fits the Ace foundation only
    "p1:9♦,3♠",  # fits neither
])
def test_1892_only_double_fit_cards_are_held(profile: str, piles: str) -> None:
    g = game(profile, piles)
    assert verdict(g, "p1-hold") == "not-double-fit"


@pytest.mark.parametrize("profile", HOLDERS)
@pytest.mark.parametrize(("card", "dst", "up", "down"), [
    ("6♠", "A♠", "6♠", "6♠"),  # the held 5♠ goes up first, the 6♠ on it
    ("4♠", "K♠", "4♠", "4♠"),  # the held 5♠ goes down first, the 4♠ on it
    ("5♠", "A♠", "5♠", "5♠"),  # the twin: one 5♠ on each foundation
    ("5♠", "K♠", "5♠", "5♠"),
])
def test_1892_the_next_card_decides(profile: str, card: str, dst: str, up: str, down: str) -> None:
    g = game(profile, f"p1:9♦,{card}", held="5♠", **DOUBLE)
    assert verdict(g, f"p1-{dst}") == "ok"
    assert foundations(g) == f"up:{up},A♥,A♦,A♣ down:{down},K♥,K♦,K♣"
    assert "held:" not in str(g.position)
    assert g.position.card_count() == 104


@pytest.mark.parametrize("profile", HOLDERS)
@pytest.mark.parametrize(("card", "action", "reason"), [
    ("6♠", "p1-K♠", "out-of-sequence"),
    ("4♠", "p1-A♠", "out-of-sequence"),
    ("5♠", "p1-hold", "not-double-fit"),  # one card of a suit at a time
])
def test_1892_while_a_card_is_held(profile: str, card: str, action: str, reason: str) -> None:
    g = game(profile, f"p1:9♦,{card}", held="5♠", **DOUBLE)
    assert verdict(g, action) == reason


def test_a_held_card_cannot_be_moved_by_hand() -> None:
    with pytest.raises(NotationError, match="hold-A♠"):
        Action.from_text("hold-A♠")


@pytest.mark.parametrize("profile", HOLDERS)
@pytest.mark.parametrize(("piles", "action"), [("p1:9♦,3♠", "A♠-p1"), ("p1:9♦,7♠", "K♠-p1"),
                                               ("p1:9♦", "A♠-K♠"), ("p1:9♦", "K♠-A♠")])
def test_1892_no_card_leaves_the_foundations_of_a_held_card(profile: str, piles: str, action: str) -> None:
    g = game(profile, piles, held="5♠", **DOUBLE)
    assert verdict(g, action) == "foundation-final"
    assert str(g.position).endswith("held:5♠")
