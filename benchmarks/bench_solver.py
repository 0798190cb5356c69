"""Speed of the solver's two cores: nodes per CPU second, the Python core against the compiled one.

Each deal is solved by the portfolio (``crescent_ref.solver.solve``) within a fixed node budget and
no time limit, once on each core, the two one after the other in the same process (a pair), for
``--rounds`` rounds. The two runs of a pair must agree on the verdict, the nodes, the searches and
the line (the script fails otherwise: the cores must expand the same positions). Per deal it
prints the median nodes per CPU second of each core and the median of the pairs' ratios; the last
line is the median ratio over every pair, with the load average, since other processes share the
machine (CPU seconds do not count their time, but they share caches and memory bandwidth).

    python benchmarks/bench_solver.py                      # 4 base profiles x 3 deals, 30,000 nodes
    python benchmarks/bench_solver.py --nodes 100000 --rounds 3 --profile app
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Iterator

from crescent_ref.game import Game
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast
from crescent_ref.solver.search import Answer, Budget, solve

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949")
CODES = ("CR1-N-BAAAAAA", "CR1-N-AAEJFOT", "CR1-N-AADXHSR")  # an easy win and two hard deals


def solve_on(core: str, profile: str, code: str, nodes: int) -> Answer:
    """One solve with ``CRESCENT_SOLVER_CORE=core``."""
    before = os.environ.get(fast.ENV)
    os.environ[fast.ENV] = core
    try:
        return solve(Game.deal(profile, code), Budget(nodes=nodes, seconds=1e9))
    finally:
        if before is None:
            del os.environ[fast.ENV]
        else:
            os.environ[fast.ENV] = before


def rate(answer: Answer) -> float:
    return answer.nodes / max(answer.seconds, 1e-9)


def same(a: Answer, b: Answer) -> bool:
    return (a.verdict, a.nodes, a.searches, a.line) == (b.verdict, b.nodes, b.searches, b.line)


def pairs(profile: str, code: str, nodes: int, rounds: int) -> Iterator[tuple[Answer, Answer]]:
    """``rounds`` pairs (Python, compiled), the order inside a pair alternating."""
    for i in range(rounds):
        if i % 2:
            compiled = solve_on(fast.COMPILED, profile, code, nodes)
            python = solve_on(fast.PYTHON, profile, code, nodes)
        else:
            python = solve_on(fast.PYTHON, profile, code, nodes)
            compiled = solve_on(fast.COMPILED, profile, code, nodes)
        yield python, compiled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="append", help=f"profile (repeatable; default {', '.join(PROFILES)})")
    parser.add_argument("--code", action="append", help=f"deal (repeatable; default {', '.join(CODES)})")
    parser.add_argument("--nodes", type=int, default=30_000, help="node budget of each solve (default 30,000)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs per deal (default 3)")
    args = parser.parse_args(argv)
    why = fast.refusal(get_profile("app"))
    if why:
        print(f"bench_solver: {why}", file=sys.stderr)
        return 2
    ratios: list[float] = []
    print(f"{'profile':<15} {'deal':<14} {'verdict':<9} {'nodes':>8} {'python n/s':>11} {'compiled n/s':>13}"
          f" {'ratio':>6}")
    for profile in args.profile or PROFILES:
        for code in args.code or CODES:
            found = list(pairs(profile, code, args.nodes, args.rounds))
            if not all(same(p, c) for p, c in found):
                print(f"bench_solver: {profile} {code}: the two cores disagree", file=sys.stderr)
                return 1
            mine = [rate(c) / rate(p) for p, c in found]
            ratios += mine
            first = found[0][0]
            print(f"{profile:<15} {code:<14} {first.verdict:<9} {first.nodes:>8} "
                  f"{statistics.median(rate(p) for p, _ in found):>11,.0f} "
                  f"{statistics.median(rate(c) for _, c in found):>13,.0f} {statistics.median(mine):>6.2f}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median ratio compiled/python over {len(ratios)} pairs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}); load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
