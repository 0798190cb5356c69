"""``matrix``: several implementations' JSON reports side by side on one self-contained HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command
from conformance.files import write_atomic


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``matrix``."""
    p.add_argument("files", type=Path, nargs="+", help="the JSON reports, one per implementation (columns)")
    p.add_argument("--out", type=Path, default=Path("matrix.html"), help="the HTML file")
    p.add_argument(
        "--all-profiles", action="store_true", help="show every profile, also those no implementation claims"
    )


def write_matrix(files: list[Path], out: Path, all_profiles: bool = False) -> int:
    """Read every report, draw the page to ``out``."""
    from conformance.docs.matrix import render_matrix
    from conformance.reportfile import read_report

    write_atomic(out, render_matrix([read_report(f) for f in files], all_profiles), "--out")
    print(f"wrote {out} ({len(files)} implementation{'s' if len(files) != 1 else ''})")
    return 0


def _matrix(args: argparse.Namespace) -> int:
    return write_matrix(args.files, args.out, args.all_profiles)


COMMAND = Command("matrix", "draw several JSON reports side by side on one HTML page", configure, _matrix)
