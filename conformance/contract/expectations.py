"""Expectations files: an implementation's known deviations, by scenario id (optionally ``id[profile]``).

Format (YAML)::

    # known deviations of my-crescent 1.2
    deviations:
      piles-003: wrong reason for a full pile     # every profile
      undo-007[app]: undo limit is 50             # this profile only

A listed scenario is an expected failure; if it passes, the run says so and fails (strict).
``crescent-conformance run``, ``smoke``, ``perft`` (keys ``perft/<case name>[profile]``), ``check-log``
(keys ``log/<file name>``), ``fuzz`` (keys ``fuzz/KIND:VALUE``, its ``--ignore`` rules), ``winnable``
and the pytest plugin read it. Every command checks the scenario and perft keys against the corpus and
spec/perft/ (``conformance.cli.common.check_expectations``, and the pytest plugin): a key
naming nothing is bad input wherever the file is read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from conformance.corpus.scenarios import Scenario
from conformance.corpus.yamlines import load
from conformance.files import write_atomic
from crescent_ref.errors import ScenarioError


class _Judged(Protocol):
    """What an expectation marks: a judged scenario-in-profile (conformance.judging.runner.Result)."""

    @property
    def scenario(self) -> Scenario: ...

    @property
    def profile(self) -> str: ...


R = TypeVar("R", bound=_Judged)


@dataclass(frozen=True, slots=True)
class Expectations:
    """Known deviations keyed by ``id`` or ``id[profile]``."""

    deviations: dict[str, str] = field(default_factory=dict)
    file: str = ""
    lines: dict[str, int] = field(default_factory=dict)

    def reason_for(self, scenario_id: str, profile: str) -> str | None:
        """Why this scenario-in-profile (or perft case ``perft/<name>``) is expected to fail, or None."""
        return self.deviations.get(f"{scenario_id}[{profile}]", self.deviations.get(scenario_id))

    def applied(self, results: Iterable[R]) -> list[R]:
        """The results, each listed one marked as an expected failure (with why)."""
        return [
            dataclasses.replace(r, expected_failure=why)  # type: ignore[type-var]
            if (why := self.reason_for(r.scenario.id, r.profile))
            else r
            for r in results
        ]

    def as_record(self) -> dict[str, Any]:
        """What a report keeps of the expectations used: the file and every key with its why."""
        return {"file": self.file, "deviations": dict(self.deviations)}

    @classmethod
    def from_record(cls, record: dict[str, Any] | None) -> Expectations:
        """The expectations a report recorded (``as_record``)."""
        record = record or {}
        return cls({str(k): str(v) for k, v in (record.get("deviations") or {}).items()}, str(record.get("file", "")))

    def unknown(self, scenarios: Iterable[Scenario]) -> list[ScenarioError]:
        """An error for every key naming no scenario of ``scenarios`` (or a profile it does not run in)."""
        profiles = {sc.id: sc.profiles for sc in scenarios}
        return [
            ScenarioError(self.file, self.lines.get(key), f"deviations/{key}", why)
            for key in self.deviations
            if (why := _unknown(key, profiles))
        ]

    def unknown_perft(self, cases: Iterable[tuple[str, str]]) -> list[ScenarioError]:
        """An error for every ``perft/`` key naming no case of ``cases`` ((name, profile) pairs), or a profile
        the case has no counts for."""
        profiles: dict[str, set[str]] = {}
        for name, profile in cases:
            profiles.setdefault(name, set()).add(profile)
        return [
            ScenarioError(self.file, self.lines.get(key), f"deviations/{key}", why)
            for key in self.deviations
            if key.startswith("perft/") and (why := _naming_nothing(key.removeprefix("perft/"), profiles, CASE_WORDS))
        ]


SCENARIO_WORDS = ("no scenario has the id {name!r}", "scenario {name} does not run in profile {profile!r}")
CASE_WORDS = ("no perft case has the name {name!r}", "perft case {name} has no counts in profile {profile!r}")


OTHER_KINDS = ("perft/", "fuzz/", "log/", "winnable/")  # the prefixes of keys that name no scenario


def _unknown(key: str, profiles: Mapping[str, Collection[str]]) -> str:
    if key.startswith(OTHER_KINDS):  # perft keys: unknown_perft; the others may name logs, codes or rules of
        return ""  # other runs
    return _naming_nothing(key, profiles, SCENARIO_WORDS)


def _naming_nothing(key: str, known: Mapping[str, Collection[str]], words: tuple[str, str]) -> str:
    """Why ``name`` or ``name[profile]`` names nothing of ``known`` (name -> its profiles), in ``words``; "" if
    it names something."""
    name, bracket, profile = key.partition("[")
    profile = profile.rstrip("]")
    if name not in known:
        return words[0].format(name=name)
    if bracket and profile not in known[name]:
        return words[1].format(name=name, profile=profile)
    return ""


def load_expectations(path: str | Path | None) -> Expectations:
    """Read an expectations file (none given: no deviations).

    Raises:
        ScenarioError: the file cannot be read, is not YAML, holds aliases, or is not ``deviations: {id: why}``.
    """
    if not path:
        return Expectations()
    doc = load(Path(path))
    deviations = doc.data.get("deviations") if isinstance(doc.data, dict) else None
    if not isinstance(deviations, dict):
        why = "expected a mapping 'deviations: {id: why}'"
        raise ScenarioError(doc.file, doc.line(("deviations",)), "deviations", why)
    lines = {str(k): doc.line(("deviations", k)) for k in deviations}
    for key, why in deviations.items():
        if why is not None and not isinstance(why, str):
            raise ScenarioError(doc.file, lines[key], f"deviations/{key}", "the reason must be text")
    return Expectations({str(k): str(v or "") for k, v in deviations.items()}, doc.file, lines)


def write_expectations(path: Path, records: list[dict[str, Any]]) -> None:
    """Write the failed and errored scenario-profiles of a run as an expectations file (atomically)."""
    bad = sorted((r for r in records if r["verdict"] in ("failed", "errored")), key=lambda r: (r["id"], r["profile"]))
    lines = ["# Known deviations, written by the Crescent conformance kit from a run.", "deviations:"]
    lines += [f"  {r['id']}[{r['profile']}]: {json_str(_why(r))}" for r in bad]
    if not bad:
        lines[-1] = "deviations: {}"
    write_atomic(path, "\n".join(lines) + "\n")


def _why(record: dict[str, Any]) -> str:
    failure = record.get("failure")
    if failure and failure.get("mismatches"):
        return f"step {failure['step']}: {failure['mismatches'][0]}"
    return str(record.get("detail") or record["verdict"])[:200]


def json_str(text: str) -> str:
    """A YAML-safe double-quoted scalar."""
    import json

    return json.dumps(text, ensure_ascii=False)


def fuzz_rules(expectations: Expectations) -> list[str]:
    """The ``fuzz/KIND:VALUE`` keys of an expectations file, as fuzz ``--ignore`` rules."""
    return [key.removeprefix("fuzz/") for key in expectations.deviations if key.startswith("fuzz/")]
