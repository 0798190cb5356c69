"""``trace``: every statement of the documents and the scenarios that cover it (spec/traceability.md)."""

from __future__ import annotations

import argparse

from conformance.cli.common import Command
from conformance.corpus.load import load_corpus


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``trace``."""
    p.add_argument("--write", action="store_true", help="regenerate spec/traceability.md")


def _trace(args: argparse.Namespace) -> int:
    """Report uncovered statements; regenerate the matrix with --write."""
    from conformance.corpus import trace

    scenarios = load_corpus()
    if args.write:
        trace.write(scenarios)
    missing = trace.uncovered(scenarios)
    for st in missing:
        print(f"no scenario covers {st.id} ({st.doc} § {st.section}): {st.summary}")
    if trace.stale(scenarios):
        print("spec/traceability.md is stale: run crescent-conformance trace --write")
        return 1
    print(f"{len(trace.statements())} statements, {len(missing)} without a scenario")
    return 1 if missing else 0


COMMAND = Command("trace", "check (or --write) spec/traceability.md: statements and their scenarios", configure, _trace)
