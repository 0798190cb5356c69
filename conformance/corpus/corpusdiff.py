"""Two versions of the corpus side by side: which scenarios changed, and how; which statements' coverage.

A scenario's **expectations** are what a run checks: its profiles, features, given position or
code and state, and each step's action with what must come of it (per profile too). Its
**metadata** (title, area, sources, statements, interpretations, notes, lines) documents it. An
edit of metadata alone is listed as such.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import jsonschema

from conformance.corpus.load import read_file, scenario_files
from conformance.corpus.scenarios import Expect, Scenario, Step
from conformance.corpus.trace import coverage
from conformance.corpus.yamlines import load
from conformance.reading import load_json
from crescent_ref.errors import ScenarioError

GIVEN = ("profiles", "features", "position", "code", "given_state", "given_by_profile")
METADATA = ("title", "area", "sources", "statements", "interpretations")


@dataclass(frozen=True, slots=True)
class ScenarioChange:
    """One scenario added, removed or edited, with what differs."""

    id: str
    area: str
    kind: str
    what: tuple[str, ...]
    expectations: bool

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {"id": self.id, "area": self.area, "kind": self.kind, "what": list(self.what),
                "expectations": self.expectations}  # fmt: skip


@dataclass(frozen=True, slots=True)
class CoverageChange:
    """A statement whose covering scenarios (or whose own text) changed."""

    id: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {"id": self.id, "old": list(self.old), "new": list(self.new), "note": self.note}


def load_scenarios(spec: Path) -> list[Scenario]:
    """Every scenario of ``spec/scenarios`` (any copy of spec/), in file order, checked against its own schema."""
    schema_file = spec / "schema" / "scenario.schema.json"
    validator = None
    if schema_file.is_file():
        validator = jsonschema.Draft202012Validator(load_json(schema_file, "schema")[0])
    return [sc for path in scenario_files([spec / "scenarios"]) for sc in read_file(path, validator)]


def short(value: Any, width: int = 48) -> str:
    """A value's repr, cut to ``width``."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def expect_diff(where: str, old: Expect, new: Expect) -> list[str]:
    """``where: reason 'wrong-suit' -> 'pile-full'`` for each field (and state key) that differs."""
    found = [f"{where}: {f.name} {short(getattr(old, f.name))} -> {short(getattr(new, f.name))}"
             for f in fields(Expect) if f.name != "state" and getattr(old, f.name) != getattr(new, f.name)]  # fmt: skip
    keys = sorted(k for k in old.state.keys() | new.state.keys() if old.state.get(k) != new.state.get(k))
    return found + [f"{where}: state.{k} {short(old.state.get(k))} -> {short(new.state.get(k))}" for k in keys]


def step_diff(old: Step | None, new: Step | None) -> list[str]:
    """What differs between two versions of a step (either may be missing)."""
    if old is None or new is None:
        return [f"step {s.number} ({s.action}) {'added' if old is None else 'removed'}" for s in (old or new,) if s]
    where = f"step {new.number} ({new.action})"
    if old.action != new.action:
        return [f"step {new.number}: action {old.action!r} -> {new.action!r}"]
    found = expect_diff(where, old.expect, new.expect)
    for profile in sorted(old.by_profile.keys() | new.by_profile.keys()):
        found += expect_diff(f"{where} [{profile}]", old.expected(profile), new.expected(profile))
    return found


def scenario_diff(old: Scenario, new: Scenario) -> ScenarioChange | None:
    """How ``new`` differs from ``old`` (same id), or None when it does not."""
    checked = [f"{name} changed" for name in GIVEN if getattr(old, name) != getattr(new, name)]
    for n in range(max(len(old.steps), len(new.steps))):
        checked += step_diff(_nth(old.steps, n), _nth(new.steps, n))
    notes = [s.note for s in old.steps] != [s.note for s in new.steps]
    meta = [f"{name} changed" for name in METADATA if getattr(old, name) != getattr(new, name)]
    meta += ["step notes changed"] if notes else []
    if not checked and not meta:
        return None
    return ScenarioChange(new.id, new.area, "edited", tuple(checked or [f"metadata only: {', '.join(meta)}"]),
                          bool(checked))  # fmt: skip


def _nth(steps: tuple[Step, ...], n: int) -> Step | None:
    return steps[n] if n < len(steps) else None


def scenario_changes(old: Iterable[Scenario], new: Iterable[Scenario]) -> list[ScenarioChange]:
    """Every scenario added, removed or edited, sorted by area and id."""
    before, after = {sc.id: sc for sc in old}, {sc.id: sc for sc in new}
    changes = [ScenarioChange(i, after[i].area, "added", (after[i].title,), True) for i in after.keys() - before.keys()]
    changes += [ScenarioChange(i, before[i].area, "removed", (before[i].title,), True)
                for i in before.keys() - after.keys()]  # fmt: skip
    changes += [c for i in before.keys() & after.keys() if (c := scenario_diff(before[i], after[i]))]
    return sorted(changes, key=lambda c: (c.area, c.id))


def statement_texts(spec: Path) -> dict[str, str]:
    """Statement id -> summary, from a copy of spec/statements.yaml (empty when it has none)."""
    path = spec / "statements.yaml"
    if not path.is_file():
        return {}
    data: Any = load(path).data
    statements = data.get("statements", []) if isinstance(data, dict) else None
    if not isinstance(statements, list) or not all(isinstance(s, dict) and isinstance(s.get("id"), str)
                                                   for s in statements):  # fmt: skip
        raise ScenarioError(str(path), None, "statements", "expected a list of statements, each with an id")
    return {s["id"]: str(s.get("summary", "")) for s in statements}


def coverage_changes(old_spec: Path, new_spec: Path, old: list[Scenario], new: list[Scenario]) -> list[CoverageChange]:
    """Statements added, removed, reworded, or covered by other scenarios than before."""
    texts_a, texts_b = statement_texts(old_spec), statement_texts(new_spec)
    cover_a, cover_b = coverage(old), coverage(new)
    changes = []
    for sid in sorted(texts_a.keys() | texts_b.keys() | cover_a.keys() | cover_b.keys()):
        a, b = tuple(cover_a.get(sid, ())), tuple(cover_b.get(sid, ()))
        note = _statement_note(sid, texts_a, texts_b)
        if a != b or note:
            changes.append(CoverageChange(sid, a, b, note))
    return changes


def _statement_note(sid: str, old: dict[str, str], new: dict[str, str]) -> str:
    if sid in old and sid in new:
        return "reworded" if old[sid] != new[sid] else ""
    if sid in new:
        return "added statement"
    return "removed statement" if sid in old else "not in statements.yaml"
