"""Running one scenario against one adapter in one profile, and judging every step."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Literal

from conformance.adapter import Adapter, AdapterError, Info, Reply, RuleError, Skip
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.judging.state import Mismatch, canonical_action, compare, state_text

Verdict = Literal["passed", "failed", "skipped", "errored"]
STATE_FEATURES = {"undo": "undo", "selected": "selection", "legal_moves": "legal-moves"}


@dataclass(frozen=True, slots=True)
class StepFailure:
    """Where and how an implementation deviated: the step, what was expected, what came."""

    step: Step | None
    expected: Expect
    reply: Reply | None
    mismatches: tuple[Mismatch, ...]
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Result:
    """The verdict on one scenario in one profile."""

    scenario: Scenario
    profile: str
    verdict: Verdict
    detail: str = ""
    failure: StepFailure | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    unchecked: tuple[str, ...] = ()  # checks the scenario asks for that were not made, and why

    @property
    def key(self) -> str:
        """``id[profile]``: the scenario-in-profile this result is about."""
        return f"{self.scenario.id}[{self.profile}]"


def why_skip(info: Info, scenario: Scenario, profile: str) -> str | None:
    """Why the implementation cannot run this scenario in this profile, or None."""
    reason = info.supports(profile)
    if reason:
        return reason
    needed = set(scenario.features) | ({"game-codes"} if scenario.code else set())
    missing = sorted(needed - info.capabilities)
    return f"needs capability {', '.join(missing)}" if missing else None


def run_scenario(adapter: Adapter, info: Info, scenario: Scenario, profile: str) -> Result:
    """Run every step; the first deviation ends the scenario as failed."""
    began = time.perf_counter()
    skip = why_skip(info, scenario, profile)
    if skip:
        return Result(scenario, profile, "skipped", skip)
    unchecked: list[str] = []
    try:
        failure = _play(adapter, info, scenario, profile, unchecked)
    except Skip as err:
        return Result(scenario, profile, "skipped", f"implementation skipped it: {err}")
    except RuleError as err:
        return Result(scenario, profile, "errored", f"implementation refused to load the given position: {err}")
    except AdapterError as err:
        return Result(scenario, profile, "errored", str(err))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return Result(
            scenario, profile, "errored", f"implementation's reply could not be read: {type(err).__name__}: {err}"
        )
    except Exception as err:  # an in-process adapter's own exception (NotImplementedError, ...)
        return Result(scenario, profile, "errored", f"implementation raised {type(err).__name__}: {err}{_where(err)}")
    verdict: Verdict = "failed" if failure else "passed"
    return Result(scenario, profile, verdict, failure=failure, seconds=time.perf_counter() - began,
                  unchecked=tuple(dict.fromkeys(unchecked)))


def _where(err: BaseException) -> str:
    """`` (at file:line)``: where an exception was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _play(adapter: Adapter, info: Info, scenario: Scenario, profile: str, unchecked: list[str]
          ) -> StepFailure | None:
    """Play the steps; checks that cannot be made with this implementation are added to ``unchecked``."""
    state = adapter.start(profile, position=scenario.position, code=scenario.code)
    given = Expect(state=scenario.given_state_for(profile))
    mismatches = compare(_usable(given.state, info), state, _legal(adapter, info, given.state))
    if mismatches:
        return StepFailure(None, given, None, tuple(mismatches), "", state_text(state))
    for step in scenario.steps:
        before = state
        expect = step.expected(profile)
        reply = adapter.act(canonical_action(step.action))
        state = reply.state
        mismatches = _judge(expect, reply, info) + _messages(adapter, info, expect, reply, unchecked)
        mismatches += compare(_usable(expect.state, info), state, _legal(adapter, info, expect.state))
        if mismatches:
            return StepFailure(step, expect, reply, tuple(mismatches), state_text(before), state_text(state))
    return None


def _usable(expected: dict[str, Any], info: Info) -> dict[str, Any]:
    return {
        k: v for k, v in expected.items() if STATE_FEATURES.get(k, "") in info.capabilities or k not in STATE_FEATURES
    }


def _legal(adapter: Adapter, info: Info, expected: dict[str, Any]) -> list[str] | None:
    if "legal_moves" in expected and "legal-moves" in info.capabilities:
        return adapter.legal_moves()
    return None


def _judge(expect: Expect, reply: Reply, info: Info) -> list[Mismatch]:
    found = []
    outcome = "accepted" if reply.accepted else "rejected"
    if expect.outcome and expect.outcome != outcome:
        found.append(Mismatch("outcome", _describe(expect.outcome, expect.reason), _describe(outcome, reply.reason)))
    elif expect.outcome == "rejected" and expect.reason != reply.reason:
        found.append(Mismatch("reason", expect.reason, reply.reason))
    if reply.accepted and expect.effect and expect.effect != reply.effect:
        found.append(Mismatch("effect", expect.effect, reply.effect))
    if reply.accepted and expect.moves is not None:
        want = tuple(canonical_action(m) for m in expect.moves)
        got = tuple(canonical_action(m) for m in reply.moves)
        if want != got:
            found.append(Mismatch("card moves", list(want), list(got)))
    return found


def _messages(adapter: Adapter, info: Info, expect: Expect, reply: Reply, unchecked: list[str]) -> list[Mismatch]:
    """The reason's message in each language the step names, asked with the ``message`` request and
    compared exactly; without the ``messages`` capability (or the language) the check is recorded
    as not made. Only a refusal with the expected reason is asked about (other faults are reported
    as outcome or reason)."""
    if not expect.messages or reply.accepted or reply.reason != expect.reason or reply.reason is None:
        return []
    if "messages" not in info.capabilities:
        unchecked.append("messages: no capability messages")
        return []
    found = []
    for lang, want in sorted(expect.messages.items()):
        if info.languages and lang not in info.languages:
            unchecked.append(f"messages: language {lang} not declared")
            continue
        got = adapter.message(reply.reason, lang)
        if got != want:
            found.append(Mismatch(f"message ({lang}) for {reply.reason}", want, got))
    return found


def _describe(outcome: str, reason: str | None) -> str:
    return f"{outcome} ({reason})" if outcome == "rejected" and reason else outcome
