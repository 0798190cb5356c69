"""A scenario as a block of HTML: title, sources, and per run a play control (drawn when opened) and its steps."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from conformance.corpus.scenarios import Citation, Scenario
from conformance.docs.common import short_path
from conformance.docs.html import link, raw, tag
from conformance.docs.runs import Run, StepView
from conformance.judging.state import canonical_action
from crescent_ref.messages import message
from crescent_ref.position import Position

LANGUAGES = {"000": "Indonesian", "001": "English", "003": "Chinese"}


def citation(c: Citation) -> str:
    """``000 (Indonesian) § section: “quote”`` as HTML."""
    doc = c.doc[:3]
    return raw(
        "div",
        f"<strong>{escape(doc)}</strong> ({LANGUAGES.get(doc, c.doc)}) § {escape(c.section)}: “{escape(c.quote)}”",
        "cite",
    )


def scenario_block(scenario: Scenario, runs: list[Run]) -> str:
    """The whole scenario with one run per profile shown."""
    head = tag("span", scenario.id, "id") + escape(scenario.title)
    parts = [raw("h4", head), *(citation(c) for c in scenario.sources), _refs(scenario)]
    parts += [run_block(run, len(runs) > 1) for run in runs]
    return raw("section", "".join(parts), "scenario", id=scenario.id)


def _refs(scenario: Scenario) -> str:
    items = [f"profiles: {escape(', '.join(scenario.profiles))}"]
    if scenario.interpretations:
        items.append("rests on " + ", ".join(link(f"interpretations.html#{i}", i) for i in scenario.interpretations))
    if scenario.statements:
        items.append("statements " + ", ".join(link(f"traceability.html#{s}", s) for s in scenario.statements))
    if scenario.features:
        items.append("needs " + escape(", ".join(scenario.features)))
    items.append(f"file {escape(short_path(scenario.file))}:{scenario.line}")
    return raw("p", " · ".join(items), "muted")


def run_block(run: Run, named: bool) -> str:
    """One run: what it starts from, its play control (drawn when opened), and each step in words."""
    title = raw("h5", "in profile " + tag("code", run.profile)) if named else ""
    if run.start is None:
        return raw("div", title + tag("p", run.error, "rejected"), "run")
    given = "a dealt game " + tag("code", run.scenario.code or "") if run.scenario.code else "the given position"
    parts = [title, raw("p", f"<strong>Given</strong> {given}"), player(run)]
    parts += [step_block(view) for view in run.steps]
    return raw("div", "".join(parts), "run")


def player(run: Run) -> str:
    """The play control: a closed ``<details>`` holding the run as JSON, drawn by play.js when opened."""
    assert run.start is not None
    data = {
        "profile": run.profile,
        "position": run.scenario.position if not run.scenario.code else None,
        "code": run.scenario.code,
        "actions": [canonical_action(view.step.action) for view in run.steps],
        "expect": [[view.expected.outcome, view.expected.reason] for view in run.steps],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    steps = f"{len(run.steps)} step" + ("" if len(run.steps) == 1 else "s")
    summary = f"Draw the table and play · {steps} · " + _caption(run.status, run.start)
    body = tag("summary", summary) + f'<script type="application/json">{text}</script><div class="player"></div>'
    return raw("details", body, "play")


def step_block(view: StepView) -> str:
    """One step: action, outcome, note, and what it checks."""
    head = f"<strong>Step {view.step.number}</strong> {tag('code', view.step.action)} → {outcome_html(view)}"
    parts = [raw("p", head)]
    if view.step.note:
        parts.append(tag("p", view.step.note, "muted"))
    if view.expected.state:
        parts.append(raw("p", "checks: " + facts(view.expected.state), "muted"))
    return raw("div", "".join(parts), "step")


def outcome_html(view: StepView) -> str:
    """``accepted`` (with its card moves) or ``rejected code — message``; notes an engine disagreement."""
    if view.outcome == "rejected":
        code = view.reason or "?"
        reason = raw("a", tag("code", code), href=f"reasons.html#{code}")
        text = f'<span class="rejected">rejected</span> {reason} — “{escape(_message(code))}”'
    else:
        text = '<span class="accepted">accepted</span>' + _moves(view)
    if not view.agrees:
        text += ' <span class="badge other">the reference engine disagrees with this step</span>'
    return text


def _moves(view: StepView) -> str:
    moves = list(view.expected.moves if view.expected.moves is not None else view.reply.moves)
    effect = view.expected.effect or view.reply.effect
    extra = f" ({escape(effect)})" if effect and effect != "move" else ""
    if moves and moves != [view.step.action]:
        extra += ": card moves " + ", ".join(tag("code", m) for m in moves)
    return extra


def _message(code: str) -> str:
    try:
        return message(code)
    except Exception:  # an unknown code (from a faulty report) still shows
        return "(no such reason code)"


def facts(state: dict[str, Any]) -> str:
    """The expected facts of a step, short: ``moves 1; p1 7♥; status playing``."""
    out = []
    for key, value in state.items():
        if key == "position":
            out.append("the whole position")
        elif isinstance(value, dict):
            out += [f"{escape(key)} {escape(str(k))}: {tag('code', str(v))}" for k, v in value.items()]
        elif isinstance(value, list):
            out.append(f"{escape(key)}: " + (", ".join(tag("code", str(v)) for v in value) or "none"))
        else:
            out.append(f"{escape(key)} {tag('code', str(value))}")
    return "; ".join(out)


def _caption(status: str, position: Position) -> str:
    parts = [status] if status else []
    return " · ".join([*parts, f"reshuffles left {position.reshuffles}", f"moves {position.moves}"])
