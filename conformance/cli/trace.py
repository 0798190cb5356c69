"""``trace``: every statement of the documents and the scenarios that cover it (spec/traceability.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``trace``."""
    p.add_argument("--write", action="store_true", help="regenerate spec/traceability.md")
    p.add_argument(
        "--sources", type=Path, metavar="DIR",
        help="also check the documents in DIR: their sha256 and every quote of the kit, verbatim in its section",
    )


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
    faults = _check_sources(args.sources, scenarios) if args.sources else 0
    return 1 if missing or faults else 0


def _check_sources(folder: Path, scenarios: list[Scenario]) -> int:
    """Print each quote or checksum that does not hold in ``folder``; the number of them."""
    from conformance.sources import problems, quotes

    found = problems(folder, scenarios)
    for line in found:
        print(line)
    print(f"{sum(1 for _ in quotes(scenarios))} quotes of the kit, documents in {folder}: {len(found)} problems")
    return len(found)


COMMAND = Command("trace", "check (or --write) spec/traceability.md: statements and their scenarios", configure, _trace)
