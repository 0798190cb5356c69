"""Every example of spec/notation.md reads as the file says, and canonical texts round-trip."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crescent_ref import Action, Card, Game, GameCode, NotationError, Position, deal_position, parse_place, place_text
from crescent_ref.actions import MOVES, PLACES, RESHUFFLE, UNDO
from crescent_ref.deal import parse_code
from crescent_ref.spec_files import load_yaml, spec_dir

NOTATION_MD = (spec_dir() / "notation.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\S*)[ \t]*(\S*)\n(.*?)^```", re.MULTILINE | re.DOTALL)

READERS: dict[str, Callable[[str], str]] = {
    "card": lambda text: str(Card.from_text(text)),
    "place": lambda text: place_text(parse_place(text)),
    "action": lambda text: str(Action.from_text(text)),
    "code": lambda text: str(parse_code(text)),
    "position": lambda text: Position.from_text(text).to_text(),
}


def examples(invalid: bool) -> list[tuple[str, str, str]]:
    """(kind, block modifier, line) of every example line in notation.md."""
    found = []
    for kind, modifier, body in BLOCK.findall(NOTATION_MD):
        if kind in READERS and (modifier == "invalid") == invalid:
            found += [(kind, modifier, line) for line in body.splitlines() if line.strip()]
    return found


def example_id(example: tuple[str, str, str]) -> str:
    return f"{example[0]}:{example[2][:40]}"


def test_every_fenced_block_is_an_example_block() -> None:
    kinds = [kind for kind, _, _ in BLOCK.findall(NOTATION_MD)]
    assert kinds and all(kind in READERS for kind in kinds)


@pytest.mark.parametrize("kind", list(READERS))
def test_each_kind_has_accepted_and_refused_examples(kind: str) -> None:
    assert sum(k == kind for k, _, _ in examples(invalid=False)) >= 3
    assert sum(k == kind for k, _, _ in examples(invalid=True)) >= 3


@pytest.mark.parametrize("example", examples(invalid=False), ids=example_id)
def test_accepted_example_reads_to_its_canonical_text(example: tuple[str, str, str]) -> None:
    kind, _, line = example
    text, arrow, canonical = (part.strip() for part in line.partition("→"))
    assert READERS[kind](text) == (canonical if arrow else text)


@pytest.mark.parametrize("example", examples(invalid=True), ids=example_id)
def test_refused_example_is_a_notation_error(example: tuple[str, str, str]) -> None:
    kind, _, line = example
    with pytest.raises(NotationError):
        READERS[kind](line.strip())


@pytest.mark.parametrize("example", [e for e in examples(invalid=False) if e[1]], ids=example_id)
def test_position_example_is_accepted_by_its_profile(example: tuple[str, str, str]) -> None:
    _, profile, line = example
    assert Game(profile, Position.from_text(line)).position.to_text() == line


def position_examples(profile: str) -> list[str]:
    return [line for kind, modifier, line in examples(invalid=False) if kind == "position" and modifier == profile]


def test_the_sixteen_move_example_is_what_those_moves_make() -> None:
    moves = re.search(r"after 16 moves \(`([^`]+)`\)", NOTATION_MD)
    assert moves
    game = Game.deal("app", "CR1-N-AAAAAAB")
    for action in moves[1].split():
        game.play(action)
    assert game.position.to_text() in position_examples("app")
    assert game.position.moves == 16


def test_the_closed_example_is_a_move_and_a_reshuffle_after_the_deal() -> None:
    game = Game.deal("morehead-1949", "CR1-N-AAAAAAB")
    game.play("p8-A♠")
    game.play("reshuffle")
    assert position_examples("morehead-1949") == [game.position.to_text()]


def test_the_dealt_example_is_the_golden_deal() -> None:
    golden = {d["code"]: d["position"] for d in load_yaml("deals/golden.yaml")["deals"]}
    assert golden["CR1-N-AAAAAAB"] in position_examples("app")


@given(st.integers(min_value=0, max_value=51))
def test_every_card_round_trips(index: int) -> None:
    card = Card.from_index(index)
    assert Card.from_text(str(card)) == card


@given(st.integers(min_value=0, max_value=51))
def test_ascii_spelling_reads_as_the_same_card(index: int) -> None:
    card = Card.from_index(index)
    rank = str(card)[:-1].replace("10", "T")
    assert Card.from_text(rank + "SHDC"[card.suit]) == card
    assert Card.from_text((rank + "SHDC"[card.suit]).lower()) == card


@pytest.mark.parametrize("place", range(PLACES))
def test_every_place_round_trips(place: int) -> None:
    assert parse_place(place_text(place)) == place


def test_every_action_round_trips() -> None:
    actions = [m for row in MOVES for m in row if m.src != 24] + [RESHUFFLE, UNDO]
    actions += [Action.from_text(f"tap {place_text(p)}") for p in range(PLACES)]
    actions += [Action.from_text(f"drop p{n}") for n in range(1, 17)]
    for action in actions:
        assert Action.from_text(str(action)) == action


@given(st.integers(min_value=0, max_value=26**7 - 1), st.booleans())
def test_dealt_positions_round_trip(seed: int, closed: bool) -> None:
    position = deal_position(GameCode(seed), closed=closed)
    assert Position.from_text(position.to_text()) == position


def test_fields_may_come_in_any_order_and_empty_piles_as_nothing() -> None:
    text = next(t for t in position_examples("app") if "/-/" in t)
    fields = text.split(" ")
    shuffled = " ".join(reversed(fields))
    assert Position.from_text(shuffled).to_text() == text
    assert Position.from_text(text.replace("/-/", "//")).to_text() == text
