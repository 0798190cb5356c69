"""``fuzz``: differential play against the reference; a scenario file for each difference."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from conformance.adapters.session import make_adapter
from conformance.cli.common import Command, adapter_options


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``fuzz``."""
    adapter_options(p)
    p.add_argument("--profile", default="app", help="the profile to play (base or base+variants)")
    p.add_argument("--examples", type=int, default=100, help="games to play (hypothesis max_examples)")
    p.add_argument("--steps", type=int, default=50, help="most actions a game")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed plays the same games")
    p.add_argument(
        "--out", type=Path, default=Path("fuzz-findings"), help="folder for the scenario written on a difference"
    )


def _fuzz(args: argparse.Namespace) -> int:
    """Differential play; exit 1 with the finding's path on a difference."""
    from conformance.explore.fuzz import FuzzConfig, fuzz

    config = FuzzConfig(profile=args.profile, examples=args.examples, steps=args.steps, seed=args.seed, out=args.out)
    began = time.perf_counter()
    try:
        fuzz(lambda: make_adapter(args.impl, args.cmd, args.timeout), config)
    except AssertionError as err:
        print(f"DIFFERENCE ({type(err).__name__}): {err}")
        return 1
    print(
        f"no difference in {args.examples} games of up to {args.steps} actions ({args.profile}, seed {args.seed}), "
        f"{time.perf_counter() - began:.1f}s"
    )
    return 0


COMMAND = Command(
    "fuzz", "differential play against the reference; writes a scenario on a difference", configure, _fuzz
)
