"""``impact``: for a rule change, what the working tree's spec/ changes against a git revision."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command
from conformance.corpus.gitspec import GitRevisionError, checkout_root
from crescent_ref.spec_files import spec_dir


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``impact``."""
    p.add_argument("--rev", default="HEAD", help="the git revision to compare spec/ with (default HEAD)")
    p.add_argument("--spec", type=Path, help="the spec/ folder of the working tree (default: the kit's own)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="the output's form")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _impact(args: argparse.Namespace) -> int:
    """Print the impact; exit 1 when the reference engine fails a scenario of the working tree."""
    from conformance.judging.impact import impact, render_impact, render_impact_json

    found = impact(args.spec or default_spec(), args.rev, args.quiet)
    print(render_impact_json(found) if args.format == "json" else render_impact(found))
    return 1 if found.failing else 0


def default_spec() -> Path:
    """The kit's own spec/; for a kit installed into a checkout (a venv inside the clone, as CI makes it),
    the checkout's spec/, since the installed copy is not what git tracks."""
    spec = spec_dir()
    if "site-packages" not in spec.parts:
        return spec
    try:
        root = checkout_root(spec)
    except GitRevisionError:
        return spec
    tracked = root / "spec"
    return tracked if (tracked / "scenarios").is_dir() else spec


COMMAND = Command(
    "impact",
    "scenarios, reference verdicts and statement coverage that spec/ changes against a git revision",
    configure,
    _impact,
)
