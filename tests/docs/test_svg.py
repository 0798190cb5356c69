"""The table drawn as SVG: where each pile sits, its label, its top card, face-down backs, the hold."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from conformance.docs.svg import CARD_H, CARD_W, changed_places, foundation_slot, pile_slot, table_svg
from crescent_ref import Game
from crescent_ref.cards import CARD_TEXT
from crescent_ref.position import Position

SVG = "{http://www.w3.org/2000/svg}"
CODE = "CR1-N-AAAAAAB"


def drawn(position: Position, **kwargs: object) -> ET.Element:
    """The parsed drawing (well-formed XML, or this raises)."""
    return ET.fromstring(table_svg(position, **kwargs))  # type: ignore[arg-type]


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The ``<g>`` elements whose class list holds ``cls``."""
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def corner(group: ET.Element) -> tuple[float, float]:
    """Top-left corner of the card (or empty slot) a group draws on top."""
    rects = [r for r in group.iter(f"{SVG}rect") if r.get("class") in ("face", "slot", "back")]
    return float(rects[-1].get("x", "nan")), float(rects[-1].get("y", "nan"))


def texts(group: ET.Element, cls: str) -> list[str]:
    """The text of ``<text>`` elements with class ``cls``."""
    return [t.text or "" for t in group.iter(f"{SVG}text") if cls in t.get("class", "").split()]


@pytest.fixture(scope="module")
def dealt() -> Position:
    """A freshly dealt open game."""
    return Game.deal("app", CODE).position


@pytest.fixture(scope="module")
def closed() -> Position:
    """The same deal, closed (five face-down cards a pile)."""
    return Game.deal("morehead-1949", CODE).position


def test_piles_form_a_horseshoe_numbered_clockwise() -> None:
    left = [pile_slot(i) for i in range(4)]
    top = [pile_slot(i) for i in range(4, 12)]
    right = [pile_slot(i) for i in range(12, 16)]
    assert len({x for x, _ in left}) == 1 and len({x for x, _ in right}) == 1 and len({y for _, y in top}) == 1
    assert [y for _, y in left] == sorted((y for _, y in left), reverse=True), "piles 1-4 go up the left"
    assert [x for x, _ in top] == sorted(x for x, _ in top), "piles 5-12 go left to right"
    assert [y for _, y in right] == sorted(y for _, y in right), "piles 13-16 go down the right"
    assert left[0][0] < min(x for x, _ in top) and max(x for x, _ in top) < right[0][0]
    assert top[0][1] < min(y for _, y in left + right), "the top row is above both columns"


def test_aces_row_above_held_row_above_kings_row_all_inside_the_horseshoe() -> None:
    for suit in range(4):
        (ax, ay), (hx, hy), (kx, ky) = (
            foundation_slot(16 + suit),
            foundation_slot(24 + suit),
            foundation_slot(20 + suit),
        )
        assert ax == hx == kx and ay + CARD_H <= hy and hy + CARD_H <= ky
        assert pile_slot(0)[0] + CARD_W < ax and ax + CARD_W < pile_slot(12)[0]
        assert pile_slot(4)[1] + CARD_H < ay


def test_each_pile_is_drawn_at_its_slot_with_its_top_card_number_and_count(dealt: Position) -> None:
    root = drawn(dealt)
    piles = {int(g.get("data-pile", "0")): g for g in groups(root, "pile")}
    assert sorted(piles) == list(range(1, 17))
    for number, group in piles.items():
        pile = dealt.piles[number - 1]
        assert corner(group) == pile_slot(number - 1)
        assert texts(group, "rank") == [CARD_TEXT[pile[-1]]]
        assert texts(group, "label") == [f"{number} · {len(pile)}"]


def test_foundations_show_top_card_and_card_count() -> None:
    position = Position.from_text_unchecked(
        "up:3♠,A♥,A♦,A♣ down:K♠,Q♥,K♦,K♣ piles:-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- reshuffles:3 moves:0"
    )
    found = {g.get("data-place"): g for g in groups(drawn(position), "foundation")}
    assert len(found) == 8
    assert texts(found["A♠"], "rank") == ["3♠"] and texts(found["A♠"], "label") == ["A♠ · 3"]
    assert texts(found["K♥"], "rank") == ["Q♥"] and texts(found["K♥"], "label") == ["K♥ · 2"]
    assert corner(found["K♣"]) == foundation_slot(23)


def test_an_empty_pile_is_a_dashed_slot_counted_zero(dealt: Position) -> None:
    emptied = dealt._replace(piles=((), *dealt.piles[1:]), hidden=(0, *dealt.hidden[1:]))
    pile1 = next(g for g in groups(drawn(emptied), "pile") if g.get("data-pile") == "1")
    assert "empty" in pile1.get("class", "")
    assert texts(pile1, "label") == ["1 · 0"] and texts(pile1, "rank") == []


def test_open_deals_have_no_backs_closed_deals_one_per_face_down_card(dealt: Position, closed: Position) -> None:
    assert table_svg(dealt).count('class="back"') == 0
    root = drawn(closed)
    assert sum(closed.hidden) == 80
    for group in groups(root, "pile"):
        hidden = closed.hidden[int(group.get("data-pile", "0")) - 1]
        backs = [r for r in group.iter(f"{SVG}rect") if r.get("class") == "back"]
        assert len(backs) == hidden == 5
        assert len(texts(group, "rank")) == 1, "the top card stays face up"


def test_a_held_card_is_drawn_between_the_rows_of_its_suit(dealt: Position) -> None:
    assert groups(drawn(dealt), "held") == []
    [group] = groups(drawn(dealt._replace(held=(6, 0, 0, 0))), "held")
    assert group.get("data-suit") == "♠" and texts(group, "rank") == ["6♠"] and texts(group, "label") == ["held"]
    assert corner(group) == foundation_slot(24)


def test_changed_places_and_their_outline(dealt: Position) -> None:
    after = dealt._replace(piles=(dealt.piles[0][:-1], dealt.piles[1] + dealt.piles[0][-1:], *dealt.piles[2:]))
    assert changed_places(dealt, after) == {0, 1}
    assert changed_places(dealt, dealt._replace(up=(2, 1, 1, 1))) == {16}
    assert changed_places(dealt, dealt._replace(held=(0, 0, 0, 7))) == {24}
    svg = table_svg(after, changed={0, 1}, selected=5)
    assert svg.count('class="changed"') == 2 and svg.count('class="selected"') == 1


def test_the_label_becomes_the_accessible_name_escaped(dealt: Position) -> None:
    svg = table_svg(dealt, label='after step 1 <"x">')
    assert re.search(r'aria-label="after step 1 &lt;&quot;x&quot;&gt;"', svg)
    assert svg.startswith('<svg class="table"')
