"""Cross-checks of scenarios against the spec's vocabulary, beyond what the JSON Schema can say."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from conformance.corpus import load
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.corpus.vocabulary import interpretation_ids, statement_ids, vocabulary
from crescent_ref.actions import Action
from crescent_ref.cards import parse_index
from crescent_ref.deal import parse_code
from crescent_ref.errors import NotationError, ScenarioError
from crescent_ref.game import check_against
from crescent_ref.messages import message, reason_codes
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile


def lint_scenario(sc: Scenario) -> Iterator[ScenarioError]:
    """Every vocabulary or notation fault of one scenario."""

    def fault(where: str, why: str, line: int = sc.line) -> ScenarioError:
        return ScenarioError(sc.file, line, f"{sc.id}: {where}", why)

    if sc.area not in vocabulary()["areas"]:
        yield fault("$.area", f"unknown area {sc.area!r}")
    yield from (fault("$.features", f"unknown feature {f!r}") for f in sc.features if f not in vocabulary()["features"])
    known_i = interpretation_ids()
    yield from (
        fault("$.interpretation", f"unknown interpretation {i!r}") for i in sc.interpretations if i not in known_i
    )
    known_s = statement_ids()
    yield from (
        fault("$.statements", f"unknown statement {s!r}") for s in sc.statements if known_s and s not in known_s
    )
    for name in sc.profiles:
        yield from _lint_profile(sc, name, fault)
    for step in sc.steps:
        yield from _lint_step(sc, step)
    yield from _lint_features(sc)


_STATE_FEATURES = {"undo": "undo", "selected": "selection", "legal_moves": "legal-moves"}
_ACTION_FEATURES = {"undo": "undo", "tap": "tap", "drop": "drop"}


def _lint_features(sc: Scenario) -> Iterator[ScenarioError]:
    """A scenario that checks an optional capability must declare it in ``features``."""
    needed: set[str] = set()
    states = [sc.given_state, *sc.given_by_profile.values()]
    for step in sc.steps:
        needed.add(_ACTION_FEATURES.get(step.action.split()[0].lower(), ""))
        states += [step.expect.state, *(e.state for e in step.by_profile.values())]
    needed.update(_STATE_FEATURES[k] for state in states for k in state if k in _STATE_FEATURES)
    for feature in sorted(needed - set(sc.features) - {""}):
        yield ScenarioError(
            sc.file, sc.line, f"{sc.id}: $.features", f"uses {feature!r} but does not list it in features"
        )


def _lint_profile(sc: Scenario, name: str, fault: object) -> Iterator[ScenarioError]:
    try:
        profile = get_profile(name)
        if sc.position is not None:
            check_against(profile, Position.from_text(sc.position))
        if sc.code is not None:
            parse_code(sc.code)
    except NotationError as err:
        yield ScenarioError(sc.file, sc.line, f"{sc.id}: $.profiles / $.given", f"profile {name!r}: {err}")


def _lint_step(sc: Scenario, step: Step) -> Iterator[ScenarioError]:
    where = f"{sc.id}: step {step.number}"
    try:
        Action.from_text(step.action)
    except NotationError as err:
        yield ScenarioError(sc.file, step.line, where, str(err))
    for name in step.by_profile:
        if name not in sc.profiles:
            yield ScenarioError(
                sc.file, step.line, where, f"by_profile names {name!r}, not one of the scenario's profiles"
            )
    for name, expect in [("", step.expect), *step.by_profile.items()]:
        for why in _expect_faults(expect):
            yield ScenarioError(sc.file, step.line, f"{where} {name}".strip(), why)


def _expect_faults(expect: Expect) -> Iterator[str]:
    if expect.reason is not None and expect.reason not in reason_codes():
        yield f"unknown reason code {expect.reason!r}"
    if expect.outcome == "accepted" and expect.reason:
        yield f"an accepted step cannot have a reason ({expect.reason!r})"
    for key in ("tops", "foundations"):
        for place, card in expect.state.get(key, {}).items():
            if card.strip() != "-":
                try:
                    parse_index(card)
                except NotationError as err:
                    yield f"state.{key}.{place}: {err}"
    yield from _message_faults(expect)
    if "position" in expect.state:
        try:
            Position.from_text(expect.state["position"])
        except NotationError as err:
            yield f"state.position: {err}"


def _message_faults(expect: Expect) -> Iterator[str]:
    """Expected messages must be the reason's own words in spec/reasons.yaml."""
    if not expect.messages:
        return
    if expect.reason not in reason_codes():
        yield "messages given for a step without a known reason"
        return
    for lang, text in expect.messages.items():
        if text != message(expect.reason, lang):
            yield f"messages.{lang}: {text!r} is not the {lang} message of {expect.reason} in spec/reasons.yaml"


def iter_lint(scenarios: Iterable[Scenario], *, replay: bool = False) -> Iterator[ScenarioError]:
    """Vocabulary and cross-reference faults of loaded scenarios; with ``replay``, also every choice a
    scenario's verdict depends on without naming it (``choice_faults``, a few seconds for the corpus)."""
    listed = list(scenarios)
    for sc in listed:
        yield from lint_scenario(sc)
    if replay:
        yield from choice_faults(listed)


def choice_faults(scenarios: Iterable[Scenario]) -> Iterator[ScenarioError]:
    """Tags are computed, not remembered: each choice of spec/interpretations.md is set otherwise on the
    reference through its parameters (``conformance.coverage.choice_probes``), and a scenario whose
    verdict then changes must name that choice in ``interpretation``."""
    listed = list(scenarios)
    by_id = {sc.id: sc for sc in listed}
    for (sid, choice), where in missing_choices(listed).items():
        sc = by_id[sid]
        yield ScenarioError(sc.file, sc.line, f"{sid}: $.interpretation",
                            f"does not name {choice}, a choice its verdict depends on ({'; '.join(where)})")


def missing_choices(scenarios: list[Scenario]) -> dict[tuple[str, str], list[str]]:
    """The choices each scenario's verdict depends on and its ``interpretation`` does not name, by
    (scenario id, choice): where the verdict changed (profile and parameter), in probe order."""
    from conformance.coverage import choice_probes

    by_id = {sc.id: sc for sc in scenarios}
    missing: dict[tuple[str, str], list[str]] = {}
    for probe in choice_probes(scenarios):
        for key in probe.scenarios:
            sid, _, profile = key.partition("[")
            if probe.choice not in by_id[sid].interpretations:
                missing.setdefault((sid, probe.choice), []).append(f"{profile.rstrip(']')} with {probe.parameter}="
                                                                   f"{json.dumps(probe.changed)}")
    return missing


def lint_selected(selected: Iterable[Scenario]) -> Iterator[ScenarioError]:
    """The faults of the selected scenarios, each file linted whole once and then remembered clean.

    A file lint found clean before (in this process, or in the corpus cache under the same bytes and
    the same kit) is not linted again; a file read without the cache is linted as given.
    """
    chosen = list(selected)
    wanted = {sc.id for sc in chosen}
    for file in dict.fromkeys(sc.file for sc in chosen):
        known = load.record(file)
        if known is None:
            yield from iter_lint(sc for sc in chosen if sc.file == file)
        elif not known.lint_clean:
            yield from _lint_whole(file, wanted)


def _lint_whole(file: str, wanted: set[str]) -> Iterator[ScenarioError]:
    """Lint every scenario of ``file``, yield the faults of the wanted ones, remember a clean file."""
    clean = True
    for sc in load.read_file(Path(file)):
        faults = list(lint_scenario(sc))
        clean = clean and not faults
        if sc.id in wanted:
            yield from faults
    if clean:
        load.mark_clean(file)
