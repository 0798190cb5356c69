"""Choosing the restarts by measurement: schedules of the portfolio (orders, first slice, tie-break
spread) on the deals a win-rate run left unknown, split into a training half and a held-out half.

Every other unknown of each FILE (in the file's order) is a training deal (``--half train``, the
even places) or a held-out one (``--half held``, the odd places): a schedule is chosen on the first
and reported on the second, never tuned and reported on the same deals. Each deal is solved once per
schedule, one after another in this process (paired: the schedules of one deal run back to back),
within ``--nodes`` nodes (so that the load does not move the answer) or ``--seconds`` CPU seconds.
Per schedule it prints the deals won, the nodes and the CPU seconds spent; per deal the searches
that won it.

    python benchmarks/bench_orders.py --from /work/campaign/wr22-app-10s.json.gz --deals 8 --nodes 2000000 \\
        --schedule now --schedule spread8
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from bench_solver import recorded, unknowns

from crescent_ref.game import Game
from crescent_ref.solver import fast
from crescent_ref.solver import search as searching
from crescent_ref.solver.orders import FIRST_SLICE, NO_WRAP_FIRST, PORTFOLIO, Order, Promise, merged, slices
from crescent_ref.solver.search import Answer, Budget, Restarts

Schedule = tuple[tuple[Order, ...], int, int]  # orders, first slice, spread

SCHEDULES: dict[str, Schedule] = {
    "now": (PORTFOLIO, FIRST_SLICE, 0),
    "spread4": (PORTFOLIO, FIRST_SLICE, 4),
    "spread8": (PORTFOLIO, FIRST_SLICE, 8),
    "spread16": (PORTFOLIO, FIRST_SLICE, 16),
    "spread32": (PORTFOLIO, FIRST_SLICE, 32),
    "four8": (PORTFOLIO[:4], FIRST_SLICE, 8),
    "mid8": (PORTFOLIO, 2 * FIRST_SLICE, 8),
    "big8": (PORTFOLIO, 4 * FIRST_SLICE, 8),
    "big16": (PORTFOLIO, 8 * FIRST_SLICE, 8),
    "small8": (PORTFOLIO, FIRST_SLICE // 2, 8),
    "first8": ((Promise(8, 48, 1, 4),), FIRST_SLICE, 8),
    # the orders that won most late in hoffmann-1892's 1,000-deal run (searches past the first round):
    # 0: 109, 1: 62, 3: 62, 4: 62, 2: 45, 6: 30, 7: 28, 5: 11
    "hoff7": (tuple(PORTFOLIO[i] for i in (0, 1, 3, 4, 2, 6, 7)), FIRST_SLICE, 8),
    "hoff5": (tuple(PORTFOLIO[i] for i in (0, 1, 3, 4, 2)), FIRST_SLICE, 8),
    # hoffmann-1892 as it is (the 32,000-node first slice). The meeting-point scores tried against it (hold, meet,
    # tangle, tangleOnly, plus: docs/solver.md) need Promise.hold: benchmarks/results/hoffmann-meeting-experiment.diff
    "noWrap": (PORTFOLIO, NO_WRAP_FIRST, 8),
}


Plan = Callable[[], Iterator[tuple[Order, int]]]
ROUND = len(PORTFOLIO)


def _after_first(*rest: Iterator[tuple[Order, int]]) -> Iterator[tuple[Order, int]]:
    """The first round of 32,000-node searches, then ``rest`` merged (orders.merged)."""
    return itertools.chain(itertools.islice(slices(PORTFOLIO, NO_WRAP_FIRST, 8), ROUND), merged(*rest))


# schedules that give slices of several sizes their turn (hoffmann-1892, docs/solver.md)
PLANS: dict[str, Plan] = {
    # the first round of 32,000, then the 8,000-node schedule's later rounds (its seeds and sizes)
    "hyb": lambda: _after_first(slices(PORTFOLIO, FIRST_SLICE, 8, skip=1)),
    # the first round of 32,000, then that schedule's later rounds and the 8,000 one's (other seeds) in turn
    "twinA": lambda: _after_first(slices(PORTFOLIO, NO_WRAP_FIRST, 8, skip=1),
                                  slices(PORTFOLIO, FIRST_SLICE, 8, skip=1, seeds=16)),
    # the same, the 8,000 schedule keeping its seeds and the 32,000 one taking others
    "twinB": lambda: _after_first(slices(PORTFOLIO, NO_WRAP_FIRST, 8, skip=1, seeds=16),
                                  slices(PORTFOLIO, FIRST_SLICE, 8, skip=1)),
    # a control for a change of the score: the same schedule with a tie-break in every round, the first too
    # (seeds 100 on), so every search takes another path: what another path alone wins at equal nodes
    "reseed": lambda: _reseeded(slices(PORTFOLIO, NO_WRAP_FIRST, 8), 100),
}


def _reseeded(plan: Iterator[tuple[Order, int]], seeds: int) -> Iterator[tuple[Order, int]]:
    """``plan`` with every Promise given the tie-break of seed ``seeds`` + its round (orders.noise)."""
    for n, (order, size) in enumerate(plan):
        yield (replace(order, seed=seeds + n // ROUND, spread=8) if isinstance(order, Promise) else order), size


def half(path: Path, which: str, count: int) -> list[tuple[str, str]]:
    """The first ``count`` deals of one half of ``path``'s unknowns."""
    every = unknowns(path, 100_000)
    return every[0 if which == "train" else 1::2][:count]


def late_wins(path: Path, count: int, skip: int = 0) -> dict[tuple[str, str], int]:
    """The wins of ``path`` after its first round of restarts (the ones a change of the later rounds
    can lose), the first ``count`` after ``skip``, each with the nodes its run would have made in the
    whole budget at that deal's node rate (so that the load does not move the answer)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    seconds = data["budget"]["seconds"]
    late = [e for e in data["results"] if e["verdict"] == "winnable" and e["searches"] > ROUND]
    return {(e["profile"], e["code"]): round(e["nodes"] / max(e["seconds"], 1e-3) * seconds)
            for e in late[skip:skip + count]}


def solve_with(name: str, profile: str, code: str, budget: Budget) -> Answer:
    game = Game.deal(profile, code)
    if name in PLANS:
        return Restarts(game.profile, budget, True, None, fast.core_for(game.profile), plan=PLANS[name]).run(
            game.position)
    schedule = SCHEDULES[name]
    orders, first, spread = schedule
    restarts = Restarts(game.profile, budget, True, None, fast.core_for(game.profile), orders=orders, first=first,
                        spread=spread)
    return restarts.run(game.position)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="files", type=Path, action="append", required=True, metavar="FILE")
    parser.add_argument("--half", choices=("train", "held"), default="train")
    parser.add_argument("--deals", type=int, default=8, help="deals of each file's half (default 8)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N deals of each half")
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--seconds", type=float, default=1e9)
    parser.add_argument("--recorded", action="store_true", help="each deal's node budget is the nodes FILE's run "
                        "spent on it (the schedule of that run is then unknown there for sure: it need not run)")
    parser.add_argument("--late", action="store_true", help="FILE's wins after its first round instead, each at the "
                        "nodes its run would have made in its whole time budget (wins a schedule can lose)")
    parser.add_argument("--schedule", action="append", choices=sorted([*SCHEDULES, *PLANS]), required=True)
    parser.add_argument("--suit-nodes", type=int, help="the one-suit searches' budget (default search.SUIT_NODES)")
    parser.add_argument("--last-nodes", type=int, help="last.py's sweeps' budget (default search.LAST_NODES)")
    args = parser.parse_args(argv)
    if args.suit_nodes is not None:
        searching.SUIT_NODES = args.suit_nodes
    if args.last_nodes is not None:
        searching.LAST_NODES = args.last_nodes
    deals = [d for path in args.files for d in half(path, args.half, args.skip + args.deals)[args.skip:]]
    spent = {d: n for path in args.files for d, n in recorded(path).items()} if args.recorded else {}
    if args.late:
        spent = {d: n for path in args.files for d, n in late_wins(path, args.deals, args.skip).items()}
        deals = list(spent)
    won = dict.fromkeys(args.schedule, 0)
    nodes = dict.fromkeys(args.schedule, 0)
    cpu = dict.fromkeys(args.schedule, 0.0)
    began = time.monotonic()
    for n, (profile, code) in enumerate(deals, 1):
        row = []
        budget = Budget(nodes=spent.get((profile, code), args.nodes), seconds=args.seconds)
        for name in args.schedule:
            answer = solve_with(name, profile, code, budget)
            won[name] += answer.verdict == "winnable"
            nodes[name] += answer.nodes
            cpu[name] += answer.seconds
            mark = f"won@{answer.searches}" if answer.verdict == "winnable" else answer.verdict
            row.append(f"{name}={mark} {answer.nodes / 1e6:.2f}M {answer.seconds:.1f}s")
        print(f"{n:>3} {profile:<14} {code} " + "  ".join(row), flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    for name in args.schedule:
        print(f"{name:<10} won {won[name]:>3} of {len(deals)}  {nodes[name] / 1e6:8.1f} M nodes {cpu[name]:7.1f} CPU s")
    per_deal = "as recorded" if args.recorded or args.late else f"{args.nodes:,}"
    what = "late wins" if args.late else f"{args.half} half"
    print(f"{what}, {per_deal} nodes / {args.seconds:g} s a deal; {time.monotonic() - began:.0f} s wall; "
          f"load average {load}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
