"""Every interpretation is classified; the choices are declared as parameters, and the tags that name them
are computed by replay (conformance.corpus.lint.choice_faults, conformance.coverage.choice_probes)."""

from __future__ import annotations

import dataclasses
import functools

from conformance.corpus.lint import choice_faults
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.corpus.vocabulary import choices, interpretation_ids, interpretation_kinds
from conformance.coverage import ChoiceProbe, choice_probes, inert
from crescent_ref.profiles import base_names, get_profile, parameter_names
from crescent_ref.spec_files import load_yaml


@functools.cache
def corpus() -> list[Scenario]:
    return load_corpus()


@functools.cache
def probes() -> tuple[ChoiceProbe, ...]:
    return tuple(choice_probes(corpus()))


def test_every_interpretation_is_classified_forced_or_choice() -> None:
    assert set(interpretation_kinds()) == interpretation_ids()
    assert {"I-AUTOPLAY-ORDER", "I-STUCK", "I-DROP"} <= {c.id for c in choices()}
    assert interpretation_kinds()["I-UNDO-AFTER-RESHUFFLE"] == "forced"


def test_every_declared_parameter_is_a_parameter_of_a_base_profile() -> None:
    declared = [pair for c in choices() for pair in c.declared_as]
    assert declared and all(base in base_names() and param in parameter_names() for base, param in declared)


def test_a_profile_value_resting_on_a_choice_is_that_choices_declared_parameter() -> None:
    declared = {pair for c in choices() for pair in c.declared_as}
    kinds = interpretation_kinds()
    resting = {
        (base, param)
        for base, entry in load_yaml("profiles.yaml")["profiles"].items()
        for param, spec in entry["parameters"].items()
        if kinds.get(spec.get("interpretation", "")) == "choice" and "source" not in spec
        and not inert(get_profile(base), param)
    }
    assert resting - declared == set()


def test_each_new_choice_parameter_and_stuck_when_is_pinned_from_two_positions() -> None:
    by = {(p.profile, p.parameter): p for p in probes()}
    for pair in [("open", "autoplay_order"), ("open", "autoplay_when"), ("app", "stuck_when"),
                 ("morehead-1949", "stuck_when"), ("open", "stuck_when"), ("app", "drop_both_fit"),
                 ("open", "drop_both_fit"), ("morehead-1949", "drop_both_fit"), ("hoffmann-1892", "drop_both_fit")]:
        ids = {key.split("[")[0] for key in by[pair].scenarios}
        positions = {sc.position or sc.code for sc in corpus() if sc.id in ids}
        assert len(positions) >= 2, pair


def test_a_scenario_that_drops_a_choice_it_depends_on_fails_lint() -> None:
    target = next(sc for sc in corpus() if sc.id == "worked-example-020")
    assert "I-AUTOPLAY-ORDER" in target.interpretations
    stripped = dataclasses.replace(
        target, interpretations=tuple(i for i in target.interpretations if i != "I-AUTOPLAY-ORDER"))
    faults = [str(f) for f in choice_faults([stripped])]
    assert len(faults) == 1 and "does not name I-AUTOPLAY-ORDER" in faults[0] and "autoplay_order=" in faults[0]
    assert list(choice_faults([target])) == []


def test_the_autoplay_order_decides_the_worked_example_and_the_open_whole_games() -> None:
    decided = next(p for p in probes() if p.parameter == "autoplay_order").scenarios
    assert "worked-example-020[open]" in decided and "autoplay-006[open]" in decided
    assert sum(k.startswith("whole-games-") for k in decided) == 17
