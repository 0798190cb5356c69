"""Decided deals with and without a dead-position rule: paired solves of the same codes.

For each code and each setting of ``search.WAITS_MOST`` (waits.py is used on positions with at most
that many reshuffles left; -1 turns it off; the solver asks it only in profiles with autoplay, so
compare other profiles by editing ``search.waits_most``), or of ``unforced.ENABLED`` (``--unforced off on``:
the one-suit rules asked without autoplay in profiles with it, unforced.py), the deal is solved within
the same CPU budget, the settings one after another in one process, so the load is shared alike. Prints, per profile and
setting, the deals won, proved not winnable and unknown, and the CPU seconds spent, with the load.

    python benchmarks/bench_proofs.py --profile hoffmann-1892 --seconds 10 --waits -1 1 \\
        --unknown benchmarks/results/winrate-bases-10s-sample.json.gz
    python benchmarks/bench_proofs.py --profile open --seconds 10 --unforced off on --first 40 \\
        --unknown benchmarks/results/winrate-open-10s-compiled.json.gz

``--pairs N ...`` compares settings of ``search.PAIRS_FROM`` instead (pairs.py from the N-th search
of the portfolio on; a large N: never).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
from pathlib import Path

from crescent_ref.game import Game
from crescent_ref.solver import search, unforced
from crescent_ref.solver.search import Budget, solve


def unknown_codes(path: Path, profile: str) -> list[str]:
    """The codes a win-rate results file left unknown in ``profile``."""
    with gzip.open(path, "rt") if path.suffix == ".gz" else path.open() as handle:
        data = json.load(handle)
    return [r["code"] for r in data["results"] if r["profile"] == profile and r["verdict"] == "unknown"]


def choose(setting: str) -> None:
    """Apply one setting: ``waits<=N`` (search.WAITS_MOST), ``unforced=on|off`` (unforced.ENABLED) or
    ``pairs>=N`` (search.PAIRS_FROM)."""
    name, value = setting.split("=")
    if name == "unforced":
        unforced.ENABLED = value == "on"
    elif name == "pairs>":
        search.PAIRS_FROM = int(value)
    else:
        search.WAITS_MOST = int(value)


def run(profile: str, codes: list[str], budget: Budget, settings: list[str]) -> dict[str, list[tuple[str, float]]]:
    """Per setting: (verdict, CPU seconds) per code, solved in turn with progress on stdout."""
    found: dict[str, list[tuple[str, float]]] = {s: [] for s in settings}
    for n, code in enumerate(codes, 1):
        for setting in settings:
            choose(setting)
            answer = solve(Game.deal(profile, code), budget)
            found[setting].append((answer.verdict, answer.seconds))
            print(f"[{n}/{len(codes)}] {profile} {code} {setting}: {answer.verdict} "
                  f"{answer.seconds:.2f} s {answer.nodes} nodes", flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", required=True)
    parser.add_argument("--codes", nargs="*", default=[])
    parser.add_argument("--unknown", type=Path, help="take the codes a results file left unknown")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--nodes", type=int, default=10**9, help="node budget (large: the seconds decide)")
    parser.add_argument("--waits", type=int, nargs="+", default=[-1, 1])
    parser.add_argument("--unforced", choices=("off", "on"), nargs="+", help="compare these instead of --waits")
    parser.add_argument("--pairs", type=int, nargs="+", help="compare these search.PAIRS_FROM instead")
    parser.add_argument("--first", type=int, default=0, help="only the first N codes (0: all)")
    args = parser.parse_args()
    codes = args.codes + (unknown_codes(args.unknown, args.profile) if args.unknown else [])
    codes = codes[:args.first] if args.first else codes
    settings = [f"unforced={u}" for u in args.unforced] if args.unforced else [f"waits<={w}" for w in args.waits]
    settings = [f"pairs>={n}" for n in args.pairs] if args.pairs else settings
    began, load = time.time(), os.getloadavg()[0]
    found = run(args.profile, codes, Budget(nodes=args.nodes, seconds=args.seconds), settings)
    print(f"{args.profile}, {len(codes)} deals at {args.seconds:g} CPU s, load {load:.2f}-{os.getloadavg()[0]:.2f}, "
          f"{time.time() - began:.0f} s wall")
    for setting, answers in found.items():
        verdicts = [v for v, _ in answers]
        print(f"  {setting}: won {verdicts.count('winnable')}, not winnable {verdicts.count('not winnable')}, "
              f"unknown {verdicts.count('unknown')}, CPU {sum(s for _, s in answers):.1f} s")


if __name__ == "__main__":
    main()
