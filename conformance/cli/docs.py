"""``docs``: the living documentation, static HTML built from spec/."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``docs``."""
    p.add_argument("--out", type=Path, default=Path("docs/site"), help="the output folder")


def _docs(args: argparse.Namespace) -> int:
    """Build the documentation pages into --out."""
    from conformance.docs.site import build

    written = build(args.out)
    print(f"wrote {len(written)} pages to {args.out}/ (start at {args.out / 'index.html'})")
    return 0


COMMAND = Command("docs", "build the living documentation (static HTML) from spec/", configure, _docs)
