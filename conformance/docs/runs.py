"""A scenario played on the reference engine, step by step, for drawing (not for judging)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.adapter import AdapterError, Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.judging.state import canonical_action, compare, state_position
from crescent_ref.actions import parse_place
from crescent_ref.errors import CrescentError
from crescent_ref.position import Position


@dataclass(frozen=True, slots=True)
class StepView:
    """One step as played: what the scenario expects, what the engine did, the table after it."""

    step: Step
    expected: Expect
    reply: Reply
    position: Position
    selected: int | None
    agrees: bool

    @property
    def outcome(self) -> str:
        """The expected outcome, or the engine's when the scenario names none."""
        return self.expected.outcome or ("accepted" if self.reply.accepted else "rejected")

    @property
    def reason(self) -> str | None:
        """The expected reason, or the engine's."""
        return self.expected.reason or self.reply.reason


@dataclass(frozen=True, slots=True)
class Run:
    """A scenario in one profile: the starting table and each step (``error`` if it could not start)."""

    scenario: Scenario
    profile: str
    start: Position | None
    status: str
    steps: tuple[StepView, ...]
    error: str = ""


def selected_place(state: dict[str, Any]) -> int | None:
    """The selected place of a state JSON, as a place number."""
    text = state.get("selected")
    return parse_place(text) if text else None


def play(scenario: Scenario, profile: str) -> Run:
    """Play ``scenario`` in ``profile`` on a fresh reference engine."""
    adapter = ReferenceAdapter()
    try:
        state = adapter.start(profile, position=scenario.position, code=scenario.code)
        views = tuple(_step(adapter, step, profile) for step in scenario.steps)
    except (RuleError, AdapterError, CrescentError) as err:
        return Run(scenario, profile, None, "", (), f"the reference engine could not play it: {err}")
    return Run(scenario, profile, state_position(state), str(state.get("status", "")), views)


def _step(adapter: ReferenceAdapter, step: Step, profile: str) -> StepView:
    expected = step.expected(profile)
    reply = adapter.act(canonical_action(step.action))
    legal = adapter.legal_moves() if "legal_moves" in expected.state else None
    agrees = _agrees(expected, reply) and not compare(expected.state, reply.state, legal)
    return StepView(step, expected, reply, state_position(reply.state), selected_place(reply.state), agrees)


def _agrees(expected: Expect, reply: Reply) -> bool:
    outcome = "accepted" if reply.accepted else "rejected"
    if expected.outcome and expected.outcome != outcome:
        return False
    return not (expected.outcome == "rejected" and expected.reason != reply.reason)
