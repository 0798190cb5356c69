"""The judge: one scenario in one profile on one adapter, against the implementation's contract.

Every command that judges scenarios (run, smoke, the pytest plugin, fuzz findings and converted
logs run again) comes through ``judge``: it decides whether the scenario applies (claims and
offers), where it starts (a game code, or the position the code deals for an implementation
without ``game-codes``), re-reads it under the declared deviations (conformance.judging.declared),
plays and judges its steps (conformance.judging.steps), and marks a known difference of the
expectations file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from conformance.adapter import Adapter, AdapterError, Call, Info, RuleError, Skip, announce, on_demand, pipelines
from conformance.adapters.placing import silences
from conformance.contract import Contract
from conformance.corpus.scenarios import Scenario, Step
from conformance.judging.declared import as_declared
from conformance.judging.steps import STATE_FEATURES, Progress, StepFailure, judge_steps, script
from conformance.wording import spoiled
from crescent_ref.errors import NotationError
from crescent_ref.game import Game

__all__ = ["STATE_FEATURES", "Result", "StepFailure", "Verdict", "judge", "judge_all", "run_scenario", "run_scenarios",
           "why_skip"]  # fmt: skip

Verdict = Literal["passed", "failed", "skipped", "errored"]


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
    faulted_at: Step | None = None  # the step an errored play stopped at, when known (None: its start too)
    placed: bool = False  # errored again when played a request at a time: the fault is its own
    unrepeated: str = ""  # a fault met with others' requests in flight that did not repeat when played alone

    @property
    def key(self) -> str:
        """``id[profile]``: the scenario-in-profile this result is about."""
        return f"{self.scenario.id}[{self.profile}]"


def _contract(info: Info | Contract) -> Contract:
    return info if isinstance(info, Contract) else Contract(info)


def why_skip(info: Info | Contract, scenario: Scenario, profile: str) -> str | None:
    """Why the implementation cannot run this scenario in this profile, or None."""
    contract = _contract(info)
    reason = contract.info.supports(profile)
    if reason:
        return reason
    needed = set(scenario.features) | ({"game-codes"} if scenario.code else set())
    if scenario.code and not contract.needs_codes(scenario.area):
        needed.discard("game-codes")  # it starts from the dealt position instead
    missing = sorted(needed - contract.info.capabilities)
    return f"needs capability {', '.join(missing)}" if missing else None


def from_dealt(scenario: Scenario, profile: str, contract: Contract) -> Scenario:
    """The scenario started from the position its code deals (under the declared rules), for an
    implementation that does not deal game codes itself; unchanged when it does, or has no code.

    Raises:
        RuleError: the code cannot be dealt under the declared rules.
    """
    if not scenario.code or contract.deals_codes():
        return scenario
    try:
        dealt = Game.deal(contract.rules(profile), scenario.code).position.to_text()
    except NotationError as err:
        raise RuleError(str(err)) from None
    return dataclasses.replace(scenario, code=None, position=dealt)


def run_scenario(
    adapter: Adapter, info: Info | Contract, scenario: Scenario, profile: str, announced: bool = False
) -> Result:
    """``judge`` under the contract of ``info`` (an Info alone: no expectations, no label)."""
    return judge(adapter, _contract(info), scenario, profile, announced)


def run_scenarios(adapter: Adapter, info: Info | Contract, pairs: Iterable[tuple[Scenario, str]]) -> Iterator[Result]:
    """``judge_all`` under the contract of ``info``."""
    return judge_all(adapter, _contract(info), pairs)


AHEAD = 8  # scenarios whose requests go ahead to a pipelining adapter, written at once when none is ahead: the
# implementation wakes once for them all (the whole job over stdio with the reference, 9 paired runs at load 7:
# 1.495 -> 1.410 s CPU against one ahead at a time). A crash is named by the scenario it hit whatever the number
# (tests/conformance/test_pipelining_faults.py); one at a time, 0, 1, 2 or 16 made no difference in CPU.


def judge_all(adapter: Adapter, contract: Contract, pairs: Iterable[tuple[Scenario, str]]) -> Iterator[Result]:
    """``judge`` for each pair in order, the requests of the next ``AHEAD`` scenarios sent to a pipelining
    adapter in one write when none is ahead (one round trip for many scenarios: the implementation
    answers them together, and the runner finds the replies already read).

    Later scenarios' requests go ahead only while every scenario before them is announced in full: a
    call made after them (the steps after a message check) would meet a later scenario's game. A failure
    keeps them (its replay reads their replies first and keeps them for their calls); after an error they
    are sent again (a fault ends the process, an errored reply leaves the stream to be read anew).
    """
    if not pipelines(adapter):  # in process: nothing to announce, so no scenario's calls are worked out
        yield from (judge(adapter, contract, scenario, profile, announced=True) for scenario, profile in pairs)
        return
    chosen, held = list(pairs), _Held()
    lean = on_demand(adapter, contract.info)
    upto, complete = 0, True  # the first scenario not announced; whether the last one announced is whole
    for number, (scenario, profile) in enumerate(chosen):
        if _careful(adapter):  # after a crash or hang each scenario goes alone (``judge``): a fault is met
            upto = number + 1  # where it is made, and no other scenario costs a process or a timeout for it
            yield from held.add(number, judge(adapter, contract, scenario, profile), number + 1)
            continue
        if upto <= number:
            complete, upto = _announce(adapter, contract, scenario, profile, lean, ahead=False), number + 1
        if complete and upto == number + 1:  # none ahead: the next ones go in one write (one wake-up of the
            scripts = []  # implementation for them all, not one a scenario)
            while upto < min(len(chosen), number + 1 + AHEAD):
                calls, whole = _script(contract, *chosen[upto], lean)
                if not whole:  # its play goes on past its announced calls, on the game the process holds: a
                    break  # failure played again before them would change that game, so it goes at its turn
                scripts.append(calls)
                upto += 1
            _send_ahead(adapter, scripts)
        in_flight = upto
        result = judge(adapter, contract, scenario, profile, announced=True, shared=in_flight > number + 1)
        if result.verdict == "errored" or result.unrepeated:  # a fault ended the process (or it was played
            upto = number + 1  # again alone): what was sent ahead is sent again
        yield from held.add(number, result, in_flight)
    yield from held.release()


def _careful(adapter: Adapter) -> bool:
    """Whether requests go one at a time from now on: the adapter can (``alone``) and has met a crash or hang
    (once the requests announced before are played: their replies, or faults, are theirs). A crash every
    game or two would otherwise cost a replay each, and a hang a second timeout; over the whole corpus a
    request at a time costs about 0.3 s more (a crash at the first action: 0.96 s wall against 0.63 s)."""
    placeable = callable(getattr(adapter, "alone", None)) and not getattr(adapter, "pending", False)
    return placeable and silences(adapter) > 0


def _alone(adapter: Adapter, contract: Contract, scenario: Scenario, profile: str) -> Result:
    """``judge`` inside the adapter's ``alone`` (a request at a time): a crash or hang is met by the request
    that made it, so it is placed as met (no replay)."""
    alone = getattr(adapter, "alone")  # noqa: B009 (only a stdio adapter holds results back)
    silenced = silences(adapter)
    with alone():
        result = _judged(adapter, contract, scenario, profile, announced=True, alone=True)
    if result.verdict == "errored" and silences(adapter) > silenced and not spoiled(result.verdict, result.detail):
        result = dataclasses.replace(result, placed=True)
    return _listed(result, contract, scenario, profile)


@dataclass
class _Held:
    """Results held back, in order, from an ``unrepeated`` one until the scenarios in flight with it are judged:
    if one of them errors again when played alone (its fault repeats: ``placed``), that fault explains the
    first and the held results stand; if none does, each unrepeated one is errored with the fault as met."""

    results: list[Result] = field(default_factory=list)
    until: int = 0  # held until the scenario before this one is judged
    explained: bool = False

    def add(self, number: int, result: Result, in_flight: int) -> Iterator[Result]:
        """Take the result of scenario ``number`` (``in_flight``: the scenarios before it were sent with it);
        the results no longer held."""
        if not self.results and not result.unrepeated:
            yield result
            return
        self.results.append(result)
        self.explained = self.explained or result.placed
        if result.unrepeated:
            self.until = max(self.until, in_flight)
        if number + 1 >= self.until:
            yield from self.release()

    def release(self) -> Iterator[Result]:
        """Every result held, decided."""
        held, explained = self.results, self.explained
        self.results, self.until, self.explained = [], 0, False
        yield from (r if explained or not r.unrepeated else _not_repeated(r) for r in held)


def _announce(adapter: Adapter, contract: Contract, scenario: Scenario, profile: str, lean: bool, ahead: bool) -> bool:
    """Announce the scenario's calls (``_script``); whether every call it makes was announced."""
    calls, complete = _script(contract, scenario, profile, lean)
    _send(adapter, calls, ahead)
    return complete


def _script(contract: Contract, scenario: Scenario, profile: str, lean: bool) -> tuple[list[Call], bool]:
    """The calls to announce when the scenario will be played as written (not skipped, not re-judged, not
    started from a dealt position; else none), and whether they are all it makes (or it makes none that
    could follow another scenario's)."""
    contract = contract.written_under(scenario.declared)
    as_written = not contract.deviated(profile) and (not scenario.code or contract.deals_codes())
    if why_skip(contract, scenario, profile) is not None or not as_written:
        return [], True
    return script(contract.info, scenario, profile, lean)


def _send(adapter: Adapter, calls: list[Call], ahead: bool) -> None:
    """Announce ``calls``; a fault is left for the scenario's own calls to meet and report."""
    with contextlib.suppress(AdapterError):
        announce(adapter, calls, ahead)


def _send_ahead(adapter: Adapter, scripts: list[list[Call]]) -> None:
    """Announce the calls of several scenarios after those announced before, in one write when the adapter
    can (``prefetch_all``, the stdio adapter); a fault is left for the scenarios' own calls to meet."""
    scripts = [calls for calls in scripts if calls]
    together = getattr(adapter, "prefetch_all", None)
    with contextlib.suppress(AdapterError):
        if callable(together) and scripts:
            together(scripts, True)
        else:
            for calls in scripts:
                announce(adapter, calls, ahead=True)


def judge(
    adapter: Adapter,
    contract: Contract,
    scenario: Scenario,
    profile: str,
    announced: bool = False,
    shared: bool = False,
) -> Result:
    """Run every step; the first deviation ends the scenario as failed; a listed one is an expected failure.

    When the implementation declares deviations for the profile's base and they change this
    scenario's outcome, it is judged against the reference playing the same steps under the
    declared rules (conformance/judging/declared.py), on the same checked fields.

    A crash or hang met while its requests went together is placed by playing it again a request at a
    time (``_placed``). When that does not repeat the fault, it is errored as met, unless ``shared``: later
    scenarios' requests went with its own, and the result is marked ``unrepeated`` (``judge_all`` decides).
    Once such a fault was met, every scenario is played a request at a time (``_careful``).
    """
    if _careful(adapter):
        return _alone(adapter, contract, scenario, profile)
    before = _counts(adapter)
    result = _judged(adapter, contract, scenario, profile, announced)
    alone = getattr(adapter, "alone", None)
    if callable(alone) and _misplaced(adapter, result, before):
        with alone():
            result = _placed(adapter, contract, scenario, profile, result)
        if result.unrepeated and not shared:
            result = _not_repeated(result)
    return _listed(result, contract, scenario, profile)


def _listed(result: Result, contract: Contract, scenario: Scenario, profile: str) -> Result:
    """The result about the scenario as written, marked when the expectations file lists it."""
    why = contract.expected_failure(scenario.id, profile)
    return (
        dataclasses.replace(result, scenario=scenario, expected_failure=why) if why else _as_written(result, scenario)
    )


def _as_written(result: Result, scenario: Scenario) -> Result:
    """The result about the scenario as the corpus wrote it (not its re-read or dealt form)."""
    return result if result.scenario is scenario else dataclasses.replace(result, scenario=scenario)


def _counts(adapter: Adapter) -> tuple[bool, int, int]:
    """Whether a stdio adapter's faults are worth placing now (``placing``), the faults it has met, and those
    where its replies stopped coming (a crash, a hang: the replies not yet written are lost)."""
    return getattr(adapter, "placing", False), getattr(adapter, "faults", 0), silences(adapter)


def _misplaced(adapter: Adapter, result: Result, before: tuple[bool, int, int]) -> bool:
    """Whether an errored play may have met another's fault, or its own at an earlier step: its requests went
    together (with the next scenarios' too, in ``judge_all``) to a process whose replies stopped coming, and a
    buffering implementation writes the replies to lines read together in one write, or not at all (a reply
    that breaks the protocol is the reply of the call that read it). Not while the adapter says it is not
    worth it (every process faults before answering an action, played alone too: the give-up rule counts)."""
    placing, _, silent = before
    return result.verdict == "errored" and placing and _counts(adapter)[2] > silent


def _placed(adapter: Adapter, contract: Contract, scenario: Scenario, profile: str, first: Result) -> Result:
    """The scenario played again (inside the adapter's ``alone``: a request at a time, on a fresh process): its
    own fault at the step it hit, or its verdict (the first fault was a later scenario's, or does not repeat).
    A replay spoiled by the rules (the implementation given up, a kind of request no longer sent) leaves the
    first result."""
    faults = _counts(adapter)[1]
    again = _judged(adapter, contract, scenario, profile, announced=True, alone=True)
    if again.verdict != "errored":
        said = first.detail.splitlines()[0] if first.detail else "a fault"
        detail = f"a fault met with later scenarios' requests in flight ({said}); played again a request at a time " \
            f"it {again.verdict}, and a later scenario's fault repeated"  # fmt: skip
        return dataclasses.replace(again, detail=detail, unrepeated=first.detail)
    answered = _counts(adapter)[1] > faults and not spoiled(again.verdict, again.detail)
    return dataclasses.replace(again, placed=True) if answered else first


def _not_repeated(result: Result) -> Result:
    """An ``unrepeated`` result errored with the fault as met: no other scenario's fault explains it."""
    detail = f"{result.unrepeated}\n(this fault did not repeat when the scenario was played again a request at a time)"
    return Result(result.scenario, result.profile, "errored", detail, judged_as=result.judged_as)


def _judged(
    adapter: Adapter, contract: Contract, scenario: Scenario, profile: str, announced: bool, alone: bool = False
) -> Result:
    """``judge`` but for the expectations file; ``alone``: every request was sent on its own (a fault's step
    is then known)."""
    contract = contract.written_under(scenario.declared)
    skip = why_skip(contract, scenario, profile)
    if skip:
        return Result(scenario, profile, "skipped", skip, claimed=contract.claims(profile))
    judged_as = ""
    try:
        playable = from_dealt(scenario, profile, contract)
        if contract.deviated(profile):
            playable, judged_as = as_declared(playable, profile, contract.info)
    except RuleError as err:
        detail = f"not applicable under the declared deviations (the reference refuses its start): {err}"
        return Result(scenario, profile, "skipped", detail, judged_as=judged_as)
    began = time.perf_counter()
    unchecked: list[str] = []
    progress = Progress()
    try:
        lean = on_demand(adapter, contract.info)
        if not announced and pipelines(adapter):
            _announce(adapter, contract, scenario, profile, lean, ahead=False)
        failure = judge_steps(adapter, contract.info, playable, profile, unchecked, lean, progress)
        if failure and lean:  # played again with whole states, for a failure that shows the tables
            unchecked = []
            failure = judge_steps(adapter, contract.info, playable, profile, unchecked, progress=progress) or failure
    except Exception as err:  # an adapter fault, or an in-process adapter's own exception
        return _stopped(scenario, profile, err, progress if alone or not pipelines(adapter) else None, judged_as)
    verdict: Verdict = "failed" if failure else "passed"
    seconds = time.perf_counter() - began
    checks = tuple(dict.fromkeys(unchecked))
    return Result(scenario, profile, verdict, "", failure, seconds, unchecked=checks, judged_as=judged_as)


def _stopped(scenario: Scenario, profile: str, err: Exception, progress: Progress | None, judged_as: str) -> Result:
    """The result of a play an exception stopped; an error says where when that is known (``progress``: every
    request was sent on its own, so the fault was met by the request that made it)."""
    verdict, detail = _fault(err)
    if verdict == "skipped" or progress is None or spoiled(verdict, detail):
        return Result(scenario, profile, verdict, detail, judged_as=judged_as)
    return Result(scenario, profile, verdict, f"at {progress}: {detail}", judged_as=judged_as, faulted_at=progress.step)


def _fault(err: Exception) -> tuple[Verdict, str]:
    """The verdict and detail of an exception raised while playing."""
    if isinstance(err, Skip):
        return "skipped", f"implementation skipped it: {err}"
    if isinstance(err, RuleError):
        return "errored", f"implementation refused to load the given position: {err}"
    if isinstance(err, AdapterError):
        return "errored", str(err)
    if isinstance(err, KeyError | TypeError | ValueError | IndexError | AttributeError):
        return "errored", f"implementation's reply could not be read: {type(err).__name__}: {err}"
    return "errored", f"implementation raised {type(err).__name__}: {err}{_where(err)}"


def _where(err: BaseException) -> str:
    """`` (at file:line)``: where an exception was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
