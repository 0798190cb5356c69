"""The review aid of a rule change: what the working tree's spec/ changes against a git revision of it.

Three lists (``crescent-conformance impact``):

- scenarios added, removed, or edited (their expectations, or only their metadata:
  conformance.corpus.corpusdiff);
- reference verdicts that changed: the *current* reference engine (the working tree's
  crescent_ref) runs every scenario of spec/ at the revision and of the working tree's spec/, in
  every profile it names, and each scenario-profile of both whose verdict or failure details
  differ is listed (conformance.judging.compare; added and removed scenarios are in the first
  list). Scenarios the current engine fails in the working tree
  are listed on their own: the engine or the scenario must change;
- statements whose coverage changed: statements of spec/statements.yaml added, removed or
  reworded, or cited by other scenarios than before.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.corpusdiff import (
    CoverageChange,
    ScenarioChange,
    coverage_changes,
    load_scenarios,
    scenario_changes,
)
from conformance.corpus.gitspec import checkout_root, commit_of, spec_at
from conformance.corpus.scenarios import Scenario
from conformance.judging.compare import Change, compare_records
from conformance.judging.report import result_record
from conformance.judging.runner import run_scenario
from crescent_ref.errors import ScenarioError
from crescent_ref.progress import progress


@dataclass(frozen=True, slots=True)
class Impact:
    """What changed in spec/ against ``rev``: scenarios, reference verdicts, statement coverage."""

    rev: str
    commit: str
    scenarios: tuple[ScenarioChange, ...]
    verdicts: tuple[Change, ...]
    failing: tuple[str, ...]
    statements: tuple[CoverageChange, ...]

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {"rev": self.rev, "commit": self.commit, "scenarios": [c.as_dict() for c in self.scenarios],
                "verdicts": [c.as_dict() for c in self.verdicts], "reference_fails": list(self.failing),
                "statements": [c.as_dict() for c in self.statements]}  # fmt: skip


def reference_records(scenarios: list[Scenario], what: str, quiet: bool = False) -> list[dict[str, Any]]:
    """The current reference engine on every scenario in every profile it names, as report records."""
    adapter = ReferenceAdapter()
    info = adapter.info()
    pairs = [(sc, p) for sc in scenarios for p in sc.profiles]
    return [result_record(run_scenario(adapter, info, sc, p))
            for sc, p in progress(pairs, what, total=len(pairs), unit="run", quiet=quiet)]  # fmt: skip


def load_version(spec: Path, name: str) -> list[Scenario]:
    """A corpus version's scenarios; a load error names the version."""
    try:
        return load_scenarios(spec)
    except ScenarioError as err:
        raise ScenarioError(err.file, err.line, err.where, f"{err.why} (in spec/ of {name})") from None


def impact(spec: Path, rev: str = "HEAD", quiet: bool = False) -> Impact:
    """Compare ``spec`` (a working tree's spec/ folder) with the same folder at git revision ``rev``."""
    commit = commit_of(checkout_root(spec), rev)
    with tempfile.TemporaryDirectory(prefix="crescent-impact-") as tmp:
        old_spec = spec_at(spec, commit, Path(tmp))
        old, new = load_version(old_spec, rev), load_version(spec, "the working tree")
        statements = coverage_changes(old_spec, spec, old, new)
    before = reference_records(old, f"reference on spec@{rev}", quiet)
    after = reference_records(new, "reference on the working tree", quiet)
    failing = tuple(f"{r['id']}[{r['profile']}]" for r in after if r["verdict"] != "passed")
    verdicts = [c for c in compare_records(before, after) if c.kind not in ("added", "removed")]
    return Impact(rev, commit, tuple(scenario_changes(old, new)), tuple(verdicts), failing, tuple(statements))


def render_impact(found: Impact) -> str:
    """The impact as text for a terminal or a review comment."""
    lines = [f"spec/ of the working tree against {found.rev} ({found.commit[:10]})", ""]
    lines.append(f"Scenarios changed ({len(found.scenarios)}):")
    for c in found.scenarios:
        lines += [f"  {c.kind:<8} {c.id:<24} {c.area}"] + [f"      {w}" for w in c.what]
    lines += ["", f"Reference verdicts changed ({len(found.verdicts)}) (the current engine on both versions):"]
    for v in found.verdicts:
        lines += [f"  {v.key:<40} {v.old or '-'} -> {v.new or '-'}"] + [f"      {d}" for d in v.new_detail[:3]]
    if found.failing:
        lines += ["", f"The reference engine FAILS {len(found.failing)} scenario-profile(s) of the working tree:"]
        lines += [f"  {key}" for key in found.failing]
    lines += ["", f"Statements whose coverage changed ({len(found.statements)}):"]
    for s in found.statements:
        gained, lost = sorted(set(s.new) - set(s.old)), sorted(set(s.old) - set(s.new))
        moves = " ".join([*(f"+{i}" for i in gained), *(f"-{i}" for i in lost)])
        note = f" ({s.note})" if s.note else ""
        lines.append(f"  {s.id:<22} {moves}{note}" + ("  NOW UNCOVERED" if s.old and not s.new else ""))
    return "\n".join(lines)


def render_impact_json(found: Impact) -> str:
    """The impact as JSON."""
    return json.dumps(found.as_dict(), ensure_ascii=False, indent=1)
