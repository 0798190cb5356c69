"""The verdict (playing, waiting, lost, won), game over, autoplay, closed deals, reason precedence."""

from __future__ import annotations

import pytest
from engine_helpers import PROFILES, expect, foundations, game, pile, table, verdict

from crescent_ref import Action, Game, Position, deal_position
from crescent_ref.rules import faults
from crescent_ref.spec_files import load_yaml
from crescent_ref.transitions import autoplay_step

ORDER = [r["code"] for r in load_yaml("reasons.yaml")["reasons"]]
WON = "up:K♠,K♥,K♦,K♣ down:A♠,A♥,A♦,A♣"
CODES = ["CR1-N-AAAAAAB", "CR1-N-HELLOAB", "CR1-N-ZZZZZZZ", "CR1-N-CRESCNT"]
MET = {"up": "5♠,A♥,A♦,A♣", "down": "6♠,K♥,K♦,K♣"}
NO_SPADE_ON_TOP = (  # spade foundations meet; no pile can move, and no spade tops a pile
    "up:5♠,A♥,A♦,A♣ down:6♠,K♥,K♦,K♣ piles:9♠,4♣,7♥/5♣,2♦,4♠,5♠,9♦,9♥/J♣,10♣,3♥,7♦,3♣,6♣/6♦,8♠,J♣,7♠,5♣,7♥/"
    "9♣,7♣,10♥,3♦,Q♥,7♦/10♦,10♥,J♦,4♥,6♠,8♣/2♠,Q♣,2♥,Q♥,10♦,5♥/K♠,2♣,4♦,A♥,8♦,A♣/8♥,3♥,3♣,7♣,5♦/"
    "10♠,Q♦,6♥,2♦,K♥/J♠,J♥,10♣,4♥,6♣/4♦,K♣,A♦,4♣,9♦/Q♠,8♥,J♥,9♥,K♦/3♠,Q♣,6♥,6♦,5♥/2♥,A♠,J♦,2♣,8♣/"
    "8♦,9♣,Q♦,3♦,5♦ reshuffles:0 moves:70")
AUTO = [p for p in PROFILES if expect(p).autoplay]
MANUAL = [p for p in PROFILES if not expect(p).autoplay]


# -- status -----------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("reshuffles", "status"), [(1, "waiting"), (0, "lost")])
def test_stuck_games_wait_for_a_reshuffle_or_are_lost(profile: str, reshuffles: int, status: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,7♠", reshuffles=reshuffles)
    assert g.legal_moves() == []
    assert g.status() == status


@pytest.mark.parametrize("profile", PROFILES)
def test_a_card_to_a_foundation_keeps_the_game_going(profile: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,2♠", reshuffles=0)
    assert g.status() == "playing"
    g.play("p2-A♠")
    assert g.status() == "lost"


@pytest.mark.parametrize("profile", PROFILES)
def test_met_foundations_keep_any_card_of_their_suit_in_play(profile: str) -> None:
    g = game(profile, "p1:9♦,9♠", reshuffles=0, **MET)
    assert g.status() == ("playing" if expect(profile).between else "lost")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_slide_alone_keeps_only_the_apps_game_going(profile: str) -> None:
    g = Game(profile, Position.from_text(NO_SPADE_ON_TOP))
    slides = expect(profile).between and profile.startswith("app")
    assert g.status() == ("playing" if slides else "lost")
    assert [str(m) for m in g.legal_moves()] == (["A♠-K♠", "K♠-A♠"] if slides else [])


@pytest.mark.parametrize("profile", [p for p in PROFILES if expect(p).give_backs])
def test_a_give_back_alone_keeps_only_the_apps_game_going(profile: str) -> None:
    g = game(profile, "p1:9♦,4♠", reshuffles=0, up="5♠,A♥,A♦,A♣")
    assert g.status() == ("playing" if profile.startswith("app") else "lost")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_game_with_all_cards_on_the_foundations_is_won(profile: str) -> None:
    g = Game(profile, table("", up="K♠,K♥,K♦,K♣", down="A♠,A♥,A♦,A♣"))
    assert foundations(g) == WON
    assert g.status() == "won"
    assert g.legal_moves() == []


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("action", ["p1-p2", "reshuffle", "tap p1", "drop p1", "p1-hold", "A♠-K♠", "tap A♥"])
def test_once_lost_only_undo_is_possible(profile: str, action: str) -> None:
    g = game(profile, "p1:9♦,5♠ p2:9♣,6♠", reshuffles=0)
    g.play("p1-p2")
    assert g.status() == "lost"
    assert verdict(g, action) == "game-over"
    assert verdict(g, "undo") == ("ok" if expect(profile).undo else "undo-unavailable")
    assert g.status() == ("playing" if expect(profile).undo else "lost")


@pytest.mark.parametrize("profile", PROFILES)
def test_once_won_nothing_is_possible(profile: str) -> None:
    g = Game(profile, table("", up="K♠,K♥,K♦,K♣", down="A♠,A♥,A♦,A♣"))
    assert verdict(g, "reshuffle") == "game-over"
    assert verdict(g, "undo") == ("nothing-to-undo" if expect(profile).undo else "undo-unavailable")


@pytest.mark.parametrize("profile", PROFILES)
def test_the_last_card_wins(profile: str) -> None:
    g = Game(profile, table("p1:K♠,Q♠", up="J♠,K♥,K♦,K♣", down="A♠,A♥,A♦,A♣"))
    g.play("p1-A♠")
    if expect(profile).autoplay:  # the K♠ follows by itself
        assert g.status() == "won"
        return
    assert g.status() == "playing"
    g.play("p1-A♠")
    assert g.status() == "won"
    assert g.position.card_count() == 104


# -- autoplay ---------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_autoplay_after_a_move_only_in_open(profile: str) -> None:
    g = game(profile, "p1:9♦,3♠,2♠ p2:7♥ p3:9♣,8♥")
    outcome = g.play("p2-p3")
    made = [str(m) for m in outcome.moves]
    if expect(profile).autoplay:
        assert made == ["p2-p3", "p1-A♠", "p1-A♠"]
        assert (pile(g, 1), foundations(g)[:6]) == ("9♦", "up:3♠,")
    else:
        assert made == ["p2-p3"]
        assert pile(g, 1) == "9♦,3♠,2♠"
    assert g.position.moves == 1


@pytest.mark.parametrize("profile", AUTO)
@pytest.mark.parametrize("piles", [
    "p1:9♦,2♠ p4:9♥,3♠",  # 2♠ fits the pile 4
    "p1:9♦,5♠",  # 5♠ fits both spade foundations: the player picks
])
def test_autoplay_leaves_cards_with_a_choice(profile: str, piles: str) -> None:
    g = game(profile, piles + " p2:7♥ p3:9♣,8♥", up="4♠,A♥,A♦,A♣" if "5♠" in piles else "A♠,A♥,A♦,A♣",
             down="6♠,K♥,K♦,K♣" if "5♠" in piles else "K♠,K♥,K♦,K♣")
    before = pile(g, 1)
    assert [str(m) for m in g.play("p2-p3").moves] == ["p2-p3"]
    assert pile(g, 1) == before


@pytest.mark.parametrize("profile", AUTO)
def test_autoplay_after_a_reshuffle(profile: str) -> None:
    g = game(profile, "p1:2♠,9♦")
    outcome = g.play("reshuffle")
    assert Action.from_text("p1-A♠") in outcome.moves
    assert pile(g, 1) == "9♦"


@pytest.mark.parametrize("profile", PROFILES)
def test_a_loaded_position_is_taken_as_it_is(profile: str) -> None:
    g = game(profile, "p1:9♦,2♠")
    assert autoplay_step(g.profile, g.position) == (0, 16)
    assert pile(g, 1) == "9♦,2♠"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("code", CODES)
def test_autoplay_after_the_deal(profile: str, code: str) -> None:
    dealt = deal_position(code, closed=expect(profile).closed, reshuffles=expect(profile).reshuffles)
    g = Game.deal(profile, code)
    assert g.position.moves == 0
    if expect(profile).autoplay:
        assert autoplay_step(g.profile, g.position) is None
    else:
        assert g.position == dealt


def test_some_deal_autoplays() -> None:
    assert any(Game.deal("open", code).position != deal_position(code) for code in CODES)


# -- closed deals -----------------------------------------------------------------------------

@pytest.mark.parametrize("profile", PROFILES)
def test_closed_deals_show_only_top_cards(profile: str) -> None:
    g = Game.deal(profile, "CR1-N-HELLOAB")
    shown = [len(p) - h for p, h in zip(g.position.piles, g.position.hidden, strict=True) if p]
    assert shown == ([1] * 16 if expect(profile).closed else [len(p) for p in g.position.piles])


@pytest.mark.parametrize("profile", [p for p in PROFILES if expect(p).closed])
def test_a_move_turns_up_the_card_it_uncovers(profile: str) -> None:
    g = game(profile, "p1:[3♠,9♦],5♥ p2:9♣,6♥ p3:[J♥],8♣")
    g.play("p1-p2")
    assert pile(g, 1) == "[3♠],9♦"
    assert verdict(g, "p3-p1") == "wrong-suit"
    assert pile(g, 3) == "[J♥],8♣"


# -- reason precedence ------------------------------------------------------------------------

FULL = "2♥,3♥,4♥,5♥,6♥,7♥,8♥,9♥,10♥,J♥,Q♥,2♦,9♠"


@pytest.mark.parametrize(("profile", "piles", "action", "expected"), [
    ("app", f"p1:5♥ p2:{FULL}", "p1-p2", ["pile-full", "wrong-suit", "wrong-rank"]),
    ("open", "p1:9♦", "A♠-p1", ["base-locked", "foundation-final", "wrong-suit", "wrong-rank"]),
    ("open", "p1:9♦", "K♠-hold", ["base-locked", "foundation-final", "hold-unavailable"]),
    ("hoffmann-1892", "p1:9♦", "K♠-hold", ["base-locked", "foundation-final", "not-double-fit"]),
    ("open", "p1:9♦,5♥", "p1-A♠", ["wrong-suit", "out-of-sequence"]),
    ("app", "p1:9♦,5♥", "p1-K♠", ["wrong-suit", "out-of-sequence"]),
    ("app", "p1:-", "p1-p1", ["empty-source"]),
    ("app", "p1:9♦", "p1-p1", ["same-place"]),
    ("morehead-1949", "p1:9♦ p2:-", "p1-p2", ["empty-pile"]),
])
def test_every_fault_is_listed_and_the_first_is_given(profile: str, piles: str, action: str,
                                                      expected: list[str]) -> None:
    g = game(profile, piles)
    act = Action.from_text(action)
    assert list(faults(g.profile, g.position, act.src, act.dst)) == expected
    assert expected == sorted(expected, key=ORDER.index)
    assert verdict(g, action) == expected[0]


def test_game_over_comes_first() -> None:
    g = game("open", f"p1:9♦,5♠ p2:9♣,6♠ p3:{FULL}", reshuffles=0)
    g.play("p1-p2")
    assert verdict(g, "p3-A♠") == "game-over"
    assert ORDER[0] == "game-over"
