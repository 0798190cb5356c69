"""The report, matrix and compare pages say why a cell is red (rule sources and interpretations, as the terminal
prints them), what did not run and why, show the claimed profiles unless asked, and name a mark's profile."""

from __future__ import annotations

import json
import re
import sys
from html import escape
from pathlib import Path
from typing import Any

import pytest
from conftest import run_report

from conformance.cli import main
from conformance.corpus.scenarios import Scenario
from conformance.docs.comparehtml import render_comparison
from conformance.docs.htmlreport import BAD, render_report
from conformance.docs.matrix import render_matrix
from conformance.judging.compare import compare_reports
from conformance.wording import citation_text, not_run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
from app_only import AppOnly

SECTION = re.compile(r'<section class="scenario" id="([^"]+)">(.*?)</section>', re.S)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def app_only_report(tmp_path_factory: pytest.TempPathFactory, corpus: list[Scenario]) -> Path:
    """The report of an engine that claims the app alone and lacks game codes, tap and legal moves."""
    path = tmp_path_factory.mktemp("app-only") / "report.json"
    run_report(path, AppOnly(), corpus)
    return path


def check_grounds(html: str, records: list[dict[str, Any]], corpus: list[Scenario]) -> int:
    """Every failure section carries its scenario's sources and interpretations; returns how many sections."""
    by_id = {sc.id: sc for sc in corpus}
    sections = dict(SECTION.findall(html))
    bad = [r for r in records if r["verdict"] in BAD]
    for r in bad:
        body = next(text for anchor, text in sections.items() if anchor.endswith(f"{r['id']}[{r['profile']}]"))
        sc = by_id[r["id"]]
        for c in sc.sources:
            assert escape(f"rule: {citation_text(c)}") in body, (r["id"], c)
        if sc.interpretations:
            assert f"interpretation: {', '.join(sc.interpretations)}" in body
    return len(bad)


def test_every_failure_on_the_report_page_says_why(faulty_report: Path, corpus: list[Scenario]) -> None:
    data = load(faulty_report)
    html = render_report(data, all_profiles=True)
    assert check_grounds(html, data["results"], corpus) > 0
    assert html.count("§") >= sum(r["verdict"] in BAD for r in data["results"])
    assert "_3303cbcae4869e02" not in html and "000 (Indonesian) § " in html


def test_the_matrix_and_compare_pages_say_why_too(
    faulty_report: Path, reference_report: Path, corpus: list[Scenario]
) -> None:
    faulty, reference = load(faulty_report), load(reference_report)
    assert check_grounds(render_matrix([reference, faulty]), faulty["results"], corpus) > 0
    comparison = compare_reports(reference, faulty)
    page = render_comparison(comparison)
    for change in comparison.changes:
        if change.new in BAD:
            row = re.search(rf"<tr[^>]*><td>{re.escape(change.key)}</td>(.*?)</tr>", page, re.S)
            assert row and "rule: " in row.group(1) + "interpretation: ", change.key
    assert page.count("§") > 0


def test_the_report_page_opens_with_the_totals_and_what_did_not_run(app_only_report: Path) -> None:
    data = load(app_only_report)
    html = render_report(data)
    first, table = html.index('class="totals'), html.index('<table class="header"')
    assert first < table
    records = data["results"]
    assert f"{len(records)} scenario runs of {len({r['id'] for r in records})} scenarios: " in html
    for line in not_run(records).lines():
        assert escape(line) in html
    assert "need game-codes" in html


def test_only_claimed_profiles_are_listed_unless_asked(app_only_report: Path, tmp_path: Path) -> None:
    data = load(app_only_report)
    claimed, everything = render_report(data), render_report(data, all_profiles=True)
    assert "<th>app</th>" in claimed and "<th>open</th>" not in claimed and "<th>app+four</th>" not in claimed
    assert "<th>open</th>" in everything and "--all-profiles" in claimed
    out = tmp_path / "all.html"
    assert main(["html-report", str(app_only_report), "--out", str(out), "--all-profiles"]) == 0
    assert "<th>open</th>" in out.read_text(encoding="utf-8")


def test_the_matrix_names_each_marks_profile_and_leaves_unclaimed_ones_out(
    app_only_report: Path, reference_report: Path, tmp_path: Path
) -> None:
    reports = [load(reference_report), load(app_only_report)]
    html = render_matrix(reports)
    marks = re.findall(r'data-profile="([^"]+)"[^>]*>[^<]*<small class="prof">([^<]+)</small>', html)
    assert marks and all(profile == shown for profile, shown in marks)
    app_only_marks = {p for p, _ in re.findall(r'data-impl="1"[^>]*data-profile="([^"]+)"()', html)}
    assert app_only_marks == {"app"}
    assert "in profiles not claimed are left out" in html
    everything = render_matrix(reports, all_profiles=True)
    assert "open" in {p for p, _ in re.findall(r'data-impl="1"[^>]*data-profile="([^"]+)"()', everything)}
    out = tmp_path / "m.html"
    assert main(["matrix", str(reference_report), str(app_only_report), "--out", str(out), "--all-profiles"]) == 0
