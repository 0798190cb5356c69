"""``perft``: an implementation's move counts against spec/perft/."""

from __future__ import annotations

import argparse

from conformance.adapters.session import make_adapter
from conformance.cli.common import Command, adapter_options
from crescent_ref.progress import progress


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``perft``."""
    adapter_options(p)
    p.add_argument("--max-depth", type=int, default=3, help="check depths up to this one")


def _perft(args: argparse.Namespace) -> int:
    """Every perft case the implementation's profiles allow, up to --max-depth."""
    from conformance.explore.perft import cases, check

    adapter = make_adapter(args.impl, args.cmd, args.timeout, args.max_line)
    try:
        info = adapter.info()
        if "legal-moves" not in info.capabilities:
            print("perft needs the legal-moves capability; the implementation does not declare it")
            return 1
        problems, checked = [], 0
        for case in progress(cases(), "perft cases", unit="case"):
            if info.supports(case.profile) is None:
                limited = {d: n for d, n in case.counts.items() if d <= args.max_depth}
                problems += check(adapter, type(case)(case.name, case.profile, case.position, limited))
                checked += 1
    finally:
        adapter.close()
    print("\n".join(problems) or f"perft: {checked} cases agree up to depth {args.max_depth}")
    return 1 if problems else 0


COMMAND = Command("perft", "check an implementation's perft counts against spec/perft/", configure, _perft)
