"""Expectations files: an implementation's known deviations, by scenario id (optionally ``id[profile]``).

Format (YAML)::

    # known deviations of my-crescent 1.2
    deviations:
      piles-003: wrong reason for a full pile     # every profile
      undo-007[app]: undo limit is 50             # this profile only

A listed scenario is an expected failure; if it passes, the run says so and fails (strict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from crescent_ref.errors import ScenarioError


@dataclass(frozen=True, slots=True)
class Expectations:
    """Known deviations keyed by ``id`` or ``id[profile]``."""

    deviations: dict[str, str] = field(default_factory=dict)

    def reason_for(self, scenario_id: str, profile: str) -> str | None:
        """Why this scenario-in-profile is expected to fail, or None."""
        return self.deviations.get(f"{scenario_id}[{profile}]", self.deviations.get(scenario_id))


def load_expectations(path: str | Path | None) -> Expectations:
    """Read an expectations file (none given: no deviations); a malformed file is a ScenarioError."""
    if not path:
        return Expectations()
    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise ScenarioError(str(file), None, "", f"cannot read expectations: {err}") from None
    deviations = data.get("deviations") if isinstance(data, dict) else None
    if not isinstance(deviations, dict):
        raise ScenarioError(str(file), None, "$.deviations", "expected a mapping 'deviations: {id: why}'")
    return Expectations({str(k): str(v) for k, v in deviations.items()})


def write_expectations(path: Path, records: list[dict[str, Any]]) -> None:
    """Write the failed and errored scenario-profiles of a run as an expectations file (atomically)."""
    bad = sorted((r for r in records if r["verdict"] in ("failed", "errored")), key=lambda r: (r["id"], r["profile"]))
    lines = ["# Known deviations, written by the Crescent conformance kit from a run.", "deviations:"]
    lines += [f"  {r['id']}[{r['profile']}]: {json_str(_why(r))}" for r in bad]
    if not bad:
        lines[-1] = "deviations: {}"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)


def _why(record: dict[str, Any]) -> str:
    failure = record.get("failure")
    if failure and failure.get("mismatches"):
        return f"step {failure['step']}: {failure['mismatches'][0]}"
    return str(record.get("detail") or record["verdict"])[:200]


def json_str(text: str) -> str:
    """A YAML-safe double-quoted scalar."""
    import json

    return json.dumps(text, ensure_ascii=False)
