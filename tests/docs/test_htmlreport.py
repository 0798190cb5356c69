"""The HTML conformance report: header, the profile x area matrix, each failure with its table and replay."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.docs.htmlreport import matrix, mismatch_table, read_report, render_report, write_html_report
from crescent_ref.errors import ScenarioError


def load(path: Path) -> dict[str, Any]:
    """A JSON report."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def cell_numbers(html: str) -> int:
    """The sum of the counts in the matrix cells (the 'all' column excluded)."""
    total = 0
    for row in re.findall(r"<tr><th>[^<]*</th>(.*?)</tr>", html):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)[:-1]
        total += sum(int(n) for cell in cells for n in re.findall(r">(\d+)\D", cell))
    return total


def test_the_faulty_run_has_failures_and_errors(faulty_report: Path) -> None:
    summary = load(faulty_report)["summary"]
    assert summary.get("failed", 0) > 0 and summary.get("errored", 0) > 0 and summary.get("passed", 0) > 0


def test_header_names_the_implementation_versions_time_and_completeness(faulty_report: Path) -> None:
    data = load(faulty_report)
    html = render_report(data)
    for text in ("no-wrap 0.0.1 (python)", f"kit {data['kit_version']}", data["time"], "complete run"):
        assert text in html
    assert "PARTIAL run" in render_report({**data, "complete": False})


def test_the_matrix_counts_every_record_once(faulty_report: Path) -> None:
    records = load(faulty_report)["results"]
    table = matrix(records)
    assert cell_numbers(table) == len(records)
    for profile in {r["profile"] for r in records}:
        assert f"<th>{profile}</th>" in table
    assert "cell-bad" in table and "cell-ok" in table


def test_an_unknown_verdict_gets_its_own_column_in_the_legend() -> None:
    records = [
        {"profile": "app", "area": "piles", "verdict": "xfailed"},
        {"profile": "app", "area": "piles", "verdict": "passed"},
    ]
    table = matrix(records)
    assert "x xfailed" in table and cell_numbers(table) == 2


def test_each_failure_has_its_section_mismatches_drawing_and_replay(faulty_report: Path) -> None:
    data = load(faulty_report)
    html = render_report(data, '--cmd "python no_wrap.py"')
    bad = [r for r in data["results"] if r["verdict"] in ("failed", "errored")]
    assert f"Failures ({len(bad)})" in html
    for r in bad:
        start = html.index(f'id="{r["id"]}[{r["profile"]}]"')
        block = html[start : html.index("</section>", start)]
        assert f'crescent-conformance run --cmd "python no_wrap.py" --profile {r["profile"]} --id {r["id"]}' in (
            block.replace("&quot;", '"')
        )
        if r["verdict"] == "failed":
            assert '<svg class="table"' in block and "<th>expected</th>" in block
        else:
            assert r["detail"][:30].replace("'", "&#x27;") in block


def test_a_passing_run_lists_no_failures(reference_report: Path) -> None:
    html = render_report(load(reference_report))
    assert "Failures (0)" in html and '<svg class="table"' not in html
    assert "--impl reference" not in html


def test_mismatch_rows_split_expected_from_actual() -> None:
    table = mismatch_table(["pile p1: expected 'K♣,A♠', got 'K♣'", "something odd"])
    assert "<td>pile p1</td><td>&#x27;K♣,A♠&#x27;</td><td>&#x27;K♣&#x27;</td>" in table
    assert "<td>something odd</td><td></td><td></td>" in table


def test_an_unreadable_position_is_shown_as_text(faulty_report: Path) -> None:
    data = load(faulty_report)
    failed = next(r for r in data["results"] if r["verdict"] == "failed")
    broken = {**failed, "failure": {**failed["failure"], "after": "<unreadable state: 'piles'>"}}
    html = render_report({**data, "results": [broken]})
    assert "could not be read as a table" in html and '<svg class="table"' not in html


def test_the_html_report_command(tmp_path: Path, faulty_report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["html-report", str(faulty_report), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>") and str(out) in capsys.readouterr().out
    copy = tmp_path / "copy.json"
    copy.write_text(faulty_report.read_text(encoding="utf-8"), encoding="utf-8")
    assert write_html_report(copy) == tmp_path / "copy.html"


def test_a_file_that_is_not_a_report_is_named_in_the_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": []}', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.json.*missing .*implementation"):
        read_report(bad)
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.json.*not a readable JSON report"):
        read_report(bad)
    assert main(["html-report", str(bad)]) == 2
