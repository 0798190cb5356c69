"""A Comparison of two run reports (conformance.judging.compare) as one self-contained HTML page."""

from __future__ import annotations

from typing import Any

from conformance.docs.html import page, raw, tag
from conformance.judging.compare import KINDS, Change, Comparison, implementation
from conformance.judging.compare_text import TITLES, change_grounds, totals, verdict_line


def render_comparison(comparison: Comparison) -> str:
    """The page: both runs, notes, the gate's verdict, counts per area and profile, each kind of change."""
    body = [
        tag("h1", f"Compared: {implementation(comparison.old)} → {implementation(comparison.new)}"),
        _runs(comparison),
        "".join(tag("p", f"Note: {n}", "muted") for n in comparison.notes()),
        tag("p", verdict_line(comparison), "cell-bad" if comparison.regressions else "cell-ok"),
    ]
    if comparison.changes:
        body += [tag("h2", "By area"), _counts(comparison, "area")]
        body += [tag("h2", "By profile"), _counts(comparison, "profile")]
    body += [_section(comparison, kind) for kind in KINDS if comparison.of_kind(kind)]
    return page(f"Crescent comparison: {implementation(comparison.new)}", "".join(body), wide=True)


def _runs(comparison: Comparison) -> str:
    cells = [raw("tr", tag("th", which) + tag("td", _run(data)))
             for which, data in (("old", comparison.old), ("new", comparison.new))]  # fmt: skip
    cells.append(raw("tr", tag("th", "totals") + tag("td", totals(comparison))))
    return raw("table", "".join(cells), "header")


def _run(data: dict[str, Any]) -> str:
    complete = "complete" if data.get("complete") else "PARTIAL"
    return f"{implementation(data)}, corpus {data.get('corpus_version')}, {data.get('time')}, {complete}"


def _counts(comparison: Comparison, field: str) -> str:
    table = comparison.counts_by(field)
    kinds = [k for k in KINDS if any(c[k] for c in table.values())]
    head = raw("tr", tag("th", field) + "".join(tag("th", k) for k in kinds))
    rows = [raw("tr", tag("th", name) + "".join(tag("td", str(c[k] or ""), "n") for k in kinds))
            for name, c in table.items()]  # fmt: skip
    return raw("table", raw("thead", head) + raw("tbody", "".join(rows)), "matrix")


def _section(comparison: Comparison, kind: str) -> str:
    found = comparison.of_kind(kind)
    head = raw("tr", "".join(tag("th", h) for h in ("scenario [profile]", "area", "old", "new", "details")))
    rows = "".join(_row(c, comparison.is_allowed(c)) for c in found)
    table = raw("table", raw("thead", head) + raw("tbody", rows), "changes")
    return tag("h2", f"{TITLES[kind]} ({len(found)})") + raw("div", table, "wide")


def _row(change: Change, allowed: bool) -> str:
    cls = "" if not change.regression else "cell-ok" if allowed else "cell-bad"
    if change.kind == "changed":
        text = "\n".join([*(f"was: {d}" for d in change.old_detail), *(f"now: {d}" for d in change.new_detail)])
    else:
        text = "\n".join(change.new_detail)
    why = "".join(tag("div", line, "cite") for line in change_grounds(change))
    cells = [tag("td", change.key), tag("td", change.area), tag("td", change.old or "–"), tag("td", change.new or "–"),
             raw("td", (tag("pre", text) if text else "") + why)]  # fmt: skip
    return raw("tr", "".join(cells), cls, data_kind=change.kind, data_regression=str(change.regression).lower())
