"""A consistent game log as a scenario file (corpus format, ``origin: game-log``): a real game's
history becomes a regression case that loads and passes on the reference.

The expectations are what the log recorded, field by field (the reference agrees on every one); a
refusal logged without its reason gets the reference's reason, since a scenario states one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from conformance.files import write_atomic
from conformance.logs.check import LogVerdict
from conformance.logs.model import GameLog, LogRecord
from conformance.logs.report import plain_name
from crescent_ref.errors import CrescentError
from crescent_ref.game import Game, Outcome
from crescent_ref.position import join_pile
from crescent_ref.spec_files import spec_dir
from crescent_ref.state_json import game_state


def schema_line(out: Path) -> str:
    """The editor's schema comment, with the path from ``out``'s folder to spec/schema/scenario.schema.json."""
    schema = spec_dir() / "schema" / "scenario.schema.json"
    relative = os.path.relpath(schema.resolve(), out.parent.resolve()).replace(os.sep, "/")
    return f"# yaml-language-server: $schema={relative}\n"


class ScenarioRefused(CrescentError):
    """The log cannot become a scenario that passes on the reference (it diverges, or declares deviations)."""


def write_scenario(verdict: LogVerdict, out: Path) -> None:
    """Write the log of a consistent verdict as a scenario file (atomically)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when present
    body = {"area": "game-log", "scenarios": [log_scenario(verdict)]}
    text = schema_line(out) + yaml.dump(body, Dumper=dumper, allow_unicode=True, sort_keys=False, width=10_000)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, text)


def log_scenario(verdict: LogVerdict) -> dict[str, Any]:
    """The scenario (a dict in the corpus format) of a consistent log."""
    log = verdict.log
    if verdict.divergence is not None:
        record = verdict.divergence.record
        raise ScenarioRefused(f"{log.file} parts from the reference at step {record.number if record else 0}")
    game = Game.deal(verdict.profile, log.header.code) if log.header.code else Game.from_text(
        verdict.profile, log.header.position or ""
    )
    given: dict[str, Any] = {"code": log.header.code} if log.header.code else {"position": log.header.position}
    if log.header.state:
        given["state"] = expected_state(game, log.header.state)
    steps = [_step(record, game.apply(record.action), game) for record in log.records]
    scenario = {
        "id": scenario_id(log),
        "title": f"Game log {Path(log.file).name}: {len(steps)} actions" + _by(log),
        "origin": {"kind": "game-log", "log": Path(log.file).name, **_implementation(log)},
        "profiles": [plain_name(verdict.profile.name)],
        "features": _features(log, given, steps),
        "given": given,
        "steps": steps,
    }
    if not scenario["features"]:
        del scenario["features"]
    base = verdict.profile.name.split("[")[0].split("+")[0]
    if "[" in verdict.profile.name:  # written under the log's deviations: judged under them (spec/protocol.md)
        scenario["declared"] = {"deviations": {base: dict(log.header.deviations[base])}}
    return scenario


def scenario_id(log: GameLog) -> str:
    """``log-<file name>-001``: a valid scenario id made of the log's file name."""
    stem = re.sub(r"[^a-z0-9]+", "-", Path(log.file).name.split(".")[0].lower()).strip("-")
    return f"log-{stem or 'game'}-001"


def _by(log: GameLog) -> str:
    return f" by {log.header.implementation}" if log.header.implementation else ""


def _implementation(log: GameLog) -> dict[str, str]:
    return {"implementation": log.header.implementation} if log.header.implementation else {}


def _step(record: LogRecord, outcome: Outcome, game: Game) -> dict[str, Any]:
    step: dict[str, Any] = {"action": str(record.action), "outcome": "accepted" if record.accepted else "rejected"}
    if not record.accepted:
        step["reason"] = record.reason or outcome.reason
    if record.effect is not None:
        step["effect"] = record.effect
    if record.moves is not None:
        step["moves"] = list(record.moves)
    if record.state:
        step["state"] = expected_state(game, record.state)
    return step


def expected_state(game: Game, recorded: dict[str, Any]) -> dict[str, Any]:
    """A scenario's expected state for the fields a log recorded (the reference agrees on them)."""
    state = game_state(game)
    hidden = state["hidden"]
    out: dict[str, Any] = {}
    for key in recorded:
        if key == "piles":
            out["piles"] = {f"p{n}": join_pile(p, hidden[n - 1]) for n, p in enumerate(state["piles"], 1)}
        elif key == "hidden":
            out["hidden"] = {f"p{n}": h for n, h in enumerate(hidden, 1)}
        elif key == "foundations":
            out["foundations"] = {k: state["foundations"][k] for k in recorded["foundations"]}
        elif key == "held":
            out["held"] = ",".join(state["held"]) or "-"
        else:
            out[key] = state[key]
    return out


def _features(log: GameLog, given: dict[str, Any], steps: list[dict[str, Any]]) -> list[str]:
    needed = {"game-codes"} if "code" in given else set()
    needed |= {r.action.kind for r in log.records if r.action.kind in ("undo", "tap", "drop")}
    states = [given.get("state", {}), *(s.get("state", {}) for s in steps)]
    needed |= {"undo" for s in states if "undo" in s} | {"selection" for s in states if "selected" in s}
    return sorted(needed)
