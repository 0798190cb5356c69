"""``report`` and ``html-report``: a JSON report as text, or as one self-contained HTML page."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from conformance.cli.common import Command
from conformance.judging.report import area_summary_records, counts, declared_lines


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``report``."""
    p.add_argument("file", type=Path, help="the JSON report")


def configure_html(p: argparse.ArgumentParser) -> None:
    """Arguments of ``html-report``."""
    p.add_argument("files", type=Path, nargs="+", help="the JSON report (several: drawn side by side, as matrix)")
    p.add_argument("--out", type=Path, help="the HTML file (default: the report's name with .html, or matrix.html)")
    p.add_argument("--replay", help='how replay commands name the implementation, e.g. --cmd "node a.js"')


def _report(args: argparse.Namespace) -> int:
    """Print a JSON report: header, per-area counts, each failure."""
    data = json.loads(args.file.read_text(encoding="utf-8"))
    impl = data["implementation"]
    print(
        f"{impl['name']} {impl['version']} ({impl['language']}) — kit {data['kit_version']}, "
        f"corpus {data['corpus_version']}, {data['time']}, {'complete' if data['complete'] else 'PARTIAL'} run"
    )
    print("\n".join([*declared_lines(data, data["results"]), *area_summary_records(data["results"])]))
    for r in data["results"]:
        if r["verdict"] in ("failed", "errored"):
            print(_record_text(r))
    print(", ".join(f"{n} {o}" for o, n in counts(data["results"]).items() if n))
    return 0


def _record_text(r: dict[str, Any]) -> str:
    lines = [f"\n{r['id']} [{r['profile']}] {r['verdict'].upper()}: {r['title']}"]
    fail = r.get("failure")
    if fail:
        lines.append(f"  {r['file']}:{fail['line']}, step {fail['step']}: {fail['action']}")
        lines += [f"  - {m}" for m in fail["mismatches"]]
    else:
        lines.append(f"  {r['file']}:{r['line']}: {r['detail']}")
    return "\n".join(lines)


def _html_report(args: argparse.Namespace) -> int:
    """Render a JSON report as HTML; several reports as a matrix (conformance.cli.matrix)."""
    from conformance.docs.htmlreport import write_html_report

    if len(args.files) > 1:
        from conformance.cli.matrix import write_matrix

        return write_matrix(args.files, args.out or Path("matrix.html"))
    print(f"wrote {write_html_report(args.files[0], args.out, args.replay)}")
    return 0


COMMAND = Command("report", "render a JSON report as text", configure, _report)
HTML_COMMAND = Command(
    "html-report", "render a JSON report as one self-contained HTML page", configure_html, _html_report
)
