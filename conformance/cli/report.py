"""``report`` and ``html-report``: a JSON report as text, or as one self-contained HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from conformance.cli.common import Command, positive
from conformance.judging.report import area_summary_records, counts, declared_lines
from conformance.wording import RUNS, grounds_of, not_run, shown_path, spoiled, spoiled_blocks, unit_line


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``report``."""
    p.add_argument("file", type=Path, help="the JSON report")
    p.add_argument("--max-failures", type=positive(int), metavar="N", help="print only the first N failures in full")


def configure_html(p: argparse.ArgumentParser) -> None:
    """Arguments of ``html-report``."""
    p.add_argument("files", type=Path, nargs="+", help="the JSON report (several: drawn side by side, as matrix)")
    p.add_argument("--out", type=Path, help="the HTML file (default: the report's name with .html, or matrix.html)")
    p.add_argument("--replay", help='how replay commands name the implementation, e.g. --cmd "node a.js"')
    p.add_argument(
        "--all-profiles", action="store_true", help="list every profile, also those the implementation does not claim"
    )


def _report(args: argparse.Namespace) -> int:
    """Print a JSON report: header, per-area counts, each failure."""
    from conformance.reportfile import read_report

    data = read_report(args.file)
    impl = data["implementation"]
    print(
        f"{impl['name']} {impl['version']} ({impl['language']}) — kit {data['kit_version']}, "
        f"corpus {data['corpus_version']}, {data['time']}, {'complete' if data['complete'] else 'PARTIAL'} run"
    )
    records = data["results"]
    print("\n".join([*declared_lines(data, records), *area_summary_records(records), *not_run(records).lines()]))
    bad = [r for r in records if r["verdict"] in ("failed", "errored") and not spoiled(r["verdict"], r["detail"])]
    for r in bad[: args.max_failures]:
        print(_record_text(r))
    if len(bad) > len(bad[: args.max_failures]):
        print(f"\n... and {len(bad) - args.max_failures} more failing {RUNS} not shown (--max-failures)")
    given_up = [(f"{r['id']}[{r['profile']}]", r["detail"]) for r in records if spoiled(r["verdict"], r["detail"])]
    for block in spoiled_blocks(given_up):
        print("\n" + block)
    print(f"{unit_line(records)}: " + ", ".join(f"{n} {o}" for o, n in counts(records).items() if n))
    return 0


def _record_text(r: dict[str, Any]) -> str:
    from conformance.reportfile import place

    lines = [f"\n{r['id']} [{r['profile']}] {r['verdict'].upper()}: {r['title']}"]
    fail, why = r.get("failure"), ["  " + g for g in grounds_of(r["id"]).lines()]
    if fail:
        lines.append(f"  {shown_path(r['file'])}:{fail['line']}, step {fail['step']}: {fail['action']}")
        lines += [*why, *(f"  - {m}" for m in fail["mismatches"])]
    else:
        lines += [f"  {shown_path(r['file'])}:{place(r)}: {r['detail']}", *why]
    return "\n".join(lines)


def _html_report(args: argparse.Namespace) -> int:
    """Render a JSON report as HTML; several reports as a matrix (conformance.cli.matrix)."""
    from conformance.docs.htmlreport import write_html_report

    if len(args.files) > 1:
        from conformance.cli.matrix import write_matrix

        return write_matrix(args.files, args.out or Path("matrix.html"), args.all_profiles)
    print(f"wrote {write_html_report(args.files[0], args.out, args.replay, all_profiles=args.all_profiles)}")
    return 0


COMMAND = Command("report", "render a JSON report as text", configure, _report)
HTML_COMMAND = Command(
    "html-report", "render a JSON report as one self-contained HTML page", configure_html, _html_report
)
