"""The position's text form, its validation errors, and game codes."""

from __future__ import annotations

import pytest
from engine_helpers import table

from crescent_ref import GameCode, NotationError, Position, deal_position
from crescent_ref.errors import quoted

DEALT = deal_position("CR1-N-AAAAAAB")
TEXT = DEALT.to_text()


def with_piles(piles: str) -> str:
    """The dealt position's text with another ``piles:`` field."""
    head, _, rest = TEXT.partition("piles:")
    return f"{head}piles:{piles} {rest.split(' ', 1)[1]}"


def test_the_dealt_position_reads_back() -> None:
    assert Position.from_text(TEXT) == DEALT
    assert DEALT.card_count() == 104
    assert [len(p) for p in DEALT.piles] == [6] * 16


def test_face_down_and_held_cards_read_back() -> None:
    pos = table("p1:[3♠,9♦],5♥ p2:[7♣],8♦", up="4♠,A♥,A♦,A♣", down="6♠,K♥,K♦,K♣", held="5♠")
    assert pos.hidden[:2] == (2, 1)
    assert pos.held == (5, 0, 0, 0)
    assert Position.from_text(pos.to_text()) == pos
    assert pos.to_text().endswith(" held:5♠")


@pytest.mark.parametrize(("text", "quoted"), [
    (TEXT.replace("Q♦", "1X♦", 1), "'1X♦'"),  # a bad card
    (TEXT.replace("A♠,A♥", "2♥,A♥", 1), "2♥ cannot top the up foundation of ♠"),
    (TEXT.replace("down:K♠", "down:Q♥", 1), "Q♥ cannot top the down foundation of ♠"),
])
def test_errors_quote_the_offending_card(text: str, quoted: str) -> None:
    with pytest.raises(NotationError, match=quoted):
        Position.from_text(text)


def test_fifteen_piles_are_refused() -> None:
    piles = TEXT.split("piles:")[1].split()[0]
    fifteen = piles.rsplit("/", 1)[0]
    with pytest.raises(NotationError, match=r"expected 16 piles.*got 15") as err:
        Position.from_text(with_piles(fifteen))
    assert err.value.text == f"piles:{fifteen}"
    assert quoted(f"piles:{fifteen}") in str(err.value)  # cut to a readable length


def test_a_card_three_times_is_refused() -> None:
    piles = TEXT.split("piles:")[1].split()[0]
    with pytest.raises(NotationError, match=r"exactly twice") as err:
        Position.from_text(with_piles(piles.replace("8♦,5♠", "Q♦,5♠", 1)))
    assert "Q♦×3" in str(err.value) and "8♦×1" in str(err.value)


def test_a_held_card_must_fit_both_foundations() -> None:
    text = table("p1:5♠", up="4♠,A♥,A♦,A♣", down="7♠,K♥,K♦,K♣").to_text()
    with pytest.raises(NotationError, match="held:5♠"):
        Position.from_text(text.replace("piles:5♠/", "piles:-/") + " held:5♠")


@pytest.mark.parametrize("text", ["CR1-N-AAAAAAB", "CR1-N-ZZZZZZZ", "CR1-N-HELLOAB"])
def test_game_codes_read_back_and_deal_the_same(text: str) -> None:
    code = GameCode.from_text(text)
    assert str(code) == text
    assert deal_position(code) == deal_position(text)
    assert deal_position(text).card_count() == 104


@pytest.mark.parametrize("text", ["CR1-N-AAAAAA", "CR2-N-AAAAAAB", "CR1-X-AAAAAAB", "cr1-n-aaaaaab"])
def test_bad_game_codes_are_quoted(text: str) -> None:
    with pytest.raises(NotationError, match=text):
        GameCode.from_text(text)
