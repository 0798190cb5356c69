"""``dependence``: which scenarios depend on which rule parameter (spec/dependence.md)."""

from __future__ import annotations

import argparse

from conformance.cli.common import Command
from conformance.corpus.load import load_corpus


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``dependence``."""
    p.add_argument("--write", action="store_true", help="regenerate spec/dependence.md")


def _dependence(args: argparse.Namespace) -> int:
    """Print the page, or write it with --write."""
    from conformance.judging import dependence

    scenarios = load_corpus()
    if args.write:
        dependence.write(scenarios)
        print(f"wrote spec/{dependence.DEPENDENCE_FILE}")
    else:
        print(dependence.render(scenarios), end="")
    return 0


COMMAND = Command(
    "dependence", "which scenarios depend on which rule parameter (computed by replay; --write)", configure, _dependence
)
