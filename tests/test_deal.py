"""The deal: the engine against spec/deal.md and the golden deals of spec/deals/golden.yaml."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crescent_ref import Game, GameCode, NotationError, deal_position
from crescent_ref.cards import ACE, CARD_TEXT, KING
from crescent_ref.deal import MAX_SEED, below, parse_code, pile_deck, shuffled, splitmix64
from crescent_ref.spec_files import load_yaml, spec_dir

GOLDEN: list[dict[str, Any]] = load_yaml("deals/golden.yaml")["deals"]
DEAL_MD = (spec_dir() / "deal.md").read_text(encoding="utf-8")


def golden_id(deal: dict[str, Any]) -> str:
    return str(deal["code"])


def test_golden_file_covers_the_required_codes() -> None:
    codes = {d["code"] for d in GOLDEN}
    assert len(codes) == len(GOLDEN) >= 6
    assert {"CR1-N-AAAAAAA", "CR1-N-AAAAAAB", "CR1-N-ZZZZZZZ"} <= codes


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_code_reads_to_the_golden_seed_and_back(deal: dict[str, Any]) -> None:
    code = parse_code(deal["code"])
    assert code.seed == deal["seed"]
    assert str(GameCode(deal["seed"])) == deal["code"]


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_splitmix64_gives_the_golden_outputs(deal: dict[str, Any]) -> None:
    outputs = list(islice(splitmix64(deal["seed"]), 5))
    assert outputs == [int(h, 16) for h in deal["splitmix64"]]


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_first_swaps_are_the_golden_ones(deal: dict[str, Any]) -> None:
    stream = splitmix64(deal["seed"])
    assert [below(stream, n) for n in (96, 95, 94, 93, 92)] == deal["swaps"]


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_engine_deals_the_golden_position(deal: dict[str, Any]) -> None:
    assert deal_position(deal["code"]).to_text() == deal["position"]


@pytest.mark.parametrize("deal", [d for d in GOLDEN if "closed" in d], ids=golden_id)
def test_closed_deal_is_the_same_cards_face_down(deal: dict[str, Any]) -> None:
    assert deal_position(deal["code"], closed=True).to_text() == deal["closed"]
    assert Game.deal("morehead-1949", deal["code"]).position.to_text() == deal["closed"]


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_profiles_without_autoplay_start_from_the_dealt_position(deal: dict[str, Any]) -> None:
    for profile in ("app", "hoffmann-1892"):
        assert Game.deal(profile, deal["code"]).position.to_text() == deal["position"]


def test_open_profile_autoplays_after_the_deal() -> None:
    dealt = deal_position("CR1-N-AAAAAAB")
    game = Game.deal("open", "CR1-N-AAAAAAB")
    assert game.position.moves == 0
    assert game.position.foundation_count() >= dealt.foundation_count()
    assert game.position.card_count() == 104


@pytest.mark.parametrize("deal", GOLDEN, ids=golden_id)
def test_deal_holds_six_cards_a_pile_and_every_card_twice(deal: dict[str, Any]) -> None:
    position = deal_position(deal["code"])
    assert [len(p) for p in position.piles] == [6] * 16
    assert position.card_count() == 104


def test_deck_before_shuffling_is_first_deck_less_aces_and_kings_then_second_deck() -> None:
    first = [s * 13 + r - 1 for s in range(4) for r in range(ACE + 1, KING)]
    second = [s * 13 + r - 1 for s in range(4) for r in range(ACE, KING + 1)]
    assert pile_deck() == first + second


def test_shuffle_is_a_permutation_of_the_deck() -> None:
    assert sorted(shuffled(MAX_SEED)) == sorted(pile_deck())


def test_pile_p_holds_every_sixteenth_card_of_the_shuffled_deck() -> None:
    deck, position = shuffled(1), deal_position("CR1-N-AAAAAAB")
    for p in range(1, 17):
        assert position.piles[p - 1] == tuple(deck[p - 1 + 16 * c] for c in range(6))


def fake_stream(values: list[int]) -> Iterator[int]:
    yield from values


def test_below_rejects_outputs_past_the_largest_multiple() -> None:
    assert below(fake_stream([(1 << 64) - 1, 5]), 3) == 2
    assert below(fake_stream([(1 << 64) - 2]), 3) == ((1 << 64) - 2) % 3


def test_below_accepts_every_output_for_a_power_of_two() -> None:
    assert below(fake_stream([(1 << 64) - 1]), 64) == 63


def test_splitmix64_matches_the_commonly_published_check_values() -> None:
    expected = [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert list(islice(splitmix64(1234567), 3)) == expected


def test_deal_md_test_vector_is_what_the_engine_computes() -> None:
    rows = re.findall(r"^\| (\d) \| `(0x[0-9A-F]{16})` \| (\d+) \|$", DEAL_MD, re.MULTILINE)
    assert [int(n) for n, _, _ in rows] == [1, 2, 3, 4, 5]
    outputs = list(islice(splitmix64(1), 5))
    assert [int(h, 16) for _, h, _ in rows] == outputs
    assert [int(d) for _, _, d in rows] == outputs


def test_deal_md_code_table_is_what_the_engine_reads() -> None:
    rows = re.findall(r"^\| `(CR1-N-[A-Z]{7})` \| ([\d ]+?)(?: \(.*\))? \|$", DEAL_MD, re.MULTILINE)
    assert len(rows) >= 4
    for code, seed in rows:
        assert parse_code(code).seed == int(seed.replace(" ", ""))


def test_deal_md_seed_one_example_is_what_the_engine_deals() -> None:
    swaps = re.search(r"first five values of `j` are ([\d, ]+)\.", DEAL_MD)
    tops = re.search(r"top\s+cards of piles 1 to 16 are ([^.]+)\.", DEAL_MD)
    assert swaps and tops
    stream = splitmix64(1)
    assert [below(stream, n) for n in (96, 95, 94, 93, 92)] == [int(j) for j in swaps[1].split(",")]
    position = deal_position("CR1-N-AAAAAAB")
    assert tops[1].split() == [CARD_TEXT[p[-1]] for p in position.piles]


def deal_md_refusals() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| `([^`]+)` \| (?:the )?(.+?) \|$", DEAL_MD, re.MULTILINE)
    return [(code, why) for code, why in rows if not re.fullmatch(r"CR1-N-[A-Z]{7}", code)]


@pytest.mark.parametrize(("text", "why"), deal_md_refusals())
def test_every_code_deal_md_refuses_is_refused_naming_the_part(text: str, why: str) -> None:
    part = next(p for p in ("seed", "format", "family", "three parts") if p in why)
    with pytest.raises(NotationError) as caught:
        parse_code(text)
    assert part in caught.value.why


def test_deal_md_lists_refusals() -> None:
    assert len(deal_md_refusals()) >= 7


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("CR2-N-AAAAAAA", "format"),
        ("cr1-N-AAAAAAA", "format"),
        ("CR-N-AAAAAAA", "format"),
        ("CR1-X-AAAAAAA", "family"),
        ("CR1-n-AAAAAAA", "family"),
        ("CR1-N-AAAAAA", "seed"),
        ("CR1-N-AAAAAAAA", "seed"),
        ("CR1-N-AAAAAA1", "seed"),
        ("CR1-N-1234567", "seed"),
        ("CR1-N-aaaaaab", "seed"),
        ("cr1-n-aaaaaab", "format"),
        ("CR1-AAAAAAA", "three parts"),
        ("CR1-N-AAAA-AAA", "three parts"),
        ("", "three parts"),
    ],
)
def test_malformed_code_error_names_the_part_and_quotes_the_text(text: str, part: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_code(text)
    assert part in caught.value.why
    assert repr(text) in str(caught.value)


def test_surrounding_white_space_is_ignored() -> None:
    assert parse_code("  CR1-N-AAAAAAB\n").seed == 1


def test_game_code_out_of_range_is_refused() -> None:
    with pytest.raises(NotationError):
        GameCode(MAX_SEED + 1)
    with pytest.raises(NotationError):
        GameCode(-1)


@given(st.integers(min_value=0, max_value=MAX_SEED))
def test_code_text_round_trips(seed: int) -> None:
    text = str(GameCode(seed))
    assert re.fullmatch(r"CR1-N-[A-Z]{7}", text)
    assert parse_code(text).seed == seed
