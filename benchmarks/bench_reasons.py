"""Paired: one solve with the one-suit and two-suit searches writing why their start is dead (before
``Search.reasons``) and one without (now). The searches are the same (same nodes, searches and
verdict, checked), so only the CPU seconds differ.

    python benchmarks/bench_reasons.py --nodes 3000000 --rounds 2 CR1-N-AAGWTTE CR1-N-AAKIDPT
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from crescent_ref.game import Game
from crescent_ref.solver import search as searching
from crescent_ref.solver.search import Budget


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("codes", nargs="+")
    parser.add_argument("--profile", default="hoffmann-1892")
    parser.add_argument("--nodes", type=int, default=3_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    now = searching.Search.__init__

    def before(self: searching.Search, *a: Any, **k: Any) -> None:
        k.pop("reasons", None)  # every search writes its reasons, as before
        now(self, *a, **k)

    total = {"before": 0.0, "now": 0.0}
    ratios = []
    for code in args.codes:
        for r in range(args.rounds):
            row = {}
            for way, init in (("before", before), ("now", now)):
                searching.Search.__init__ = init  # type: ignore[method-assign]
                began = time.process_time()
                answer = searching.solve(Game.deal(args.profile, code), Budget(nodes=args.nodes, seconds=1e9))
                spent = time.process_time() - began
                total[way] += spent
                row[way] = (answer.verdict, answer.nodes, answer.searches, spent)
            searching.Search.__init__ = now  # type: ignore[method-assign]
            assert row["before"][:3] == row["now"][:3], row
            ratios.append(row["before"][3] / row["now"][3])
            print(f"{code} {r} {row['now'][0]} {row['now'][1]:,} nodes {row['now'][2]} searches: before "
                  f"{row['before'][3]:.2f} s, now {row['now'][3]:.2f} s, ratio {ratios[-1]:.3f}; "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
    ratios.sort()
    ratio = total["before"] / total["now"]
    print(f"total before {total['before']:.1f} CPU s, now {total['now']:.1f}: ratio {ratio:.3f}; "
          f"median of {len(ratios)} pairs {ratios[len(ratios) // 2]:.3f} ({ratios[0]:.3f} to {ratios[-1]:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
