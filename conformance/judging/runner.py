"""Running one scenario against one adapter in one profile, and judging every step."""

from __future__ import annotations

import contextlib
import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from conformance.adapter import (
    Adapter,
    AdapterError,
    Call,
    Info,
    Reply,
    RuleError,
    Skip,
    act,
    announce,
    on_demand,
    start_game,
)
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.judging.state import Mismatch, canonical_action, compare, fields_read, state_text

Verdict = Literal["passed", "failed", "skipped", "errored"]
# State fields compared only with a capability (spec/protocol.md).
STATE_FEATURES = {"undo": "undo-count", "selected": "selection", "legal_moves": "legal-moves"}


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
    judged_as: str = ""  # the declared rules it was judged against, when a deviation changes its outcome
    claimed: bool = True  # False: skipped because the implementation never declared the profile or variant
    expected_failure: str = ""  # why an expectations file lists it as a known deviation

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


def run_scenarios(adapter: Adapter, info: Info, pairs: Iterable[tuple[Scenario, str]]) -> Iterator[Result]:
    """``run_scenario`` for each pair in order, each scenario's requests sent to a pipelining adapter
    while the one before plays (one round trip for many scenarios).

    The next scenario's requests go ahead only when the current one's are all announced: a call
    made after them (the steps after a message check) would meet the next scenario's game. After a
    failure or an error they are sent again (the replay of a failure, or a restart, drops them).
    """
    chosen = list(pairs)
    lean = on_demand(adapter, info)
    announced, complete = False, True
    for number, (scenario, profile) in enumerate(chosen):
        if not announced:
            complete = _announce(adapter, info, scenario, profile, lean, ahead=False)
        announced = complete and number + 1 < len(chosen)
        if announced:
            complete = _announce(adapter, info, *chosen[number + 1], lean, ahead=True)
        result = run_scenario(adapter, info, scenario, profile, announced=True)
        # a failure is played again, a fault ends the process: the next one's requests may be gone
        announced = announced and result.verdict in ("passed", "skipped")
        yield result


def _announce(adapter: Adapter, info: Info, scenario: Scenario, profile: str, lean: bool, ahead: bool) -> bool:
    """Announce the scenario's calls when it will be played as written (not skipped, not re-judged);
    whether every call it makes was announced (or it makes none that could follow another scenario's).
    A fault is left for the scenario's own calls to meet and report."""
    if why_skip(info, scenario, profile) is not None or info.deviated(profile):
        return True
    given = Expect(state=scenario.given_state_for(profile))
    calls, complete = _script(info, scenario, profile, given, lean)
    with contextlib.suppress(AdapterError):
        announce(adapter, calls, ahead)
    return complete


def run_scenario(adapter: Adapter, info: Info, scenario: Scenario, profile: str, announced: bool = False) -> Result:
    """Run every step; the first deviation ends the scenario as failed.

    When the implementation declares deviations for the profile's base and they change this
    scenario's outcome, it is judged against the reference playing the same steps under the
    declared rules (conformance/judging/declared.py), on the same checked fields.
    """
    began = time.perf_counter()
    skip = why_skip(info, scenario, profile)
    if skip:
        return Result(scenario, profile, "skipped", skip, claimed=info.supports(profile) is None)
    judged_as = ""
    if info.deviated(profile):
        from conformance.judging.declared import as_declared

        try:
            scenario, judged_as = as_declared(scenario, profile, info)
        except RuleError as err:
            detail = f"not applicable under the declared deviations (the reference refuses its start): {err}"
            return Result(scenario, profile, "skipped", detail, judged_as=judged_as)
    unchecked: list[str] = []
    try:
        lean = on_demand(adapter, info)
        if not announced:
            _announce(adapter, info, scenario, profile, lean, ahead=False)
        failure = _play(adapter, info, scenario, profile, unchecked, lean)
        if failure and lean:  # played again with whole states, for a failure that shows the tables
            unchecked = []
            failure = _play(adapter, info, scenario, profile, unchecked, False) or failure
    except Skip as err:
        return Result(scenario, profile, "skipped", f"implementation skipped it: {err}", judged_as=judged_as)
    except RuleError as err:
        detail = f"implementation refused to load the given position: {err}"
        return Result(scenario, profile, "errored", detail, judged_as=judged_as)
    except AdapterError as err:
        return Result(scenario, profile, "errored", str(err), judged_as=judged_as)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        detail = f"implementation's reply could not be read: {type(err).__name__}: {err}"
        return Result(scenario, profile, "errored", detail, judged_as=judged_as)
    except Exception as err:  # an in-process adapter's own exception (NotImplementedError, ...)
        detail = f"implementation raised {type(err).__name__}: {err}{_where(err)}"
        return Result(scenario, profile, "errored", detail, judged_as=judged_as)
    verdict: Verdict = "failed" if failure else "passed"
    seconds = time.perf_counter() - began
    checks = tuple(dict.fromkeys(unchecked))
    return Result(scenario, profile, verdict, "", failure, seconds, unchecked=checks, judged_as=judged_as)


def _where(err: BaseException) -> str:
    """`` (at file:line)``: where an exception was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _play(
    adapter: Adapter, info: Info, scenario: Scenario, profile: str, unchecked: list[str], lean: bool = False
) -> StepFailure | None:
    """Play the steps; checks that cannot be made with this implementation are added to ``unchecked``.

    ``lean`` (state on demand): each request asks only for the state fields its step checks.
    """
    given = Expect(state=scenario.given_state_for(profile))
    state = start_game(adapter, profile, scenario.position, scenario.code, fields_read(given.state) if lean else None)
    mismatches = _state_mismatches(adapter, info, given.state, state, unchecked)
    if mismatches:
        return StepFailure(None, given, None, tuple(mismatches), "", state_text(state))
    for step in scenario.steps:
        before = state
        expect = step.expected(profile)
        reply = act(adapter, canonical_action(step.action), fields_read(expect.state) if lean else None)
        state = reply.state
        mismatches = _judge(expect, reply, info, unchecked) + _messages(adapter, info, expect, reply, unchecked)
        mismatches += _state_mismatches(adapter, info, expect.state, state, unchecked)
        if mismatches:
            return StepFailure(step, expect, reply, tuple(mismatches), state_text(before), state_text(state))
    return None


def _script(info: Info, scenario: Scenario, profile: str, given: Expect, lean: bool) -> tuple[list[Call], bool]:
    """The calls the play of the scenario makes, in order, for an adapter that pipelines them (up to the
    first step that asks for messages: those depend on the reply), and whether that is all of them."""
    legal = "legal-moves" in info.capabilities
    calls: list[Call] = []
    for number, expect in enumerate([given, *(step.expected(profile) for step in scenario.steps)]):
        fields = fields_read(expect.state) if lean else None
        if number == 0:
            calls.append(("start", {"profile": profile, "position": scenario.position, "code": scenario.code,
                                    "fields": fields}))
        else:
            calls.append(("act", {"action": canonical_action(scenario.steps[number - 1].action), "fields": fields}))
        if legal and "legal_moves" in expect.state:
            calls.append(("legal_moves", {}))
        if expect.messages and "messages" in info.capabilities:
            return calls, False
    return calls, True


def _state_mismatches(
    adapter: Adapter, info: Info, expected: dict[str, Any], state: dict[str, Any], unchecked: list[str]
) -> list[Mismatch]:
    usable = _usable(expected, info, unchecked)
    found = compare(usable, state, _legal(adapter, info, usable))
    return [m for m in found if not _unobserved_waiting(m, info)]


def _usable(expected: dict[str, Any], info: Info, unchecked: list[str]) -> dict[str, Any]:
    """The expected state fields this implementation can be asked about; the others noted in ``unchecked``."""
    kept = {}
    for key, value in expected.items():
        needed = STATE_FEATURES.get(key)
        if needed and needed not in info.capabilities:
            unchecked.append(f"{needed}: no capability {needed}")
            continue
        if key == "status" and value == "waiting" and not info.observes("waiting"):
            unchecked.append("waiting: no capability waiting (playing accepted for waiting)")
        kept[key] = value
    return kept


def _unobserved_waiting(mismatch: Mismatch, info: Info) -> bool:
    """Without ``waiting`` an expected waiting is satisfied by playing."""
    relaxed = mismatch.what == "status" and (mismatch.expected, mismatch.actual) == ("waiting", "playing")
    return relaxed and not info.observes("waiting")


def _legal(adapter: Adapter, info: Info, expected: dict[str, Any]) -> list[str] | None:
    if "legal_moves" in expected and "legal-moves" in info.capabilities:
        return adapter.legal_moves()
    return None


def _judge(expect: Expect, reply: Reply, info: Info, unchecked: list[str]) -> list[Mismatch]:
    found = []
    outcome = "accepted" if reply.accepted else "rejected"
    if expect.outcome and expect.outcome != outcome:
        found.append(Mismatch("outcome", _describe(expect.outcome, expect.reason), _describe(outcome, reply.reason)))
    elif expect.outcome == "rejected" and _observed(info, "reasons", unchecked) and expect.reason != reply.reason:
        found.append(Mismatch("reason", expect.reason, reply.reason))
    if reply.accepted and expect.effect and _observed(info, "effect", unchecked) and expect.effect != reply.effect:
        found.append(Mismatch("effect", expect.effect, reply.effect))
    if reply.accepted and expect.moves is not None and _observed(info, "card-moves", unchecked):
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


def _observed(info: Info, capability: str, unchecked: list[str]) -> bool:
    """Whether the implementation observes this part of a reply; if not, the check is noted as not made."""
    if info.observes(capability):
        return True
    unchecked.append(f"{capability}: no capability {capability}")
    return False


def _describe(outcome: str, reason: str | None) -> str:
    return f"{outcome} ({reason})" if outcome == "rejected" and reason else outcome
