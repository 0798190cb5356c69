"""``compare``: what changed between two run reports, and the regression gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.judging.compare import Change, compare_records, compare_reports, kind_of


def record(sid: str, verdict: str, profile: str = "app", area: str = "piles", **extra: Any) -> dict[str, Any]:
    """One report record."""
    return {"id": sid, "profile": profile, "area": area, "title": sid, "file": "f.yaml", "line": 1,
            "verdict": verdict, "detail": "", **extra}  # fmt: skip


def failure(*mismatches: str, step: int = 1) -> dict[str, Any]:
    """A record's failure part."""
    return {"failure": {"step": step, "action": "p1-p2", "line": 3, "mismatches": list(mismatches), "after": "x"}}


def report(records: list[dict[str, Any]], **header: Any) -> dict[str, Any]:
    """A whole report around ``records``."""
    summary: dict[str, int] = {}
    for r in records:
        summary[r["verdict"]] = summary.get(r["verdict"], 0) + 1
    base = {"kit_version": "0.1.0", "corpus_version": "1", "time": "T",
            "implementation": {"name": "game", "version": "1", "language": "js"}, "profiles": ["app"],
            "complete": True, "summary": summary, "results": records}  # fmt: skip
    return {**base, **header}


OLD = [
    record("a", "passed"),
    record("b", "passed"),
    record("c", "failed", **failure("reason: expected 'wrong-suit', got 'wrong-rank'")),
    record("d", "errored", detail="crashed"),
    record("e", "passed", profile="open", area="undo"),
    record("f", "passed"),
    record("g", "failed", **failure("status: expected 'won', got 'lost'")),
]
NEW = [
    record("a", "failed", **failure("pile p1: expected 'K♣', got ''")),
    record("b", "passed"),
    record("c", "failed", **failure("reason: expected 'wrong-suit', got None")),
    record("d", "passed"),
    record("e", "skipped", profile="open", area="undo", detail="needs capability undo"),
    record("g", "failed", **failure("status: expected 'won', got 'lost'")),
    record("h", "errored", detail="hung"),
]


def kinds(changes: list[Change]) -> dict[str, str]:
    """Change kind by scenario id."""
    return {c.id: c.kind for c in changes}


def test_each_difference_gets_its_kind() -> None:
    assert kinds(compare_records(OLD, NEW)) == {
        "a": "newly-failing", "c": "changed", "d": "newly-passing", "e": "newly-skipped", "f": "removed",
        "h": "added",
    }  # fmt: skip


def test_regressions_are_new_bad_verdicts_and_lost_passes() -> None:
    changes = compare_records(OLD, NEW)
    assert sorted(c.id for c in changes if c.regression) == ["a", "e", "h"]
    assert kind_of(record("x", "errored"), record("x", "failed")) == "newly-failing"
    assert not Change("x", "app", "piles", "newly-failing", "errored", "failed").regression


def test_checks_no_longer_made_are_a_change_of_a_passing_record() -> None:
    change = compare_records([record("a", "passed")], [record("a", "passed", unchecked=["reason (no capability)"])])
    assert [(c.kind, c.regression, c.new_detail) for c in change] == [
        ("changed", False, ("not checked: reason (no capability)",))
    ]


def test_a_changed_failure_shows_both_mismatches() -> None:
    change = next(c for c in compare_records(OLD, NEW) if c.id == "c")
    assert change.old_detail[-1].endswith("'wrong-rank'") and change.new_detail[-1].endswith("None")


def test_allowed_ids_let_regressions_through_by_id_or_by_profile() -> None:
    comparison = compare_reports(report(OLD), report(NEW), ["a", "e[open]"])
    assert [c.id for c in comparison.regressions] == ["h"]
    assert sorted(c.id for c in comparison.allowed_regressions) == ["a", "e"]
    assert compare_reports(report(OLD), report(NEW), ["e[app]"]).is_allowed(compare_records(OLD, NEW)[0]) is False


def test_counts_per_area_and_per_profile() -> None:
    comparison = compare_reports(report(OLD), report(NEW))
    assert comparison.counts_by("area")["undo"] == {"newly-skipped": 1}
    assert comparison.counts_by("profile")["open"] == {"newly-skipped": 1}
    assert sum(comparison.counts_by("profile")["app"].values()) == 5


def test_other_corpus_versions_and_partial_runs_are_said() -> None:
    notes = compare_reports(report(OLD), report(NEW, corpus_version="2", complete=False)).notes()
    assert any("different corpus versions (1 and 2)" in n for n in notes)
    assert any("new report is of a PARTIAL run" in n for n in notes)
    assert compare_reports(report(OLD), report(OLD)).notes() == []


def write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    """A report file."""
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_command_is_a_ci_gate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = write(tmp_path, "old.json", report(OLD)), write(tmp_path, "new.json", report(NEW))
    assert main(["compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "Newly failing (1):" in out and "a[app]" in out and out.rstrip().endswith("regressed")
    assert main(["compare", str(old), str(old)]) == 0
    allow = tmp_path / "allow.txt"
    allow.write_text("# known\na\nh  # crashes on load\n", encoding="utf-8")
    assert main(["compare", str(old), str(new), "--allow-file", str(allow), "--allow", "e"]) == 0
    assert "3 more allowed" in capsys.readouterr().out
    expectations = tmp_path / "crescent-expectations.yaml"
    expectations.write_text("deviations:\n  a: known\n  e[open]: no undo\n  h[app]: crash\n", encoding="utf-8")
    assert main(["compare", str(old), str(new), "--allow-file", str(expectations)]) == 0


def test_json_and_html_output(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.json", report(OLD)), write(tmp_path, "new.json", report(NEW))
    assert main(["compare", str(old), str(new), "--format", "json", "--out", str(tmp_path / "c.json")]) == 1
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["regressions"] == 3 and {c["kind"] for c in data["changes"]} >= {"added", "removed", "changed"}
    assert main(["compare", str(old), str(new), "--format", "html", "--out", str(tmp_path / "c.html")]) == 1
    html = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count('data-regression="true"') == 3
    assert "Newly failing (1)" in html and "was: step 1: p1-p2" in html


def test_a_broken_report_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(tmp_path, "old.json", report(OLD))
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["compare", str(old), str(tmp_path / "bad.json")]) == 2
    assert "bad.json" in capsys.readouterr().err
    broken = write(tmp_path, "broken.json", {**report([]), "results": [{"id": "a", "profile": "app"}]})
    assert main(["compare", str(old), str(broken)]) == 2
    err = capsys.readouterr().err
    assert "broken.json:1: $.results[0]: not a report record: missing area, verdict" in err
