"""A scenario drawn: runs on the reference engine, disagreements flagged, long runs drawn in part."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from conformance.corpus.scenarios import Expect, Scenario
from conformance.docs.runs import play
from conformance.docs.scenes import player, scenario_block


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
    assert "could not play it" in html and 'class="play"' not in html


def play_data(html: str) -> list[dict[str, Any]]:
    """The JSON of every play control in a block of HTML."""
    found = re.findall(r'<details class="play">.*?<script type="application/json">(.*?)</script>', html)
    return [json.loads(text) for text in found]


def test_a_run_carries_its_actions_and_expectations_for_the_play_control(corpus: list[Scenario]) -> None:
    sc = max(corpus, key=lambda s: len(s.steps))
    html = scenario_block(sc, [play(sc, p) for p in sc.profiles])
    assert html.count('<div class="step">') == len(sc.steps) * len(sc.profiles)
    assert '<svg class="table"' not in html, "drawings are made in the browser, when the play control is opened"
    data = play_data(html)
    assert [d["profile"] for d in data] == list(sc.profiles)
    for d in data:
        assert len(d["actions"]) == len(sc.steps) and (d["code"] is None) == (sc.code is None)
        assert d["expect"] == [[s.expected(d["profile"]).outcome, s.expected(d["profile"]).reason] for s in sc.steps]


def test_the_play_data_cannot_end_its_script_element(corpus: list[Scenario]) -> None:
    sc = first_accepted(corpus)
    good = play(sc, sc.profiles[0])
    odd = dataclasses.replace(sc, position="</script><script>alert(1)</script>")
    html = player(dataclasses.replace(good, scenario=odd))
    assert html.count("</script>") == 1
    assert play_data(html)[0]["position"] == odd.position
