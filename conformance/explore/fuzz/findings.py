"""Writing a finding as a scenario file in the corpus format (loadable with ``--scenarios FOLDER``).

Every step carries the reference's outcome and reason, and (in scenarios of up to six steps, and
always on the last step) its position and status; the differing step also the parts that
differed (undo depth, legal moves, ...) and, as its note, the diagnosis. A zero-step finding puts
the expectation on the given position. Files are written atomically.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.diagnose import Diagnosis
from conformance.explore.fuzz.shrink import Case
from conformance.files import write_atomic
from crescent_ref.game import Game, Outcome
from crescent_ref.profiles import Profile
from crescent_ref.state_json import game_state

EXTRA_FIELDS = {"undo": "undo", "selected": "selection"}
SHOWN_STEPS = 6  # a longer scenario gives the state only after its last step (outcomes on every step)


@dataclass(frozen=True, slots=True)
class Finding:
    """A shrunk, diagnosed difference and the scenario file written for it (None when not written)."""

    case: Case
    difference: Difference
    diagnosis: Diagnosis
    path: Path | None
    seconds_to_find: float
    seconds_to_shrink: float
    seen: dict[str, int] = field(default_factory=dict)  # the differences of this rule in the run, by kind

    @property
    def count(self) -> int:
        """How many differences of the run this finding stands for (at least its own)."""
        return max(sum(self.seen.values()), 1)

    def __str__(self) -> str:
        steps = len(self.case.actions)
        where = f"\n  scenario: {self.path}" if self.path else ""
        details = "".join(f"\n  {d}" for d in self.diagnosis.details[1:4])
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.seen.items()))
        seen = f"seen {self.count} time(s) ({kinds})" if kinds else "seen once"
        rule = f"rule {self.diagnosis.rule}; " if self.diagnosis.rule else ""
        return (f"{self.diagnosis.title}\n  {rule}{seen}; simplest: {steps} step(s), {self.difference.kind} "
                f"difference{details}{where}")


def digest(profile: str, case: Case) -> str:
    """A short stable name for a case."""
    text = json.dumps([profile, case.given, list(case.actions)], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def scenario(profile: str, reference: Profile, case: Case, diff: Difference, diagnosis: Diagnosis,
             origin: dict[str, Any]) -> dict[str, Any]:
    """The scenario (as data) replaying ``case`` with the reference's expectations."""
    code = case.given.get("code")
    game = Game.deal(reference, code) if code else Game.from_text(reference, case.given["position"])
    last, full = len(case.actions), len(case.actions) <= SHOWN_STEPS
    steps = [_step(game, game.apply(a), diff if k == last else None, diagnosis, full or k == last)
             for k, a in enumerate(case.actions, 1)]
    given: dict[str, Any] = dict(case.given)
    if not case.actions:
        given["state"] = _state(game, diff)
    sc: dict[str, Any] = {
        "id": f"differential-{digest(profile, case)}-001",
        "title": diagnosis.title,
        "origin": {"kind": "differential", **origin, "found": str(diff).splitlines()[0][:200]},
        "profiles": [profile],
        "features": _features(case, steps, given),
        "given": given,
        "steps": steps,
    }
    if reference.changes():  # found under declared deviations: judged under them when run again
        sc["declared"] = {"deviations": {profile.split("+")[0]: reference.changes()}}
    if diagnosis.source:
        sc["source"] = diagnosis.source
    if diagnosis.statements:
        sc["statements"] = list(diagnosis.statements)
    if not sc["features"]:
        del sc["features"]
    return sc


def _state(game: Game, diff: Difference | None) -> dict[str, Any]:
    state = game_state(game)
    want: dict[str, Any] = {"position": game.position.to_text(), "status": state["status"]}
    fields = {f.field for f in diff.fields} if diff else set()
    want.update({k: state[k] for k in EXTRA_FIELDS if k in fields})
    if diff and diff.kind == "legal-moves":
        want["legal_moves"] = [str(m) for m in game.legal_moves()]
    return want


def _step(game: Game, out: Outcome, diff: Difference | None, diagnosis: Diagnosis, full: bool) -> dict[str, Any]:
    step: dict[str, Any] = {"action": str(out.action), "outcome": "accepted" if out.accepted else "rejected"}
    if not out.accepted:
        step["reason"] = out.reason
    if full:
        step["state"] = _state(game, diff)
    if diff is not None:
        step["note"] = diagnosis.title
    return step


def _features(case: Case, steps: list[dict[str, Any]], given: dict[str, Any]) -> list[str]:
    needed = {"game-codes"} if "code" in case.given else set()
    needed |= {a.split()[0] for a in case.actions if a.split()[0] in ("undo", "tap", "drop")}
    states = [given.get("state", {})] + [s.get("state", {}) for s in steps]
    needed |= {"legal-moves" for s in states if "legal_moves" in s}
    needed |= {EXTRA_FIELDS[k] for s in states for k in EXTRA_FIELDS if k in s}
    return sorted(needed)


def write(folder: Path, sc: dict[str, Any]) -> Path:
    """Write one scenario as ``<folder>/<id>.yaml`` (atomically) and return the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sc['id'].removesuffix('-001')}.yaml"
    body = yaml.safe_dump({"area": "differential", "scenarios": [sc]}, allow_unicode=True, sort_keys=False,
                          width=10_000)
    write_atomic(path, "# yaml-language-server: $schema=../schema/scenario.schema.json\n" + body, "--out")
    return path
