"""A Comparison (conformance.judging.compare) as terminal text and as JSON."""

from __future__ import annotations

import json
from collections import Counter

from conformance.judging.compare import BAD, KINDS, Change, Comparison, implementation
from conformance.wording import grounds_of

TITLES = {
    "newly-failing": "Newly failing",
    "newly-errored": "Newly errored",
    "newly-skipped": "Newly skipped",
    "newly-passing": "Newly passing",
    "changed": "Same verdict, changed details",
    "added": "Added (only in the new report)",
    "removed": "Removed (only in the old report)",
}


def change_lines(change: Change, allowed: bool) -> list[str]:
    """One change: its key, area and verdicts, then what the new record says (and the old, when changed)."""
    mark = " (allowed)" if allowed else " REGRESSION" if change.regression else ""
    lines = [f"  {change.key:<40} {change.area:<20} {change.old or '-'} -> {change.new or '-'}{mark}"]
    if change.kind == "changed":
        lines += [f"      was: {d}" for d in change.old_detail] + [f"      now: {d}" for d in change.new_detail]
    else:
        lines += [f"      {d}" for d in change.new_detail[:4]]
    return lines + [f"      {g}" for g in change_grounds(change)]


def change_grounds(change: Change) -> list[str]:
    """The rule sources and interpretations of a change to a bad verdict (why the scenario expects it)."""
    return grounds_of(change.id).lines() if change.new in BAD else []


def totals(comparison: Comparison) -> str:
    """``old -> new`` verdict counts."""
    old, new = Counter(comparison.old.get("summary", {})), Counter(comparison.new.get("summary", {}))
    return ", ".join(f"{v} {old[v]} -> {new[v]}" for v in sorted(old.keys() | new.keys()))


def table(comparison: Comparison, field: str) -> list[str]:
    """Per area or per profile: the count of each kind of change."""
    rows = comparison.counts_by(field)
    width = max((len(k) for k in rows), default=4)
    return [f"  {k:<{width}}  " + ", ".join(f"{c[kind]} {kind}" for kind in KINDS if c[kind]) for k, c in rows.items()]


def render_text(comparison: Comparison) -> str:
    """The whole comparison for a terminal or a CI log; the verdict of the gate last."""
    lines = [f"old: {implementation(comparison.old)}, {comparison.old.get('time', '?')}",
             f"new: {implementation(comparison.new)}, {comparison.new.get('time', '?')}"]  # fmt: skip
    lines += [f"note: {n}" for n in comparison.notes()] + [f"totals (scenario runs): {totals(comparison)}"]
    for kind in KINDS:
        found = comparison.of_kind(kind)
        if found:
            lines += ["", f"{TITLES[kind]} ({len(found)}):"]
            lines += [line for c in found for line in change_lines(c, c.regression and comparison.is_allowed(c))]
    if comparison.changes:
        lines += ["", "By area:", *table(comparison, "area"), "", "By profile:", *table(comparison, "profile")]
    return "\n".join([*lines, "", verdict_line(comparison)])


def verdict_line(comparison: Comparison) -> str:
    """The gate's verdict in one line."""
    bad, allowed = len(comparison.regressions), len(comparison.allowed_regressions)
    excuse = f", {allowed} more allowed" if allowed else ""
    if bad:
        return f"REGRESSION: {bad} scenario run(s) regressed{excuse}"
    return f"no regression: {len(comparison.changes)} change(s){excuse}"


def render_json(comparison: Comparison) -> str:
    """The comparison as JSON: both headers, notes, every change, counts, and the gate's verdict."""
    body = {
        "old": comparison.old,
        "new": comparison.new,
        "notes": comparison.notes(),
        "changes": [{**c.as_dict(), "allowed": c.regression and comparison.is_allowed(c)} for c in comparison.changes],
        "by_area": comparison.counts_by("area"),
        "by_profile": comparison.counts_by("profile"),
        "regressions": len(comparison.regressions),
        "allowed_regressions": len(comparison.allowed_regressions),
    }
    return json.dumps(body, ensure_ascii=False, indent=1)
