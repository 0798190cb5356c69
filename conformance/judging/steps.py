"""Judging the steps of one scenario on one adapter, as written: the outcome, reason, effect, card moves,
messages and state of every step, each compared only when the implementation observes it.

This module knows nothing of deviations: conformance.judging.declared re-reads a scenario under the
declared rules first, and conformance.judging.runner (the one entry every command calls) puts the
two together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.adapter import Adapter, Call, Info, Reply, act, start_game
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.judging.state import Mismatch, canonical_action, compare, fields_read, state_text

# State fields compared only with a capability (spec/protocol.md).
STATE_FEATURES = {
    "undo": "undo-count",
    "selected": "selection",
    "legal_moves": "legal-moves",
    "moves": "move-count",
    "reshuffles": "reshuffle-count",
}
# Without ``lost`` an expected lost is satisfied by these (a game that never says lost keeps playing).
NOT_LOST = ("playing", "waiting")


@dataclass(frozen=True, slots=True)
class StepFailure:
    """Where and how an implementation deviated: the step, what was expected, what came."""

    step: Step | None
    expected: Expect
    reply: Reply | None
    mismatches: tuple[Mismatch, ...]
    before: str
    after: str


@dataclass(slots=True)
class Progress:
    """How far a play has got: the step being played (None: the game's start)."""

    step: Step | None = None

    def __str__(self) -> str:
        return f"step {self.step.number} ({self.step.action})" if self.step else "the game's start"


def judge_steps(
    adapter: Adapter,
    info: Info,
    scenario: Scenario,
    profile: str,
    unchecked: list[str],
    lean: bool = False,
    progress: Progress | None = None,
) -> StepFailure | None:
    """Play the steps; the first deviation is returned. Checks that cannot be made with this implementation
    are added to ``unchecked``. ``lean`` (state on demand): each request asks only for the state fields its
    step checks. ``progress`` is kept at the step being played (where a fault stopped the play)."""
    progress = progress or Progress()
    progress.step = None
    given = Expect(state=scenario.given_state_for(profile))
    state = start_game(adapter, profile, scenario.position, scenario.code, fields_read(given.state) if lean else None)
    mismatches = _state_mismatches(adapter, info, given.state, state, unchecked)
    if mismatches:
        return StepFailure(None, given, None, tuple(mismatches), "", state_text(state))
    for step in scenario.steps:
        progress.step, before = step, state
        expect = step.expected(profile)
        reply = act(adapter, canonical_action(step.action), fields_read(expect.state) if lean else None)
        state = reply.state
        mismatches = _judge(expect, reply, info, unchecked) + _messages(adapter, info, expect, reply, unchecked)
        mismatches += _state_mismatches(adapter, info, expect.state, state, unchecked)
        if mismatches:
            return StepFailure(step, expect, reply, tuple(mismatches), state_text(before), state_text(state))
    return None


def script(info: Info, scenario: Scenario, profile: str, lean: bool) -> tuple[list[Call], bool]:
    """The calls the play of the scenario makes, in order, for an adapter that pipelines them (up to the
    first step that asks for messages: those depend on the reply), and whether that is all of them."""
    legal = "legal-moves" in info.capabilities
    given = Expect(state=scenario.given_state_for(profile))
    calls: list[Call] = []
    for number, expect in enumerate([given, *(step.expected(profile) for step in scenario.steps)]):
        fields = fields_read(expect.state) if lean else None
        if number == 0:
            calls.append(("start", {"profile": profile, "position": scenario.position, "code": scenario.code,
                                    "fields": fields}))  # fmt: skip
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
    return [m for m in found if not _unobserved_status(m, info)]


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
        if key == "status" and value == "lost" and not info.observes("lost"):
            unchecked.append("lost: no capability lost (playing or waiting accepted for lost)")
        if key == "position":
            value = _counters_as_observed(value, info, unchecked)
        kept[key] = value
    return kept


def _counters_as_observed(text: str, info: Info, unchecked: list[str]) -> str:
    """A position text with the counters the implementation does not observe marked for the comparison to
    take from the actual state (``moves:?``, ``reshuffles:?``)."""
    parts = text.split()
    for field_name, capability in (("moves", "move-count"), ("reshuffles", "reshuffle-count")):
        if not info.observes(capability):
            unchecked.append(f"{capability}: no capability {capability}")
            parts = [f"{field_name}:?" if p.startswith(f"{field_name}:") else p for p in parts]
    return " ".join(parts)


def _unobserved_status(mismatch: Mismatch, info: Info) -> bool:
    """Without ``waiting`` an expected waiting is satisfied by playing; without ``lost`` an expected lost
    by playing or waiting."""
    if mismatch.what != "status":
        return False
    if mismatch.expected == "waiting" and mismatch.actual == "playing":
        return not info.observes("waiting")
    return mismatch.expected == "lost" and mismatch.actual in NOT_LOST and not info.observes("lost")


def _legal(adapter: Adapter, info: Info, expected: dict[str, Any]) -> list[str] | None:
    if "legal_moves" in expected and "legal-moves" in info.capabilities:
        return adapter.legal_moves()
    return None


def _judge(expect: Expect, reply: Reply, info: Info, unchecked: list[str]) -> list[Mismatch]:
    found = []
    outcome = "accepted" if reply.accepted else "rejected"
    if expect.outcome and expect.outcome != outcome:
        found.append(Mismatch("outcome", _describe(expect.outcome, expect.reason), _describe(outcome, reply.reason)))
    elif (
        expect.outcome == "rejected"
        and _reason_judged(info, expect.reason, unchecked)
        and expect.reason != reply.reason
    ):
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


def _reason_judged(info: Info, reason: str | None, unchecked: list[str]) -> bool:
    """Whether a refusal expected for ``reason`` is judged on its reason (partial reasons: only the codes the
    implementation names; any other refusal is judged on the verdict)."""
    if info.names_reason(reason):
        return True
    if info.reason_codes is not None:
        unchecked.append(f"reasons: {reason} is not among the reason codes named")
    else:
        unchecked.append("reasons: no capability reasons")
    return False


def _observed(info: Info, capability: str, unchecked: list[str]) -> bool:
    """Whether the implementation observes this part of a reply; if not, the check is noted as not made."""
    if info.observes(capability):
        return True
    unchecked.append(f"{capability}: no capability {capability}")
    return False


def _describe(outcome: str, reason: str | None) -> str:
    return f"{outcome} ({reason})" if outcome == "rejected" and reason else outcome
