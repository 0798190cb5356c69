"""Judging against the rules as declared: which scenarios a deviation changes, and what they expect then.

An implementation may declare deviations from a base profile (``{"app": {"pile_limit": null}}``).
A scenario *depends* on a deviation when the reference engine, playing its steps under the
deviated profile, no longer passes it as written. Such a scenario is judged against the reference
playing the same steps under the deviated profile, on the same checked fields; every other scenario
is judged as written. Nothing is hand-tagged: the dependency is found by replay (the same idea as
``conformance.coverage.dependents``, whose map for every parameter is on spec/traceability.md).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from conformance.adapter import Info, Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.judging.state import canonical_action, observed
from conformance.judging.steps import judge_steps
from crescent_ref.errors import NotationError
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


@functools.cache
def _plain_info() -> Info:
    return ReferenceAdapter().info()


def depends(scenario: Scenario, profile: str, changes: Mapping[str, Any]) -> bool:
    """Whether the reference, playing under ``profile`` with ``changes``, fails the scenario as written."""
    if not changes:
        return False
    reference = ReferenceAdapter({profile.split("+")[0]: changes})
    try:
        return judge_steps(reference, _plain_info(), scenario, profile, []) is not None
    except RuleError:
        return True  # the declared rules refuse its start: it cannot pass as written


def as_declared(scenario: Scenario, profile: str, info: Info) -> tuple[Scenario, str]:
    """The scenario to judge this implementation by, and the declared rules it was re-read under ("" when
    the declared deviations do not change its outcome, and it is judged as written).

    Raises:
        RuleError: the reference refuses the scenario's start under the declared rules.
    """
    base = profile.split("+")[0]
    changes = info.deviations.get(base, {})
    if not depends(scenario, profile, changes):
        return scenario, ""
    declared = ", ".join(line for line in info.deviation_lines() if line.split(",")[0] == base)
    start = declared_start(scenario, info.reference_profile(profile))
    return replayed(start, profile, ReferenceAdapter({base: changes})), declared


def declared_start(scenario: Scenario, rules: Profile) -> Scenario:
    """The scenario started where the declared rules allow: a position that leaves more reshuffles than
    the rules grant starts with as many as they grant (``reshuffles: 0`` declared: none left). Every
    other part of the start is kept; what the rules still refuse stays refused."""
    if scenario.position is None:
        return scenario
    try:
        position = Position.from_text(scenario.position)
    except NotationError:
        return scenario
    if position.reshuffles <= rules.reshuffles:
        return scenario
    return dataclasses.replace(scenario, position=position._replace(reshuffles=rules.reshuffles).to_text())


def replayed(scenario: Scenario, profile: str, reference: ReferenceAdapter) -> Scenario:
    """The scenario with every expectation re-read from ``reference`` playing its steps (same fields checked)."""
    state = reference.start(profile, position=scenario.position, code=scenario.code)
    given = scenario.given_state_for(profile)
    given = observed(given, state, _legal(reference, given))
    steps = tuple(_replayed_step(step, profile, reference) for step in scenario.steps)
    return dataclasses.replace(scenario, given_state=given, given_by_profile={}, steps=steps)


def _replayed_step(step: Step, profile: str, reference: ReferenceAdapter) -> Step:
    expect = step.expected(profile)
    reply = reference.act(canonical_action(step.action))
    return dataclasses.replace(step, expect=_as_replied(expect, reply, reference), by_profile={})


def _as_replied(expect: Expect, reply: Reply, reference: ReferenceAdapter) -> Expect:
    outcome = ("accepted" if reply.accepted else "rejected") if expect.outcome or expect.reason else None
    reason = reply.reason if outcome == "rejected" else None
    return dataclasses.replace(
        expect,
        outcome=outcome,
        reason=reason,
        messages=expect.messages if reason == expect.reason else None,
        effect=reply.effect if expect.effect else None,
        moves=reply.moves if expect.moves is not None else None,
        state=observed(expect.state, reply.state, _legal(reference, expect.state)),
    )


def _legal(reference: ReferenceAdapter, expected: dict[str, Any]) -> list[str] | None:
    return reference.legal_moves() if "legal_moves" in expected else None
