"""The corpus kills every mutant, and a scenario of the broken rule is among its killers.

A mutant is killed by a scenario-profile the reference passes and the mutant does not. The
scenarios that name the mutant's rule (its area, an interpretation it breaks, or a step expecting a
reason it breaks) are run first; the rest of the corpus only to say, when none of those kills it,
whether anything does.
"""

from __future__ import annotations

import pytest
from harness import Pair, key, passing_pairs, run_pairs
from mutants import BY_NAME, MUTANTS, Mutant, MutantAdapter

from conformance.judging.runner import Result
from crescent_ref.spec_files import load_yaml

# Mutants the corpus cannot catch yet, for want of a scenario (listed in the report to the corpus helpers).
CORPUS_GAPS: dict[str, str] = {}


def names_rule(mutant: Mutant, pair: Pair) -> bool:
    """The scenario is about the mutant's rule: its area, a cited interpretation, or an expected reason."""
    sc, profile = pair
    reasons = {step.expected(profile).reason for step in sc.steps}
    return (
        sc.area in mutant.areas
        or bool(set(sc.interpretations) & set(mutant.interpretations))
        or bool(reasons & set(mutant.reasons))
    )


def first_kill(mutant: Mutant, chosen: list[Pair]) -> Result | None:
    """The first pair (of ``chosen``) the mutant does not pass, or None."""
    adapter = MutantAdapter(mutant)
    for pair in chosen:
        result = run_pairs(adapter, [pair])[key(pair)]
        if result.verdict != "passed":
            return result
    return None


def param(mutant: Mutant) -> object:
    gap = CORPUS_GAPS.get(mutant.name)
    marks = [pytest.mark.xfail(strict=True, reason=f"corpus gap: {gap}")] if gap else []
    return pytest.param(mutant, id=mutant.name, marks=marks)


def test_there_are_enough_mutants() -> None:
    assert len(MUTANTS) >= 20
    assert len(BY_NAME) == len(MUTANTS)


def test_mutants_declare_known_rules() -> None:
    from conformance.corpus.vocabulary import interpretation_ids
    from crescent_ref.messages import reason_codes

    areas = set(load_yaml("vocabulary.yaml")["areas"])
    for m in MUTANTS:
        assert set(m.areas) <= areas, m.name
        assert set(m.interpretations) <= interpretation_ids(), m.name
        assert set(m.reasons) <= set(reason_codes()), m.name


@pytest.mark.parametrize("mutant", [param(m) for m in MUTANTS])
def test_the_corpus_kills_the_mutant_by_its_rule(mutant: Mutant) -> None:
    passing = passing_pairs()
    on_rule = [p for p in passing if names_rule(mutant, p)]
    killer = first_kill(mutant, on_rule)
    if killer is None:
        elsewhere = first_kill(mutant, [p for p in passing if not names_rule(mutant, p)])
        where = f"only by {elsewhere.key} (area {elsewhere.scenario.area})" if elsewhere else "by no scenario"
        pytest.fail(
            f"mutant {mutant.name} ({mutant.how}) survives the {len(on_rule)} scenarios of its rule; killed {where}"
        )
    assert killer.verdict in ("failed", "errored")


def test_the_mutant_adapter_undoes_its_patches() -> None:
    """Between requests the engine is the reference again: a reference run still passes."""
    first = passing_pairs()[:3]
    run_pairs(MutantAdapter(BY_NAME["no_pile_wrap"]), first)
    from conformance.adapters.reference import ReferenceAdapter

    assert {r.verdict for r in run_pairs(ReferenceAdapter(), first).values()} == {"passed"}
