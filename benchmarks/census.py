"""Where a solve's nodes go: positions taken from the frontier, by reshuffles left, and what became of them.

The solve runs search.py's Python loop over the compiled core's primitives (``CRESCENT_SOLVER_LOOP=python``
in effect), which expands the same positions in the same order as the compiled loop
(tests/solver/test_solver_fast.py), with each position taken from the frontier counted by its
reshuffles left and by its fate: lost by the rules (no move, no reshuffle), known lost (met by an
exhausted one-suit search), proved dead (dead.py, waits.py, the one-suit rules), or expanded. The
nodes of the one-suit searches (and of the two-suit ones, when asked) are counted apart from the
main searches' own.

    python benchmarks/census.py --profile hoffmann-1892 --code CR1-N-AAISLDM --nodes 2000000
"""

from __future__ import annotations

import argparse
import collections
import heapq
import os
import time
from collections.abc import Callable

from crescent_ref.game import Game
from crescent_ref.solver import fast
from crescent_ref.solver import search as searching
from crescent_ref.solver.search import Answer, Budget, Search, solve

FATES = ("lost", "known lost", "dead", "expanded")


class Census:
    """Counts kept while a solve runs: (reshuffles left, fate) -> positions; nodes by kind."""

    def __init__(self) -> None:
        self.fates: collections.Counter[tuple[int, str]] = collections.Counter()
        self.main = 0  # nodes made by the main searches' expansions
        self.searches = 0

    def wrap(self, original: Callable[[Search], Answer]) -> Callable[[Search], Answer]:
        """The loop for every search: counted for a main search, ``original`` for the one-suit ones."""
        def loop(search: Search) -> Answer:
            return self.loop(search) if search.relax else original(search)
        return loop

    def loop(self, search: Search) -> Answer:
        """``Search.loop`` with every position taken from the frontier counted (the same order)."""
        self.searches += 1
        expanded = 0
        while search.frontier:
            _, _, pos_key, pos = heapq.heappop(search.frontier)
            status, moves = search.judge(pos)
            fate = ("lost" if status == "lost" else "known lost" if pos_key in search.lost
                    else "dead" if search.hopeless(pos) else "expanded")
            self.fates[pos.reshuffles, fate] += 1
            if fate != "expanded":
                continue
            before = search.nodes
            won = search.expand(pos_key, pos, moves)
            self.main += search.nodes - before
            if won is not None:
                return search.answer("winnable", won)
            expanded += 1
            if expanded % searching.CHECK_EVERY == 0 and (limit := search.exhausted()):
                return search.answer("unknown", limit=limit)
        return search.exhausted_answer(len(search.parents))

    def table(self, answer: Answer) -> str:
        rows = [f"{'left':>4} " + " ".join(f"{f:>12}" for f in FATES)]
        for left in sorted({r for r, _ in self.fates}, reverse=True):
            rows.append(f"{left:>4} " + " ".join(f"{self.fates[left, f]:>12,}" for f in FATES))
        rest = answer.nodes - self.main
        rows.append(f"nodes {answer.nodes:,}: main searches {self.main:,}, one-suit (and pair) searches {rest:,} "
                    f"({100 * rest / max(answer.nodes, 1):.0f} %); {self.searches} main searches")
        return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="hoffmann-1892")
    parser.add_argument("--code", action="append", required=True)
    parser.add_argument("--nodes", type=int, default=2_000_000, help="node budget of each solve (default 2,000,000)")
    parser.add_argument("--two-from", type=int, help="two.py from this search on (default search.TWO_FROM)")
    args = parser.parse_args(argv)
    if args.two_from is not None:
        searching.TWO_FROM = args.two_from
    loop, fast.LOOP = fast.LOOP, False
    try:
        for code in args.code:
            census = Census()
            began = time.process_time()
            original = Search.loop
            Search.loop = census.wrap(original)  # type: ignore[method-assign,assignment]
            try:
                answer = solve(Game.deal(args.profile, code), Budget(nodes=args.nodes, seconds=1e9))
            finally:
                Search.loop = original  # type: ignore[method-assign]
            load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"{args.profile} {code}: {answer.verdict}, {answer.searches} searches, "
                  f"{time.process_time() - began:.1f} CPU s (Python loop); load average {load}")
            print(census.table(answer), flush=True)
    finally:
        fast.LOOP = loop
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
