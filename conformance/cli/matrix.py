"""``matrix``: several implementations' JSON reports side by side on one self-contained HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command, write_atomic


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``matrix``."""
    p.add_argument("files", type=Path, nargs="+", help="the JSON reports, one per implementation (columns)")
    p.add_argument("--out", type=Path, default=Path("matrix.html"), help="the HTML file")


def write_matrix(files: list[Path], out: Path) -> int:
    """Read every report, draw the page to ``out``."""
    from conformance.docs.htmlreport import read_report
    from conformance.docs.matrix import render_matrix

    write_atomic(out, render_matrix([read_report(f) for f in files]))
    print(f"wrote {out} ({len(files)} implementations)")
    return 0


def _matrix(args: argparse.Namespace) -> int:
    return write_matrix(args.files, args.out)


COMMAND = Command("matrix", "draw several JSON reports side by side on one HTML page", configure, _matrix)
