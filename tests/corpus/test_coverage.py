"""The corpus pins every rule parameter of every profile and variant, and expects every reason code
in every base profile where it can occur (conformance.coverage)."""

from __future__ import annotations

import functools

import pytest

from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.coverage import base_probes, dependents, inert, reason_coverage, variant_probes
from crescent_ref import NotationError
from crescent_ref.profiles import base_names, get_profile, variant_names


@functools.cache
def corpus() -> list[Scenario]:
    return load_corpus()


@pytest.mark.parametrize("base", base_names())
def test_every_parameter_of_a_base_profile_is_pinned_unless_it_cannot_matter(base: str) -> None:
    probes = base_probes(base, corpus(), limit=1)
    unpinned = [p.parameter for p in probes if not p.scenarios and not inert(get_profile(base), p.parameter)]
    assert unpinned == []
    pinned_yet_inert = [p.parameter for p in probes if p.scenarios and inert(get_profile(base), p.parameter)]
    assert pinned_yet_inert == []


@pytest.mark.parametrize("variant", variant_names())
def test_every_parameter_a_variant_sets_is_pinned(variant: str) -> None:
    assert [p.parameter for p in variant_probes(variant, corpus(), limit=1) if not p.scenarios] == []


def test_the_stuck_rule_is_pinned_by_slides_between_foundations_from_two_positions() -> None:
    assert dependents("app", "stuck_when", "no-pile-move", corpus()) == ["end-of-game-008[app]", "end-of-game-013[app]"]
    assert dependents("morehead-1949", "stuck_when", "no-move", corpus()) == [
        "end-of-game-008[morehead-1949]", "end-of-game-013[morehead-1949]"]


def test_an_unchanged_parameter_changes_nothing() -> None:
    assert dependents("open", "pile_limit", None, corpus()) == []


def test_a_bad_parameter_is_refused() -> None:
    with pytest.raises(NotationError, match="pile_limt"):
        dependents("app", "pile_limt", 3, corpus())


def test_every_reason_is_expected_in_every_base_profile_where_it_can_occur() -> None:
    found = reason_coverage(corpus())
    assert [pair for pair, ids in found.items() if not ids] == []
    assert ("pile-full", "open") not in found
    assert ("must-hold", "hoffmann-1892") in found
