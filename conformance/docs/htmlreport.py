"""A JSON run report (conformance.judging.report.write_records) as one self-contained HTML page."""

from __future__ import annotations

from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

from conformance.contract import from_report
from conformance.docs.html import page, raw, tag
from conformance.docs.svg import changed_places, table_svg
from conformance.files import check_writable, write_atomic
from conformance.judging.report import BAD_OUTCOMES, counts, outcome
from conformance.reportfile import place
from conformance.reportfile import read_report as read_report
from conformance.wording import claimed_profiles, grounds_of, not_run, shown_path, spoiled, spoiled_blocks, unit_line
from crescent_ref.errors import CrescentError
from crescent_ref.position import Position

VERDICTS = ("passed", "failed", "errored", "skipped", "xfailed", "expected-failure", "xpassed", "not-claimed")
BAD = ("failed", "errored", "xpassed")
# The report's own layout: a profile x area table that wraps its cells between marks rather than run past the
# page (it fitted 1400 px only for one verdict a cell), mismatch cells that break long position texts, and the
# totals in a line of their own at the top.
CSS = """
table.report-matrix td { white-space:normal; min-width:2.6rem; } table.report-matrix td span { white-space:nowrap; }
table.report-matrix th { overflow-wrap:anywhere; }
table.mismatches td { overflow-wrap:anywhere; }
.summary .totals { font-weight:bold; padding:.3rem .6rem; border-radius:6px; margin:.4rem 0; }
.summary .why { margin:.2rem 0; }
table.multi td { white-space:normal; } table.multi .mark { white-space:nowrap; display:inline-block; }
.mark small.prof { font-size:.8em; color:var(--muted); font-weight:normal; margin-left:.1em; }
table.multi .mark.failed, table.multi .mark.errored, table.multi .mark.xpassed { background:var(--bad); color:#fff;
  border-radius:3px; padding:0 .25em; } table.multi .mark.failed small.prof, table.multi .mark.errored small.prof,
  table.multi .mark.xpassed small.prof { color:#fff; }
"""
MARKS = {"passed": "✓", "failed": "✗", "errored": "!", "skipped": "–", "xfailed": "x", "expected-failure": "x",
         "xpassed": "‼", "not-claimed": "○"}  # fmt: skip
# How a record is shown: its outcome under the recorded contract (conformance.judging.report.outcome).
SHOWN = {"expected failure": "expected-failure", "unexpectedly passed": "xpassed", "not claimed": "not-claimed"}


def mark_of(record: dict[str, Any]) -> str:
    """The mark a record gets: a known difference as expected-failure (and one that passed as xpassed), a
    profile the implementation never claimed as not-claimed (neither a failure nor a skip), else the verdict."""
    found = outcome(record)
    return SHOWN.get(found, found)


def verdicts(records: list[dict[str, Any]]) -> list[str]:
    """The verdicts present, known ones first in a fixed order."""
    seen = {mark_of(r) for r in records}
    return [v for v in VERDICTS if v in seen] + sorted(seen - set(VERDICTS))


def default_replay(data: dict[str, Any]) -> str:
    """How to name the implementation in replay commands when the caller does not say: as the report's
    contract recorded it (command, expectations, label), else a placeholder."""
    contract = from_report(data)
    if contract.command:
        return contract.options()
    return "--impl reference" if data["implementation"]["name"] == "crescent_ref" else '--cmd "YOUR-ADAPTER"'


def render_report(data: dict[str, Any], replay: str | None = None, *, all_profiles: bool = False) -> str:
    """The whole report page (``all_profiles``: also the rows of profiles the implementation does not claim)."""
    records = data["results"]
    bad = [r for r in records if mark_of(r) in BAD]
    given_up = [r for r in bad if spoiled(r["verdict"], r["detail"])]
    failures = sorted((r for r in bad if r not in given_up), key=lambda r: r["verdict"] != "failed")
    impl = data["implementation"]
    shown = records if all_profiles else [r for r in records if r.get("claimed") is not False]
    body = [
        tag("h1", f"Conformance report: {impl['name']} {impl['version']}"),
        totals_block(data),
        header(data),
        tag("h2", "Profiles by rule area"),
        _hidden_note(records, shown),
        matrix(shown),
        tag("h2", f"Failures ({len(failures) + len(given_up)})"),
        "".join(failure_block(r, replay or default_replay(data)) for r in failures) or tag("p", "None."),
        _spoiled_block(given_up),
    ]
    return page(f"Crescent conformance: {impl['name']} {impl['version']}", "".join(body), wide=True, css=CSS)


def _spoiled_block(given_up: list[dict[str, Any]]) -> str:
    """The spoiled runs (the implementation given up, a kind of request no longer sent), a paragraph per
    cause (wording.spoiled_blocks)."""
    blocks = spoiled_blocks((f"{r['id']}[{r['profile']}]", r["detail"]) for r in given_up)
    return "".join(tag("p", block, "why") for block in blocks)


def totals_block(data: dict[str, Any]) -> str:
    """The totals in scenario runs and, under them, what did not run and why: first on the page (a phone
    shows them without scrolling)."""
    records = data["results"]
    tally = ", ".join(f"{n} {o}" for o, n in counts(records).items() if n)
    cls = "totals cell-bad" if any(outcome(r) in BAD_OUTCOMES for r in records) else "totals cell-ok"
    lines = [tag("p", f"{unit_line(records)}: {tally}", cls)]
    lines += [tag("p", line, "muted why") for line in not_run(records).lines()]
    return raw("div", "".join(lines), "summary")


def _hidden_note(records: list[dict[str, Any]], shown: list[dict[str, Any]]) -> str:
    hidden = sorted({r["profile"] for r in records} - {r["profile"] for r in shown})
    if not hidden:
        return ""
    return tag("p", f"{len(hidden)} profiles the implementation does not claim are left out "
               "(html-report --all-profiles shows them).", "muted")  # fmt: skip


def header(data: dict[str, Any]) -> str:
    """Implementation, versions, time, completeness and the totals."""
    impl = data["implementation"]
    complete = "complete run" if data["complete"] else "PARTIAL run (only some profiles or scenarios)"
    rows = [
        ("implementation", f"{impl['name']} {impl['version']} ({impl['language']})"),
        ("kit / corpus", f"kit {data['kit_version']}, corpus {data['corpus_version']}"),
        ("time", data["time"]),
        ("run", complete),
        ("profiles claimed", ", ".join(sorted(claimed_profiles(data["results"]))) or "none"),
    ]
    if data.get("declared"):
        rows.insert(0, ("declared deviations", "; ".join(data["declared"])))
    rows += [
        ("not checked", f"{what} (capability {cap} not declared)") for cap, what in data.get("unchecked", {}).items()
    ]
    return raw("table", "".join(raw("tr", tag("th", k) + tag("td", v)) for k, v in rows), "header")


def matrix(records: list[dict[str, Any]]) -> str:
    """Rows: profiles; columns: rule areas; each cell the verdict counts."""
    kinds = verdicts(records)
    cells: dict[tuple[str, str], Counter[str]] = {}
    for r in records:
        cells.setdefault((r["profile"], r["area"]), Counter())[mark_of(r)] += 1
    areas = sorted({a for _, a in cells})
    profiles = sorted({p for p, _ in cells})
    head = raw("tr", tag("th", "profile") + "".join(tag("th", a) for a in areas) + tag("th", "all"))
    rows = [raw("tr", tag("th", p) + "".join(_cell(cells.get((p, a)), kinds) for a in areas) + _total(cells, p, kinds))
            for p in profiles]  # fmt: skip
    legend = tag("p", "  ".join(f"{MARKS.get(v, '?')} {v}" for v in kinds), "muted")
    table = raw("table", raw("thead", head) + raw("tbody", "".join(rows)), "matrix report-matrix")
    return legend + raw("div", table, "wide")


def _total(cells: dict[tuple[str, str], Counter[str]], profile: str, kinds: list[str]) -> str:
    return _cell(sum((c for (p, _), c in cells.items() if p == profile), Counter()), kinds)


def _cell(counts: Counter[str] | None, kinds: list[str]) -> str:
    if not counts:
        return tag("td", "", "zero")
    text = " ".join(
        tag("span", f"{counts[v]}{MARKS.get(v, '?')}", title=f"{counts[v]} {v}") for v in kinds if counts[v]
    )
    cls = "cell-bad" if any(counts[v] for v in BAD) else "cell-ok" if counts["passed"] == counts.total() else ""
    return raw("td", text, cls)


def failure_block(record: dict[str, Any], replay: str, anchor: str | None = None) -> str:
    """One failed or errored scenario-in-profile: where, what differed, the table after, how to replay.

    The section's id is ``anchor``, by default ``id[profile]``.
    """
    fail = record.get("failure")
    badge = tag("span", record["verdict"], f"badge {record['verdict']}")
    head = raw("h3", f"{badge} <code>{escape(record['id'])}</code> [{escape(record['profile'])}] "
               f"{escape(record['title'])}")  # fmt: skip
    parts = [head]
    if fail:
        where = f"step {fail['step']}: {fail['action']}" if fail.get("action") else "the given position"
        parts += [tag("p", f"{shown_path(record['file'])}:{fail['line']}, {where}", "muted"), grounds_html(record)]
        parts += [mismatch_table(fail["mismatches"]), after_figure(fail.get("before", ""), fail["after"])]
    else:
        parts.append(tag("p", f"{shown_path(record['file'])}:{place(record)}: {record.get('detail', '')}"))
        parts.append(grounds_html(record))
    command = f"crescent-conformance run {replay} --profile {record['profile']} --id {record['id']}"
    parts.append(raw("p", "replay: " + tag("code", command)))
    return raw("section", "".join(parts), "scenario", id=anchor or f"{record['id']}[{record['profile']}]")


def grounds_html(record: dict[str, Any]) -> str:
    """The rule sources and interpretations of a record's scenario, as the terminal prints them."""
    found = grounds_of(record["id"])
    cites = "".join(tag("div", f"rule: {s}", "cite") for s in found.sources)
    rests = tag("p", f"interpretation: {', '.join(found.interpretations)}", "muted") if found.interpretations else ""
    return cites + rests


def mismatch_table(mismatches: list[str]) -> str:
    """Each mismatch (``what: expected X, got Y``) as a row: what, expected, actual."""
    rows = []
    for text in mismatches:
        what, _, rest = text.partition(": expected ")
        expected, _, actual = rest.rpartition(", got ")
        cells = [what, expected, actual] if rest and expected else [text, "", ""]
        rows.append(raw("tr", "".join(tag("td", c) for c in cells)))
    head = raw("tr", tag("th", "what") + tag("th", "expected") + tag("th", "actual"))
    return raw("table", raw("thead", head) + raw("tbody", "".join(rows)), "mismatches")


def _position(text: str) -> Position | None:
    try:
        return Position.from_text(text)
    except (CrescentError, ValueError, IndexError, KeyError):
        return None


def after_figure(before: str, after: str) -> str:
    """The table after the failing step (changes from before outlined), or the text when unreadable."""
    shown, earlier = _position(after), _position(before) if before else None
    texts = raw("details", tag("summary", "position texts") + tag("pre", f"before: {before}\nafter:  {after}"))
    if shown is None:
        return tag("p", "The position after could not be read as a table.", "muted") + texts
    changed = changed_places(earlier, shown) if earlier else set()
    caption = f"after: reshuffles left {shown.reshuffles} · moves {shown.moves}"
    svg = table_svg(shown, changed=changed, label=caption)
    return raw("div", svg + tag("div", caption + " (changed places outlined)", "figcap"), "figure") + texts


def write_html_report(
    source: Path, out: Path | None = None, replay: str | None = None, *, all_profiles: bool = False
) -> Path:
    """Render the JSON report ``source`` to ``out`` (default: the same name with .html); returns ``out``."""
    target = out or source.with_suffix(".html")
    data = read_report(source)
    check_writable(target, "--out")
    write_atomic(target, render_report(data, replay, all_profiles=all_profiles), "--out")
    return target
