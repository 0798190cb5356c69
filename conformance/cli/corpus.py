"""``list`` and ``lint``: the scenarios of the corpus, and their faults."""

from __future__ import annotations

import argparse

from conformance.cli.common import Command, selection_options
from conformance.corpus.lint import iter_lint
from conformance.corpus.load import load_corpus


def _list(args: argparse.Namespace) -> int:
    for sc in load_corpus(args.scenarios):
        if not args.id or sc.id in args.id:
            print(f"{sc.id:<24} {','.join(sc.profiles):<40} {sc.title}")
    return 0


def _lint(args: argparse.Namespace) -> int:
    errors = [str(e) for e in iter_lint(load_corpus(args.scenarios), replay=True)]
    print("\n".join(errors) or "corpus is clean")
    return 1 if errors else 0


LIST_COMMAND = Command("list", "list scenarios (id, profiles, title)", selection_options, _list)
LINT_COMMAND = Command("lint", "check every scenario file against the schema and vocabulary", selection_options, _lint)
