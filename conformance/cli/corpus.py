"""``list`` and ``lint``: the scenarios of the corpus, and their faults."""

from __future__ import annotations

import argparse

from conformance.adapters.session import check_selection, plan
from conformance.cli.common import Command, scenario_files_option, selection_options
from conformance.corpus.lint import iter_lint
from conformance.corpus.load import load_corpus


def _list(args: argparse.Namespace) -> int:
    """The selected scenarios, each with the selected profiles it names (--profile and --id as ``run``
    reads them: an unknown profile or id is a user error)."""
    scenarios = load_corpus(args.scenarios)
    check_selection(scenarios, args.profile, args.id)
    chosen: dict[str, list[str]] = {}
    titles = {sc.id: sc.title for sc in scenarios}
    for sc, profile in plan(scenarios, args.profile, args.id):
        chosen.setdefault(sc.id, []).append(profile)
    for scenario_id, profiles in chosen.items():
        print(f"{scenario_id:<24} {','.join(profiles):<40} {titles[scenario_id]}")
    return 0


def _lint(args: argparse.Namespace) -> int:
    errors = [str(e) for e in iter_lint(load_corpus(args.scenarios), replay=True)]
    print("\n".join(errors) or "corpus is clean")
    return 1 if errors else 0


LIST_COMMAND = Command("list", "list scenarios (id, profiles, title)", selection_options, _list)
LINT_COMMAND = Command(
    "lint", "check every scenario file against the schema and vocabulary", scenario_files_option, _lint
)
