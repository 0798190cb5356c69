"""``docs``: the living documentation, static HTML built from spec/."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from conformance.cli.common import Command


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``docs``."""
    p.add_argument("--out", type=Path, default=Path("docs/site"), help="the output folder")


def _docs(args: argparse.Namespace) -> int:
    """Build the documentation pages into --out."""
    from conformance.docs.site import build

    written = build(args.out)
    print(f"wrote {written_text(written)} to {args.out}/ (start at {args.out / 'index.html'})")
    return 0


def written_text(written: list[Path]) -> str:
    """``9 pages and a script`` for what was written, counted by kind."""
    kinds = Counter("page" if p.suffix == ".html" else "script" if p.suffix == ".js" else "file" for p in written)
    parts = [f"{n} {kind}s" if n > 1 else f"a {kind}" if kind != "page" else "1 page" for kind, n in kinds.items()]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "nothing"


COMMAND = Command("docs", "build the living documentation (static HTML) from spec/", configure, _docs)
