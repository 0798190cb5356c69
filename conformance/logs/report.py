"""A log's verdict written like a failed scenario: where, which step, the rule, expected against actual,
the table before the step, and a command that replays it on the reference."""

from __future__ import annotations

import json
import shlex
from typing import Any

from conformance.judging.report import state_diff
from conformance.logs.check import Divergence, LogVerdict, describe
from crescent_ref.errors import NotationError
from crescent_ref.messages import message
from crescent_ref.position import Position
from crescent_ref.render import render


def format_verdict(verdict: LogVerdict) -> str:
    """One line for a consistent log; the whole divergence otherwise."""
    log = verdict.log
    who = f" written by {log.header.implementation}" if log.header.implementation else ""
    if verdict.divergence is None:
        return (
            f"log {log.file} [{verdict.profile.name}]{who}: consistent with the reference, "
            f"{verdict.checked} actions checked in {verdict.seconds:.2f}s"
        )
    return format_divergence(verdict, verdict.divergence)


def format_divergence(verdict: LogVerdict, div: Divergence) -> str:
    """The first divergence of a log, as a scenario failure reads."""
    log, record = verdict.log, div.record
    where = f"step {record.number}: {record.action}" if record else "given (the start)"
    line = record.line if record else log.header.line
    at = f"step {record.number}" if record else "the start"
    lines = [
        f"log {log.file} [{verdict.profile.name}] FAILED: parts from the reference at {at}",
        f"  {log.location(line)}, {where}",
    ]
    lines += [f"  implementation: {log.header.implementation}"] if log.header.implementation else []
    lines += [f"  rule: {_rule(div)}"] if div.outcome else []
    lines += [f"  - {m}" for m in div.mismatches]
    lines += ["  (expected: the reference engine; got: the log)"]
    if div.before is not None:
        lines.append(f"  position before: {div.before.to_text()}")
    if div.after is not None:
        lines.append(f"  reference {'after' if record else 'start'}: {div.after.to_text()}")
    lines += ["  " + d for d in _logged_diff(div)]
    if div.before is not None:
        lines += ["  table before the step:", *_drawn(div.before)]
    if div.after is not None and div.after is div.before:
        lines.append("  reference table after the step: unchanged")
    elif div.after is not None:
        lines += [f"  reference table {'after the step' if record else 'at the start'}:", *_drawn(div.after)]
    lines += replay_lines(verdict, div)
    return "\n".join(lines)


def _drawn(position: Position) -> list[str]:
    return ["    " + row.rstrip() for row in render(position).splitlines()]


def _rule(div: Divergence) -> str:
    """The reference's verdict on the action, with the reason's message when it refused."""
    out = div.outcome
    assert out is not None
    said = describe(out.accepted, out.reason)
    if out.accepted:
        made = " ".join(str(m) for m in out.moves)
        return f"the reference accepts {out.action} ({out.effect}{': ' + made if made else ''})"
    try:
        text = message(out.reason or "")
    except NotationError:
        text = ""
    return f"the reference refuses {out.action}: {said} {text}".rstrip()


def _logged_diff(div: Divergence) -> list[str]:
    """A pile-by-pile diff when the log recorded the whole table (piles and foundations)."""
    record = div.record
    if record is None or div.after is None or not {"piles", "foundations"} <= set(record.state):
        return []
    from conformance.judging.state import state_position, state_text

    reference = _position_fields(div.after)
    logged = {**reference, **record.state, "foundations": {**reference["foundations"], **record.state["foundations"]}}
    try:
        text = state_position(logged).to_text()
    except (KeyError, TypeError, ValueError, IndexError):
        return [f"log after (unreadable): {state_text(logged)}"]
    return [f"log after:       {text}", *state_diff(div.after.to_text(), text)]


def _position_fields(pos: Position) -> dict[str, Any]:
    from crescent_ref.state_json import position_state

    return position_state(pos)


def plain_name(name: str) -> str:
    """``app+six`` of a declared profile's name ``app[reshuffles=4]+six``."""
    head, _, rest = name.partition("[")
    return head + rest.rpartition("]")[2]  # the same as Profile.plain_name, for a name alone


def deviation_words(verdict: LogVerdict) -> list[str]:
    """``--deviations JSON`` for ``crescent-ref play`` when the log declares deviations for its base."""
    base = verdict.profile.name.split("[")[0].split("+")[0]
    changes = verdict.log.header.deviations.get(base)
    return ["--deviations", json.dumps({base: changes}, separators=(",", ":"))] if changes else []


def replay_lines(verdict: LogVerdict, div: Divergence) -> list[str]:
    """``replay:`` (crescent-ref play, up to the diverging step) and ``recheck:`` (check-log)."""
    start = div.replay_start
    flag = "--code" if start.startswith("CR1-") else "--position"
    name = plain_name(verdict.profile.name)
    words = ["crescent-ref", "play", "--profile", name, flag, start, *deviation_words(verdict), *div.replay_actions]
    lines = [f"  replay: {shlex.join(words)}"]
    record = div.record
    if record is not None and len(div.replay_actions) < record.number:
        back = len(div.replay_actions)
        lines.append(f"  (the replay starts {back} steps back, from the position then, with no undo history)")
    lines.append(f"  recheck: crescent-conformance check-log {shlex.quote(verdict.log.file)}")
    return lines
