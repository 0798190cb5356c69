"""A scenario drawn: runs on the reference engine, disagreements flagged, long runs drawn in part."""

from __future__ import annotations

import dataclasses

from conformance.corpus.scenarios import Expect, Scenario
from conformance.docs.runs import play
from conformance.docs.scenes import HEAD, LONG, TAIL, scenario_block


def first_accepted(corpus: list[Scenario]) -> Scenario:
    """A scenario from a position whose first step is a plain accepted move."""
    return next(
        sc for sc in corpus if sc.position and sc.steps and sc.steps[0].expect.outcome == "accepted" and not sc.code
    )


def test_a_step_the_engine_does_not_confirm_is_flagged(corpus: list[Scenario]) -> None:
    sc = first_accepted(corpus)
    profile = sc.profiles[0]
    run = play(sc, profile)
    assert run.steps[0].agrees and "disagrees" not in scenario_block(sc, [run])
    wrong = dataclasses.replace(sc.steps[0], expect=Expect(outcome="rejected", reason="wrong-suit"), by_profile={})
    bad = dataclasses.replace(sc, steps=(wrong,))
    html = scenario_block(bad, [play(bad, profile)])
    assert "the reference engine disagrees with this step" in html and "wrong-suit" in html


def test_a_position_the_engine_refuses_is_reported_not_drawn(corpus: list[Scenario]) -> None:
    sc = dataclasses.replace(first_accepted(corpus), position="up:A♠ down:K♠ piles:- reshuffles:3 moves:0")
    run = play(sc, sc.profiles[0])
    assert run.start is None and "could not play it" in run.error
    html = scenario_block(sc, [run])
    assert "could not play it" in html and '<svg class="table"' not in html


def test_a_long_scenario_draws_only_its_first_and_last_steps(corpus: list[Scenario]) -> None:
    sc = max(corpus, key=lambda s: len(s.steps))
    assert len(sc.steps) > LONG
    html = scenario_block(sc, [play(sc, sc.profiles[0])])
    assert html.count('<div class="step">') == len(sc.steps)
    assert 1 < html.count('<svg class="table"') <= 1 + HEAD + TAIL


def test_a_second_run_from_the_same_table_does_not_draw_it_again(corpus: list[Scenario]) -> None:
    pairs = ((sc, [play(sc, p) for p in sc.profiles[:2]]) for sc in corpus if len(sc.profiles) > 1)
    sc, runs = next((sc, r) for sc, r in pairs if r[0].start == r[1].start and r[0].status == r[1].status)
    two = scenario_block(sc, runs)
    assert "the same table as above" in two and two.count("<strong>Given</strong>") == 2
    assert scenario_block(sc, runs[1:]).count('<svg class="table"') >= 1
