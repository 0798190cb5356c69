"""Observation capabilities: a game that only says yes or no passes, and is still caught on its rules."""

from __future__ import annotations

import pytest
from harness import key, pairs, passing_pairs, run_pairs
from mutants import BY_NAME, MutantAdapter
from test_mutants import names_rule
from verdict_only import VerdictOnly

from conformance.adapter import OBSERVATIONS
from conformance.adapters.reference import ReferenceAdapter
from conformance.judging.report import report_header, result_record


def test_a_verdict_only_reference_passes_everything_with_the_checks_not_made_recorded() -> None:
    results = run_pairs(VerdictOnly(ReferenceAdapter()), pairs())
    assert {k for k, r in results.items() if r.verdict != "passed"} == set()
    unchecked = {c.split(":")[0] for r in results.values() for c in r.unchecked}
    assert {"reasons", "waiting", "undo-count", "effect", "card-moves"} <= unchecked
    rejected = next(r for r in results.values() if any(c.startswith("reasons:") for c in r.unchecked))
    assert "reasons: no capability reasons" in result_record(rejected)["unchecked"]


def test_the_report_header_says_which_checks_were_not_made_and_why() -> None:
    header = report_header(VerdictOnly(ReferenceAdapter()).info(), ["app"], True)
    assert set(header["unchecked"]) == set(OBSERVATIONS)
    assert "only accepted/refused is compared" in header["unchecked"]["reasons"]
    assert report_header(ReferenceAdapter().info(), ["app"], True)["unchecked"] == {}


@pytest.mark.parametrize(
    "name", ["no_pile_wrap", "empty_piles_refillable", "waiting_reported_as_lost", "endless_reshuffles"]
)
def test_a_verdict_only_mutant_is_still_caught_on_its_rule(name: str) -> None:
    mutant = BY_NAME[name]
    on_rule = [p for p in passing_pairs() if names_rule(mutant, p)]
    results = run_pairs(VerdictOnly(MutantAdapter(mutant)), on_rule)
    assert any(r.verdict == "failed" for r in results.values()), f"{name} survives verdict-only"


def test_a_wrong_reason_alone_is_not_a_failure_without_the_reasons_capability() -> None:
    mutant = BY_NAME["full_pile_says_wrong_suit"]
    on_rule = [p for p in passing_pairs() if names_rule(mutant, p)]
    with_reasons = run_pairs(MutantAdapter(mutant), on_rule)
    assert any(r.verdict == "failed" for r in with_reasons.values())
    without = run_pairs(VerdictOnly(MutantAdapter(mutant)), on_rule)
    assert all(r.verdict == "passed" for r in without.values()), [k for k, r in without.items() if r.failure]
    assert key(on_rule[0]) in without
