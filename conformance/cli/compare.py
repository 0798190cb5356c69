"""``compare``: what changed between two run reports; exit 1 on a regression (a CI gate)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from conformance.cli.common import Command
from conformance.files import write_atomic
from conformance.judging.compare import Comparison, compare_reports, read_allow_file


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``compare``."""
    p.add_argument("old", type=Path, help="the earlier JSON report")
    p.add_argument("new", type=Path, help="the later JSON report")
    p.add_argument("--allow", action="append", default=[], metavar="ID",
                   help="a scenario id (or id[profile]) that may regress; repeatable")  # fmt: skip
    p.add_argument("--allow-file", type=Path,
                   help="ids that may regress, one a line (# comments), or an expectations .yaml")  # fmt: skip
    p.add_argument("--allow-partial", action="store_true",
                   help="compare a report of an interrupted run, or a new one of fewer runs, all the same")  # fmt: skip
    p.add_argument("--format", choices=("text", "json", "html"), default="text", help="the output's form")
    p.add_argument("--out", type=Path, help="write the output here instead of printing it")


def refuse_partial(path: Path, report: dict[str, Any], old: dict[str, Any] | None = None) -> None:
    """InputFileError for a report that cannot stand as a side of the gate: one of an interrupted run
    (fewer results than it planned), or, as the new side, one of a selection lacking records the old
    report has (they would read as removed, never as a regression). Two runs of the same selection
    compare."""
    from conformance.reading import fail, line_of_path, read_text
    from conformance.reportfile import is_interrupted

    if report.get("complete") is True:
        return
    ran = len(report["results"])
    if is_interrupted(report):
        how = f"interrupted or stopped: {ran} of {report['planned']} planned runs"
    else:
        lacking = _keys(old) - _keys(report) if old is not None else set()
        if not lacking:
            return
        how = f"a selection of {ran} runs, lacking {len(lacking)} of the old report's, e.g. {min(lacking)}"
    fail(path, line_of_path(read_text(path, "report"), ["complete"]), "$.complete",
         f"the report is of a PARTIAL run ({how}); --allow-partial to compare it all the same")  # fmt: skip


def _keys(report: dict[str, Any]) -> set[str]:
    return {f"{r['id']}[{r['profile']}]" for r in report["results"]}


def render(comparison: Comparison, form: str) -> str:
    """The comparison as text, JSON or HTML."""
    if form == "html":
        from conformance.docs.comparehtml import render_comparison

        return render_comparison(comparison)
    from conformance.judging.compare_text import render_json, render_text

    return render_json(comparison) if form == "json" else render_text(comparison)


def _compare(args: argparse.Namespace) -> int:
    """Compare, write or print, and gate: 1 when a regression is not allowed."""
    from conformance.judging.compare_text import verdict_line
    from conformance.reportfile import read_report

    allowed = [*args.allow, *(read_allow_file(args.allow_file) if args.allow_file else [])]
    old, new = read_report(args.old), read_report(args.new)
    if not args.allow_partial:
        refuse_partial(args.old, old)
        refuse_partial(args.new, new, old)
    comparison = compare_reports(old, new, allowed)
    text = render(comparison, args.format)
    if args.out:
        write_atomic(args.out, text, "--out")
        print(f"wrote {args.out}\n{verdict_line(comparison)}")
    else:
        print(text)
    return 1 if comparison.regressions else 0


COMMAND = Command("compare", "what changed between two JSON reports; exit 1 on a regression", configure, _compare)
