"""``compare``: what changed between two run reports; exit 1 on a regression (a CI gate)."""

from __future__ import annotations

import argparse
from pathlib import Path

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
    p.add_argument("--format", choices=("text", "json", "html"), default="text", help="the output's form")
    p.add_argument("--out", type=Path, help="write the output here instead of printing it")


def render(comparison: Comparison, form: str) -> str:
    """The comparison as text, JSON or HTML."""
    if form == "html":
        from conformance.docs.comparehtml import render_comparison

        return render_comparison(comparison)
    from conformance.judging.compare_text import render_json, render_text

    return render_json(comparison) if form == "json" else render_text(comparison)


def _compare(args: argparse.Namespace) -> int:
    """Compare, write or print, and gate: 1 when a regression is not allowed."""
    from conformance.docs.htmlreport import read_report
    from conformance.judging.compare_text import verdict_line

    allowed = [*args.allow, *(read_allow_file(args.allow_file) if args.allow_file else [])]
    comparison = compare_reports(read_report(args.old), read_report(args.new), allowed)
    text = render(comparison, args.format)
    if args.out:
        write_atomic(args.out, text, "--out")
        print(f"wrote {args.out}\n{verdict_line(comparison)}")
    else:
        print(text)
    return 1 if comparison.regressions else 0


COMMAND = Command("compare", "what changed between two JSON reports; exit 1 on a regression", configure, _compare)
