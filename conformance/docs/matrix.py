"""Many implementations side by side: one self-contained page from several JSON run reports.

Columns are implementations (their header: name, version, language, totals, and, when the report
carries them, observation capabilities and declared deviations). Rows are rule areas, each a
collapsible group of one row per scenario; a cell holds one mark per profile the scenario ran in,
and a failed or errored mark links to its failure detail further down the same page. Areas where
every implementation passed everything start collapsed (a small script; without it all is open).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import Any

from conformance.contract import from_report
from conformance.docs.html import page, raw, tag
from conformance.docs.htmlreport import BAD, MARKS, default_replay, failure_block, mark_of
from conformance.docs.htmlreport import CSS as REPORT_CSS
from conformance.wording import RUNS

# Report header fields on what the implementation declared (spec/schema/report.schema.json): its
# capabilities, its declared deviations, and the observations it lacks (capability -> what is not compared).
EXTRA_FIELDS = (
    ("capabilities", "capabilities"),
    ("deviations", "deviations"),
    ("unchecked", "not checked"),
)
SCRIPT = """
document.querySelectorAll('tbody.area').forEach(function (group) {
  var button = group.querySelector('button.toggle');
  function show(open) { group.classList.toggle('collapsed', !open); button.setAttribute('aria-expanded', open); }
  button.addEventListener('click', function () { show(group.classList.contains('collapsed')); });
  show(group.dataset.allPassed !== 'true');
});
document.querySelectorAll('button.all').forEach(function (button) {
  button.addEventListener('click', function () {
    document.querySelectorAll('tbody.area').forEach(function (group) {
      group.classList.toggle('collapsed', button.dataset.open !== 'true');
      group.querySelector('button.toggle').setAttribute('aria-expanded', button.dataset.open);
    });
  });
});
"""

Records = dict[str, list[dict[str, Any]]]
# Outcomes that need no one's attention: a pass, a known difference that still differs, a profile never claimed.
QUIET = ("passed", "expected-failure", "not-claimed")


def render_matrix(reports: list[dict[str, Any]], all_profiles: bool = False) -> str:
    """The whole page for ``reports`` (loaded with conformance.docs.htmlreport.read_report); the profiles an
    implementation does not claim are left out of its column unless ``all_profiles``."""
    hidden = 0 if all_profiles else sum(r.get("claimed") is False for data in reports for r in data["results"])
    reports = reports if all_profiles else [claimed_only(r) for r in reports]
    names = ", ".join(implementation_name(r) for r in reports)
    body = [
        tag("h1", f"Conformance matrix: {len(reports)} implementations"),
        "".join(tag("p", f"Note: {n}", "muted") for n in matrix_notes(reports)),
        tag("p", f"{hidden} {RUNS} in profiles not claimed are left out (--all-profiles shows them).", "muted")
        if hidden else "",
        legend(reports),
        raw("div", table(reports), "wide"),
        *(failures(i, r) for i, r in enumerate(reports)),
        f"<script>{SCRIPT}</script>",
    ]
    return page(f"Crescent conformance matrix: {names}", "".join(body), wide=True, css=REPORT_CSS)


def claimed_only(report: dict[str, Any]) -> dict[str, Any]:
    """The report without its records of profiles the implementation does not claim."""
    return {**report, "results": [r for r in report["results"] if r.get("claimed") is not False]}


def implementation_name(report: dict[str, Any]) -> str:
    """``name version``, and the run's label when it has one (two builds of one name stay apart)."""
    impl = report["implementation"]
    label = from_report(report).label or impl.get("label", "")
    return f"{impl['name']} {impl['version']}" + (f" [{label}]" if label else "")


def matrix_notes(reports: list[dict[str, Any]]) -> list[str]:
    """Corpus versions that differ, partial runs."""
    notes = []
    versions = sorted({str(r.get("corpus_version")) for r in reports})
    if len(versions) > 1:
        notes.append(f"the reports are of different corpus versions ({', '.join(versions)}): rows may differ")
    notes += [f"{implementation_name(r)}: PARTIAL run" for r in reports if not r.get("complete")]
    return notes


def legend(reports: list[dict[str, Any]]) -> str:
    """What the marks mean, and buttons to open or close every area."""
    seen = {mark_of(r) for data in reports for r in data["results"]}
    marks = "  ".join(f"{MARKS.get(v, '?')} {v}" for v in MARKS if v in seen)
    buttons = "".join(raw("button", label, "all", type="button", data_open=flag)
                      for label, flag in (("open all areas", "true"), ("close all areas", "false")))  # fmt: skip
    return raw("p", escape(marks) + " " + buttons, "muted")


def table(reports: list[dict[str, Any]]) -> str:
    """The matrix: a header row of implementations, then one group of rows per area."""
    head = raw("tr", tag("th", "area / scenario") + "".join(column_head(i, r) for i, r in enumerate(reports)))
    by_report = [by_id(r["results"]) for r in reports]
    groups = "".join(area_group(area, scenarios, by_report) for area, scenarios in rows(reports).items())
    return raw("table", raw("thead", head) + groups, "matrix multi")


def by_id(records: list[dict[str, Any]]) -> Records:
    """A report's records by scenario id, profiles in report order."""
    found: Records = {}
    for r in records:
        found.setdefault(r["id"], []).append(r)
    return found


@dataclass(frozen=True, slots=True)
class Row:
    """A scenario's row: its title and the profiles any report ran it in (first-seen order)."""

    title: str
    profiles: tuple[str, ...]


def rows(reports: list[dict[str, Any]]) -> dict[str, dict[str, Row]]:
    """Area -> scenario id -> row, over every report, sorted."""
    titles: dict[str, dict[str, str]] = {}
    profiles: dict[str, dict[str, None]] = {}
    for data in reports:
        for r in data["results"]:
            titles.setdefault(r["area"], {}).setdefault(r["id"], r.get("title", ""))
            profiles.setdefault(r["id"], {})[r["profile"]] = None
    return {area: {sid: Row(title, tuple(profiles[sid])) for sid, title in sorted(ids.items())}
            for area, ids in sorted(titles.items())}  # fmt: skip


def column_head(index: int, report: dict[str, Any]) -> str:
    """One implementation: name, version, language, totals, extras from the header, a link to its failures."""
    impl = report["implementation"]
    counts = Counter(mark_of(r) for r in report["results"])
    unmade = sum(bool(r.get("unchecked")) for r in report["results"])
    lines = [
        raw("strong", escape(implementation_name(report))) + f" ({escape(impl.get('language', '?'))})",
        escape(f"{len(report['results'])} {RUNS}: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))),
        escape(f"kit {report.get('kit_version')}, corpus {report.get('corpus_version')}, {report.get('time')}"),
        *(f"{escape(label)}: {escape(text)}" for label, text in extras(report)),
        *([f"{unmade} runs with checks not made"] if unmade else []),
        f'<a href="#impl-{index}-failures">failures ({sum(counts[v] for v in BAD)})</a>',
    ]
    return raw("th", "<br>".join(lines), "impl", data_impl=str(index))


def extras(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Capabilities, deviations and unmade checks when the header (or its implementation) has them."""
    found = []
    for field, label in EXTRA_FIELDS:
        value = report.get(field, report["implementation"].get(field))
        if value not in (None, [], {}):
            found.append((label, deviations_text(value) if field == "deviations" else plain(value)))
    return found


def deviations_text(value: Any) -> str:
    """``app, except pile_limit=null, undo_limit=5`` for ``{"app": {"pile_limit": null, "undo_limit": 5}}``."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        return plain(value)
    return "; ".join(
        f"{base}, except " + ", ".join(f"{k}={json.dumps(v)}" for k, v in params.items())
        for base, params in value.items()
    )


def plain(value: Any) -> str:
    """A header value as short text: lists joined, mappings as ``key (value)``, other values as JSON."""
    if isinstance(value, dict):
        return ", ".join(f"{k} ({v})" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def area_group(area: str, scenarios: dict[str, Row], by_report: list[Records]) -> str:
    """A tbody: the area's row (counts per implementation), then one row per scenario."""
    cells = [[r for sid in scenarios for r in records.get(sid, [])] for records in by_report]
    all_passed = all(mark_of(r) in QUIET for column in cells for r in column)
    button = raw("button", f"{escape(area)} ({len(scenarios)})", "toggle", type="button", aria_expanded="true")
    head = raw("tr", raw("th", button) + "".join(area_cell(c) for c in cells), "area-row")
    body = "".join(scenario_row(sid, row, by_report) for sid, row in scenarios.items())
    return raw("tbody", head + body, "area", data_area=area, data_all_passed=str(all_passed).lower())


def area_cell(records: list[dict[str, Any]]) -> str:
    """``passed/ran`` for an area in one implementation."""
    records = [r for r in records if mark_of(r) != "not-claimed"]
    if not records:
        return tag("td", "–", "zero")
    passed = sum(mark_of(r) == "passed" for r in records)
    quiet = all(mark_of(r) in QUIET for r in records)
    cls = "cell-bad" if any(mark_of(r) in BAD for r in records) else "cell-ok" if quiet else ""
    return tag("td", f"{passed}/{len(records)}", cls)


def scenario_row(sid: str, row: Row, by_report: list[Records]) -> str:
    """One scenario: its id (title and profiles on hover), then one cell per implementation."""
    cells = "".join(scenario_cell(i, records.get(sid, []), row.profiles) for i, records in enumerate(by_report))
    hint = f"{row.title} — profiles: {', '.join(row.profiles)}"
    return raw("tr", tag("th", sid, "sid", title=hint) + cells, "scenario-row")


def scenario_cell(index: int, records: list[dict[str, Any]], profiles: tuple[str, ...]) -> str:
    """A mark per profile, in the row's profile order (a dot where this report has none); failures link."""
    if not records:
        return tag("td", "", "zero")
    cls = "cell-bad" if any(mark_of(r) in BAD for r in records) else (
        "cell-ok" if all(mark_of(r) in QUIET for r in records) else "")  # fmt: skip
    by_profile = {r["profile"]: r for r in records}
    marks = [mark(index, by_profile[p]) if p in by_profile else tag("span", "·", "mark none", title=f"{p}: not run")
             for p in profiles]  # fmt: skip
    return raw("td", " ".join(marks), cls)


def anchor(index: int, record: dict[str, Any]) -> str:
    """The id of a record's failure detail on the page."""
    return f"f-{index}-{record['id']}[{record['profile']}]"


def mark(index: int, record: dict[str, Any]) -> str:
    """One scenario-in-profile's verdict mark (a link for a failure), with data attributes for checks."""
    verdict = mark_of(record)
    hint = f"{record['profile']}: {verdict}" + (f" ({record['detail']})" if record.get("detail") else "")
    hint += "".join(f"; not checked: {u}" for u in record.get("unchecked", []))
    attrs = {"data_impl": str(index), "data_id": record["id"], "data_profile": record["profile"],
             "data_verdict": verdict, "title": hint}  # fmt: skip
    text = escape(MARKS.get(verdict, "?")) + tag("small", record["profile"], "prof")
    if verdict in BAD:
        return raw("a", text, f"mark {verdict}", href="#" + anchor(index, record), **attrs)
    return raw("span", text, f"mark {verdict}", **attrs)


def failures(index: int, report: dict[str, Any]) -> str:
    """One implementation's failure details (each a section the matrix links to)."""
    bad = [r for r in report["results"] if mark_of(r) in BAD]
    replay = default_replay(report)
    blocks = "".join(failure_block(r, replay, anchor(index, r)) for r in bad) or tag("p", "None.")
    title = tag("h2", f"Failures of {implementation_name(report)} ({len(bad)})", id=f"impl-{index}-failures")
    return title + blocks
