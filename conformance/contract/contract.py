"""The contract of an implementation: everything it declares, resolved once, read by every command.

A ``Contract`` holds what the handshake said (claimed profiles and variants, observation
capabilities, the reason codes it names, deviations: an ``Info``), the known differences of an
expectations file, and who ran it (a user-given label and the command or import path). Every
command that judges takes one and judges through conformance.judging against it; a JSON report
records it (``as_record``) so that report, html-report, matrix, compare and badge read the same
value back (``from_report``).
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.adapter import Info
from conformance.contract.expectations import Expectations
from crescent_ref.profiles import Profile

# Scenarios about dealing itself need the game-codes capability; any other scenario that starts from
# a game code runs, without it, from the position the code deals (spec/protocol.md, *Capabilities*).
DEALING_AREAS = frozenset({"game-codes", "layout"})


@dataclass(frozen=True, slots=True)
class Contract:
    """What an implementation declares and how it was run; the one value every command judges against."""

    info: Info
    expectations: Expectations = field(default_factory=Expectations)
    label: str = ""
    command: str = "--impl reference"  # how a replay names it: ``--impl X`` or ``--cmd "..."``

    @property
    def title(self) -> str:
        """The label, else ``name version``: what a matrix column or a summary line calls it."""
        return self.label or f"{self.info.name} {self.info.version}".strip()

    def rules(self, profile: str) -> Profile:
        """The rules declared for ``profile``: the base with its deviations, then the variants on top."""
        return self.info.reference_profile(profile)

    def deviated(self, profile: str) -> bool:
        """Whether deviations are declared for ``profile``'s base."""
        return self.info.deviated(profile)

    def claims(self, profile: str) -> bool:
        """Whether the implementation declared this profile (its base and every variant)."""
        return self.info.supports(profile) is None

    def needs_codes(self, area: str) -> bool:
        """Whether a scenario of ``area`` that starts from a code needs ``game-codes`` (it is about dealing)."""
        return area in DEALING_AREAS

    def deals_codes(self) -> bool:
        """Whether the implementation starts games from game codes itself."""
        return "game-codes" in self.info.capabilities

    def expected_failure(self, key: str, profile: str) -> str | None:
        """Why ``key`` (a scenario id, ``perft/<case>``, ``fuzz/KIND:VALUE``) is a known difference, or None."""
        return self.expectations.reason_for(key, profile)

    def deviation_text(self) -> str:
        """``app, except pile_limit=null; ...``, or "" when nothing is declared."""
        return "; ".join(self.info.deviation_lines())

    def replay(self, profile: str, scenario_id: str) -> str:
        """One ``crescent-conformance run`` that re-runs this scenario under this contract, as written."""
        return shlex.join(["crescent-conformance", "run"]) + f" {self.options()} --profile {profile} --id {scenario_id}"

    def options(self) -> str:
        """The command-line options that recreate this contract: the implementation, expectations, label."""
        parts = [self.command]
        if self.expectations.file:
            parts.append(f"--expectations {shlex.quote(self.expectations.file)}")
        if self.label:
            parts.append(f"--label {shlex.quote(self.label)}")
        return " ".join(parts)

    def play_deviations(self, profile: str) -> list[str]:
        """``crescent-ref play`` options that play ``profile`` as declared (none when nothing is declared)."""
        base = profile.split("+")[0]
        changes = self.info.deviations.get(base)
        return ["--deviations", json.dumps({base: dict(changes)}, separators=(",", ":"))] if changes else []

    def written_under(self, deviations: Mapping[str, Mapping[str, Any]]) -> Contract:
        """This contract with the deviations a scenario was written under in place of its own for those bases
        (a fuzz finding or a converted log of a deviating game is judged under the rules it was found in)."""
        if not deviations:
            return self
        info = dataclasses.replace(self.info, deviations={**self.info.deviations, **deviations})
        return dataclasses.replace(self, info=info)

    def as_record(self) -> dict[str, Any]:
        """The contract as a JSON report keeps it (``from_record`` reads it back)."""
        info = self.info
        record: dict[str, Any] = {
            "label": self.label,
            "command": self.command,
            "name": info.name,
            "version": info.version,
            "language": info.language,
            "profiles": list(info.profiles),
            "variants": list(info.variants),
            "capabilities": sorted(info.capabilities),
            "languages": list(info.languages),
            "deviations": {base: dict(changes) for base, changes in info.deviations.items()},
            "expectations": self.expectations.as_record(),
        }
        if info.reason_codes is not None:
            record["reason_codes"] = sorted(info.reason_codes)
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Contract:
        """The contract a report recorded; a report written before contracts were recorded gives what its
        header says (an empty claim list then means: every profile it ran)."""
        codes = record.get("reason_codes")
        info = Info(
            name=str(record.get("name", "?")),
            version=str(record.get("version", "?")),
            language=str(record.get("language", "?")),
            profiles=tuple(record.get("profiles", ())),
            variants=tuple(record.get("variants", ())),
            capabilities=frozenset(record.get("capabilities", ())),
            languages=tuple(record.get("languages", ())),
            deviations=dict(record.get("deviations") or {}),
            reason_codes=frozenset(codes) if codes is not None else None,
        )
        expectations = Expectations.from_record(record.get("expectations"))
        return cls(info, expectations, str(record.get("label", "")), str(record.get("command", "")))


def from_report(report: dict[str, Any]) -> Contract:
    """The contract of a loaded JSON report: its ``contract`` field, or (an older report) its header."""
    if isinstance(report.get("contract"), dict):
        return Contract.from_record(report["contract"])
    impl = report.get("implementation") or {}
    declared = {"capabilities": report.get("capabilities", ()), "deviations": report.get("deviations") or {}}
    return Contract.from_record({**impl, **declared, "command": ""})


def unclaimed(report: dict[str, Any]) -> frozenset[str]:
    """The profiles ``report`` ran that its implementation never claimed: from the recorded contract, else
    from the records (a run marks a profile it never declared ``claimed: false``)."""
    contract = from_report(report)
    ran = {str(r.get("profile")) for r in report.get("results", ())}
    if contract.info.profiles:
        return frozenset(p for p in ran if not contract.claims(p))
    return frozenset(str(r.get("profile")) for r in report.get("results", ()) if r.get("claimed") is False)
