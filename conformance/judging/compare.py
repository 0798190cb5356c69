"""What changed between two JSON run reports: the regression gate of ``crescent-conformance compare``.

Records are matched on ``id[profile]``. Each pair that differs is one Change of one kind:

- ``newly-failing`` / ``newly-errored`` / ``newly-skipped`` / ``newly-passing``: the verdict moved
  to failed / errored / skipped / passed;
- ``changed``: the same verdict, different details (the failing step, the mismatches, the skip or
  error text, the checks not made for want of a capability);
- ``added`` / ``removed``: the record is in only one report.

Verdicts are read as each report's contract has them (conformance.judging.report.outcome): a known
difference of the expectations file used is ``expected failure`` (``unexpectedly passed`` when it
passed), a profile the implementation never claimed is ``not claimed``. A change is a **regression**
when the new verdict is bad (failed, errored, unexpectedly passed) and the old one was not (or there
was none), or when a passing record is now skipped; an expected failure or a profile not claimed is
never one. Between two implementations only the profiles both claim are compared. ``--allow`` lists
ids that may regress; every other regression fails the gate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.contract.contract import from_report, unclaimed
from conformance.contract.expectations import load_expectations
from conformance.judging.report import outcome

BAD = frozenset({"failed", "errored", "xpassed", "unexpectedly passed"})
KINDS = ("newly-failing", "newly-errored", "newly-skipped", "newly-passing", "changed", "added", "removed")
_NEW_VERDICT_KIND = {"failed": "newly-failing", "errored": "newly-errored", "skipped": "newly-skipped",
                     "passed": "newly-passing"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Change:
    """One scenario-in-profile that differs between the old and the new report."""

    id: str
    profile: str
    area: str
    kind: str
    old: str | None
    new: str | None
    old_detail: tuple[str, ...] = ()
    new_detail: tuple[str, ...] = ()
    across: bool = False  # the reports are of two implementations: what one does not offer is no regression

    @property
    def key(self) -> str:
        """``id[profile]``."""
        return f"{self.id}[{self.profile}]"

    @property
    def regression(self) -> bool:
        """The new verdict is bad and the old was not, or (of one implementation) a pass became a skip."""
        skipped = self.old == "passed" and self.new == "skipped" and not self.across
        return (self.new in BAD and self.old not in BAD) or skipped

    def as_dict(self) -> dict[str, Any]:
        """The change as JSON."""
        return {"id": self.id, "profile": self.profile, "area": self.area, "kind": self.kind, "old": self.old,
                "new": self.new, "regression": self.regression, "old_detail": list(self.old_detail),
                "new_detail": list(self.new_detail)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two reports' headers, what changed between them, and which regressions are allowed."""

    old: dict[str, Any]
    new: dict[str, Any]
    changes: tuple[Change, ...]
    allowed: frozenset[str] = frozenset()

    def is_allowed(self, change: Change) -> bool:
        """Listed by ``--allow``: the scenario id, or ``id[profile]``."""
        return change.id in self.allowed or change.key in self.allowed

    @property
    def regressions(self) -> list[Change]:
        """Regressions not allowed: the gate fails when there is any."""
        return [c for c in self.changes if c.regression and not self.is_allowed(c)]

    @property
    def allowed_regressions(self) -> list[Change]:
        """Regressions that ``--allow`` lets through."""
        return [c for c in self.changes if c.regression and self.is_allowed(c)]

    def of_kind(self, kind: str) -> list[Change]:
        """The changes of one kind, in report order."""
        return [c for c in self.changes if c.kind == kind]

    def counts_by(self, field: str) -> dict[str, Counter[str]]:
        """Per area (``field="area"``) or per profile: how many changes of each kind."""
        table: dict[str, Counter[str]] = {}
        for c in self.changes:
            table.setdefault(getattr(c, field), Counter())[c.kind] += 1
        return dict(sorted(table.items()))

    def notes(self) -> list[str]:
        """What the reader must know before trusting the comparison (other corpus, other engine, partial)."""
        return header_notes(self.old, self.new)


def details(record: dict[str, Any] | None) -> tuple[str, ...]:
    """What a record says beyond its verdict: the failing step and mismatches, or the skip/error text;
    then the checks it could not make (``unchecked``)."""
    if record is None:
        return ()
    unchecked = tuple(f"not checked: {u}" for u in record.get("unchecked", []))
    fail = record.get("failure")
    if fail:
        where = f"step {fail.get('step')}: {fail.get('action')}" if fail.get("action") else "given position"
        return (where, *fail.get("mismatches", []), *unchecked)
    return ((record["detail"],) if record.get("detail") else ()) + unchecked


def kind_of(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str | None:
    """The kind of change from ``old`` to ``new`` (either may be absent), or None when they agree."""
    if old is None or new is None:
        return "added" if old is None else "removed"
    if verdict_of(old) != verdict_of(new):
        return _NEW_VERDICT_KIND.get(outcome(new), "changed")
    return "changed" if details(old) != details(new) else None


def keyed(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Records by (id, profile)."""
    return {(r["id"], r["profile"]): r for r in records}


def verdict_of(record: dict[str, Any] | None) -> str | None:
    """A record's verdict as its report's contract reads it (``expected failure``, ``not claimed``, ...)."""
    return outcome(record) if record is not None else None


def compare_records(
    old: Iterable[dict[str, Any]],
    new: Iterable[dict[str, Any]],
    left_out: frozenset[str] | None = None,
) -> list[Change]:
    """Every difference between two lists of records, sorted by area, id and profile. ``left_out`` (the
    reports are of two implementations): the profiles not compared, as one of them never claimed them."""
    across = left_out is not None
    left_out = left_out or frozenset()
    before, after = keyed(old), keyed(new)
    changes = []
    for key in sorted(before.keys() | after.keys()):
        if key[1] in left_out:
            continue
        a, b = before.get(key), after.get(key)
        kind = kind_of(a, b)
        if kind is not None:
            area = (b or a or {}).get("area", "?")
            verdict_a, verdict_b = verdict_of(a), verdict_of(b)
            changes.append(Change(key[0], key[1], area, kind, verdict_a, verdict_b, details(a), details(b), across))
    return sorted(changes, key=lambda c: (c.area, c.id, c.profile))


def header_of(report: dict[str, Any]) -> dict[str, Any]:
    """A report without its records."""
    return {k: v for k, v in report.items() if k != "results"}


def compare_reports(old: dict[str, Any], new: dict[str, Any], allowed: Iterable[str] = ()) -> Comparison:
    """Compare two loaded reports (conformance.docs.htmlreport.read_report)."""
    changes = compare_records(old["results"], new["results"], not_both_claimed(old, new))
    return Comparison(header_of(old), header_of(new), tuple(changes), frozenset(allowed))


def same_implementation(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two reports are of one implementation (its name, and its label when either has one)."""
    a, b = from_report(old), from_report(new)
    return a.info.name == b.info.name and a.label == b.label


def not_both_claimed(old: dict[str, Any], new: dict[str, Any]) -> frozenset[str] | None:
    """Between two implementations, the profiles one of them never claimed (left out of the comparison);
    None for two reports of one implementation."""
    if same_implementation(old, new):
        return None
    return unclaimed(old) | unclaimed(new)


def header_notes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Warnings about comparing these two reports."""
    notes = []
    if old.get("corpus_version") != new.get("corpus_version"):
        notes.append(
            f"the reports are of different corpus versions ({old.get('corpus_version')} and "
            f"{new.get('corpus_version')}): added, removed and changed records may come from the corpus, "
            "not from the implementation"
        )
    if old.get("kit_version") != new.get("kit_version"):
        notes.append(f"the reports come from different kit versions ({old.get('kit_version')} and "
                     f"{new.get('kit_version')})")  # fmt: skip
    if not same_implementation(old, new):
        notes.append(f"the reports are of different implementations ({implementation(old)} and {implementation(new)}):"
                     " only the profiles both claim are compared")  # fmt: skip
    partial = [(which, gone) for which, data, gone in (("old", old, "added"), ("new", new, "removed"))
               if not data.get("complete")]  # fmt: skip
    notes += [f"the {which} report is of a PARTIAL run: records it lacks show as {gone}" for which, gone in partial]
    return notes


def implementation(report: dict[str, Any]) -> str:
    """``name version`` of a report's implementation."""
    impl = report.get("implementation", {})
    label = from_report(report).label
    return f"{impl.get('name', '?')} {impl.get('version', '?')}" + (f" [{label}]" if label else "")


def read_allow_file(path: Path) -> list[str]:
    """Ids of an allow file: one a line (``id`` or ``id[profile]``), ``#`` starts a comment.

    A ``.yaml`` file is read as an expectations file (conformance.contract.expectations): its known
    deviations may regress.
    """
    if path.suffix in (".yaml", ".yml"):
        return list(load_expectations(path).deviations)
    from conformance.reading import read_text

    text = read_text(path, "allow file")
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]
