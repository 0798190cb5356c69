"""perft: the reference engine reproduces spec/perft/, through its API and through an adapter."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from conformance.adapters.reference import ReferenceAdapter
from conformance.explore.perft import PerftCase, adapter_divide, adapter_perft, cases
from crescent_ref.game import Game
from crescent_ref.perft import divide, perft
from crescent_ref.spec_files import spec_dir

CASES = cases()


def test_the_file_matches_its_schema() -> None:
    schema = json.loads((spec_dir() / "schema" / "perft.schema.json").read_text(encoding="utf-8"))
    data = yaml.safe_load((spec_dir() / "perft" / "positions.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_there_are_cases_for_every_base_profile() -> None:
    assert {c.profile.split("+")[0] for c in CASES} == {"app", "open", "hoffmann-1892", "morehead-1949"}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.name}[{c.profile}]" for c in CASES])
def test_engine_counts(case: PerftCase) -> None:
    game = Game.from_text(case.profile, case.position)
    assert {d: perft(game, d) for d in case.counts} == case.counts
    assert game.position.to_text() == case.position  # perft leaves the game as it was


@pytest.mark.parametrize("case", CASES[:6], ids=[f"{c.name}[{c.profile}]" for c in CASES[:6]])
def test_adapter_counts_agree_with_the_engine(case: PerftCase) -> None:
    assert adapter_perft(ReferenceAdapter(), case.profile, case.position, 2) == case.counts[2]


def test_divide_splits_the_count() -> None:
    case = CASES[0]
    game = Game.from_text(case.profile, case.position)
    split = divide(game, 3)
    assert sum(split.values()) == case.counts[3] and "reshuffle" in split
    assert adapter_divide(ReferenceAdapter(), case.profile, case.position, 2) == divide(game, 2)


def test_depth_zero_is_one_and_divide_needs_depth() -> None:
    game = Game.from_text(CASES[0].profile, CASES[0].position)
    assert perft(game, 0) == 1
    with pytest.raises(ValueError, match="depth of 1"):
        divide(game, 0)
