"""``winnable``: check an implementation's claim that the deals of some game codes can be won."""

from __future__ import annotations

import argparse

from conformance.adapters.session import make_adapter
from conformance.cli.common import Command, adapter_options
from crescent_ref.progress import progress


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``winnable``."""
    adapter_options(p)
    p.add_argument("--profile", default="app", help="the profile the deals are played in (default: app)")
    p.add_argument("--codes", nargs="+", required=True, help="the game codes claimed winnable")
    p.add_argument("--seconds", type=float, default=30.0, help="the solver's time budget per code")
    p.add_argument("--nodes", type=int, default=2_000_000, help="the solver's node budget per code")


def _winnable(args: argparse.Namespace) -> int:
    """Solve each code on the reference, replay each winning line on the implementation, report."""
    from conformance.explore.winnable import check_code, exit_code, summary
    from crescent_ref.solver import Budget

    adapter = make_adapter(args.impl, args.cmd, args.timeout)
    budget = Budget(nodes=args.nodes, seconds=args.seconds)
    try:
        checks = [check_code(adapter, args.profile, code, budget)
                  for code in progress(args.codes, "codes", unit="code")]
    finally:
        adapter.close()
    print("\n".join(str(c) for c in checks))
    print(summary(checks))
    return exit_code(checks)


COMMAND = Command(
    "winnable",
    "check that claimed-winnable game codes are won: the solver's line replayed on the implementation",
    configure,
    _winnable,
)
