"""Reshuffle, undo, tap and drop."""

from __future__ import annotations

import pytest
from engine_helpers import PROFILES, expect, foundations, game, pile, verdict

from crescent_ref import Action

UNDOERS = [p for p in PROFILES if expect(p).undo]
NO_UNDO = [p for p in PROFILES if not expect(p).undo]
CLOSED = [p for p in PROFILES if expect(p).closed]
QUIET = [p for p in PROFILES if not expect(p).autoplay]
DOUBLE = {"up": "4♠,A♥,A♦,A♣", "down": "6♠,K♥,K♦,K♣"}  # a 5♠ fits both spade foundations


# -- reshuffle --------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_reshuffle_puts_each_bottom_card_on_top(profile: str) -> None:
    g = game(profile, "p1:7♠,9♦,5♥ p2:7♣ p3:- p4:9♥,J♦")
    assert verdict(g, "reshuffle") == "ok"
    assert [pile(g, n) for n in (1, 2, 3, 4)] == ["9♦,5♥,7♠", "7♣", "-", "J♦,9♥"]
    assert g.position.reshuffles == 2


@pytest.mark.parametrize("profile", QUIET)
def test_reshuffle_rotates_every_pile_of_two_or_more(profile: str) -> None:
    g = game(profile, "p1:7♠,9♦,5♥ p2:7♣ p3:-")
    before = g.position.piles
    g.play("reshuffle")
    assert g.position.piles == tuple(p[1:] + p[:1] for p in before)


@pytest.mark.parametrize("profile", PROFILES)
def test_reshuffles_run_out(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠", reshuffles=1)
    assert verdict(g, "reshuffle") == "ok"
    assert g.position.reshuffles == 0
    assert verdict(g, "reshuffle") == "no-reshuffles"
    assert g.position.reshuffles == 0


@pytest.mark.parametrize("profile", PROFILES)
def test_reshuffle_is_allowed_while_moves_remain(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠")
    assert g.status() == "playing"
    assert verdict(g, "reshuffle") == "ok"


@pytest.mark.parametrize("profile", CLOSED)
def test_reshuffle_turns_a_face_down_bottom_card_up(profile: str) -> None:
    g = game(profile, "p1:[7♠,9♦],5♥ p2:[7♣],8♦ p3:[10♥,J♥,9♣],8♣")
    g.play("reshuffle")
    assert [pile(g, n) for n in (1, 2, 3)] == ["[9♦],5♥,7♠", "8♦,7♣", "[J♥,9♣],8♣,10♥"]


# -- undo -------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", UNDOERS)
def test_undo_takes_back_one_move_and_the_counter(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠ p3:7♥ p4:9♣,8♥")
    start = g.position
    g.play("p1-p2")
    middle = g.position
    g.play("p3-p4")
    assert g.position.moves == 2
    assert verdict(g, "undo") == "ok"
    assert g.position == middle
    assert g.position.moves == 1
    assert verdict(g, "undo") == "ok"
    assert g.position == start
    assert verdict(g, "undo") == "nothing-to-undo"


@pytest.mark.parametrize("profile", UNDOERS)
def test_undo_reaches_back_one_hundred_moves(profile: str) -> None:
    g = game(profile, "p1:4♠,5♠ p2:9♦,6♠")
    for k in range(101):
        g.play("p1-p2" if k % 2 == 0 else "p2-p1")
    after_first = [pile(g, 1), pile(g, 2)]
    assert after_first == ["4♠", "9♦,6♠,5♠"]
    for _ in range(100):
        assert verdict(g, "undo") == "ok"
    assert [pile(g, 1), pile(g, 2)] == after_first
    assert g.position.moves == 1
    assert verdict(g, "undo") == "nothing-to-undo"


@pytest.mark.parametrize("profile", UNDOERS)
def test_a_reshuffle_empties_the_undo_history(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠")
    g.play("p1-p2")
    g.play("reshuffle")
    assert verdict(g, "undo") == "nothing-to-undo"


@pytest.mark.parametrize("profile", NO_UNDO)
def test_undo_exists_only_in_the_app(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠")
    assert verdict(g, "undo") == "undo-unavailable"
    g.play("p1-p2")
    assert verdict(g, "undo") == "undo-unavailable"
    assert pile(g, 2) == "9♦,6♠,5♠"


@pytest.mark.parametrize("profile", UNDOERS)
def test_undo_clears_the_selection(profile: str) -> None:
    g = game(profile, "p1:5♠ p2:9♦,6♠ p3:9♣,4♠ p4:9♥,6♠")
    g.play("p1-p2")
    g.play("tap p2")
    assert g.selected == 1
    g.play("undo")
    assert g.selected is None


# -- tap --------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_tap_with_one_destination_moves_there(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠")
    outcome = g.apply("tap p1")
    assert (outcome.accepted, outcome.effect, outcome.moves) == (True, "move", (Action.from_text("p1-p2"),))
    assert (pile(g, 1), pile(g, 2), g.selected) == ("9♦", "9♣,6♠,5♠", None)


@pytest.mark.parametrize("profile", PROFILES)
def test_tap_with_several_destinations_selects_then_moves(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠ p3:9♥,4♠")
    assert g.apply("tap p1").effect == "select"
    assert g.selected == 0
    outcome = g.apply("tap p3")
    assert (outcome.effect, outcome.moves) == ("move", (Action.from_text("p1-p3"),))
    assert g.selected is None
    assert pile(g, 3) == "9♥,4♠,5♠"


@pytest.mark.parametrize("profile", PROFILES)
def test_tap_without_destination_selects(profile: str) -> None:
    g = game(profile, "p1:9♦,10♠ p2:9♣,6♠")
    assert g.apply("tap p1").effect == "select"
    assert g.selected == 0


@pytest.mark.parametrize("profile", PROFILES)
def test_second_tap_on_the_same_pile_deselects(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠ p3:9♥,4♠")
    before = g.position
    g.play("tap p1")
    assert g.apply("tap p1").effect == "deselect"
    assert (g.selected, g.position) == (None, before)


@pytest.mark.parametrize("profile", PROFILES)
def test_refused_second_tap_gives_its_reason_and_ends_the_selection(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠ p3:9♥,4♠ p4:9♠,7♥ p5:-")
    g.play("tap p1")
    assert verdict(g, "tap p4") == "wrong-suit"
    assert g.selected is None
    g.play("tap p1")
    assert verdict(g, "tap p5") == "empty-pile"
    assert g.selected is None


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["p2-p1", "reshuffle", "drop p2", "undo", "p3-p2", "drop p4", "p1-hold"])
def test_any_other_action_ends_the_selection_accepted_or_refused(profile: str, action: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠ p3:9♥,4♠ p4:9♠,7♥")
    g.play("tap p1")
    g.apply(action, dry_run=True)
    assert g.selected == 0
    g.apply(action)
    assert g.selected is None


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("tap", "reason"), [("tap p1", "empty-source"), ("tap hold", "empty-source"),
                                             ("tap A♥", "base-locked"), ("tap K♥", "base-locked")])
def test_tap_on_nothing_to_take(profile: str, tap: str, reason: str) -> None:
    g = game(profile, "p1:-", up="5♠,A♥,A♦,A♣")
    assert verdict(g, tap) == reason


@pytest.mark.parametrize("profile", PROFILES)
def test_tap_on_a_foundation(profile: str) -> None:
    g = game(profile, "", up="5♠,A♥,A♦,A♣", down="6♠,K♥,K♦,K♣")
    want = expect(profile)
    outcome = g.apply("tap A♠")
    if want.between:
        assert outcome.moves == (Action.from_text("A♠-K♠"),)
    elif want.give_backs:
        assert (outcome.effect, g.selected) == ("select", 16)
    else:
        assert outcome.reason == "foundation-final"


# -- drop -------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_drop_a_double_fit_card(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠", **DOUBLE)
    outcome = g.apply("drop p1")
    if expect(profile).hold:
        assert outcome.moves == (Action.from_text("p1-hold"),)
        assert str(g.position).endswith("held:5♠")
    else:
        assert outcome.moves == (Action.from_text("p1-A♠"),)
        assert foundations(g) == "up:5♠,A♥,A♦,A♣ down:6♠,K♥,K♦,K♣"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("piles", "result"), [
    ("p1:9♦,2♠ p2:9♣,3♠", "p1-A♠"),  # to the foundation, though a pile takes it too
    ("p1:9♦,Q♠", "p1-K♠"),
    ("p1:9♦,3♠", "no-foundation"),
    ("p1:-", "empty-source"),
])
def test_drop_sends_a_card_to_the_foundation_that_takes_it(profile: str, piles: str, result: str) -> None:
    g = game(profile, piles)
    outcome = g.apply("drop p1")
    assert (str(outcome.moves[0]) if outcome.accepted else outcome.reason) == result


def test_tap_and_drop_name_places() -> None:
    assert Action.from_text("drop p7") == Action("drop", 6)
    assert Action.from_text("tap K♥") == Action("tap", 21)
