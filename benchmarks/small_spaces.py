"""Candidates for a proof by exhaustion: starts whose reachable space is small, phase by phase.

A deal with the wrap is never dead at the start (docs/solver.md), so a proof that it is not
winnable must exhaust its search space. This scan looks for the starts where that could be cheap.
For each code of the win-rate list (benchmarks/winrate.py) it enumerates, on the compiled core,
every position reachable from the start with at least ``R`` reshuffles left, for R = 3, 2, 1, 0 in
turn, each within a cap of positions: the moves of ``canon.steps`` (the solver's own steps) and the
reshuffle while more than ``R`` are left, positions keyed by ``canon.key``, lost ones and those
``dead.py`` proves dead not expanded. A code goes on to the next R only while every enumeration so
far ran dry within its cap; a won position met ends it (the deal is winnable). Prints, per code that
passed the first cap, the positions counted per reshuffles left at each stage, and the survivors.

    python benchmarks/small_spaces.py --profile app --count 40000 --caps 60 20000 300000

``--most-moves K`` skips, before any census, the starts with more than ``K`` steps (``canon.steps``
and the reshuffle not counted): a start with many moves never passes the first cap, and the count
costs one call where the census costs dozens, so a scan of hundreds of thousands of codes stays short.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import NamedTuple

from winrate import codes

from crescent_ref.actions import RESHUFFLE
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast
from crescent_ref.solver.canon import after


class Census(NamedTuple):
    """Positions counted per reshuffles left (index 0..3) and how the enumeration ended:
    ``dry`` (all of them within the cap), ``cap`` or ``won``."""

    counts: tuple[int, ...]
    end: str


def census(profile: Profile, core: fast.Core, start: Position, lowest: int, cap: int) -> Census:
    """Every position reachable from ``start`` with at least ``lowest`` reshuffles left, depth first."""
    seen, todo, counts = {core.key(start)}, [start], [0] * (profile.reshuffles + 1)
    while todo:
        pos = todo.pop()
        status = core.status(pos)
        if status == "won":
            return Census(tuple(counts), "won")
        if status == "lost" or core.dead(pos):
            continue
        counts[pos.reshuffles] += 1
        if sum(counts) > cap:
            return Census(tuple(counts), "cap")
        children = [child for _, child in core.children(pos)]
        if pos.reshuffles > lowest:
            children.append(after(profile, pos, (RESHUFFLE,)))
        for child in children:
            child_key = core.key(child)
            if child_key not in seen:
                seen.add(child_key)
                todo.append(child)
    return Census(tuple(counts), "dry")


def stages(profile: Profile, core: fast.Core, start: Position, caps: Sequence[int]) -> list[Census]:
    """The censuses with at least R = reshuffles, reshuffles - 1, ... left, one per cap, stopping
    after the first that does not run dry."""
    found = []
    for lowest, cap in zip(range(profile.reshuffles, -1, -1), caps, strict=False):
        found.append(census(profile, core, start, lowest, cap))
        if found[-1].end != "dry":
            break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="app")
    parser.add_argument("--first", type=int, default=1, help="index of the first code in the fixed list")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--most-moves", type=int, default=-1,
                        help="skip starts with more steps than this before any census (-1: no limit)")
    parser.add_argument("--caps", type=int, nargs="+", default=[60, 20_000, 300_000],
                        help="positions allowed at R = 3, 2, 1, 0 left in turn")
    args = parser.parse_args()
    began, survivors, skipped = time.process_time(), [], 0
    core = None
    for n, code in enumerate(codes(args.first + args.count - 1)[args.first - 1:], 1):
        game = Game.deal(args.profile, code)
        core = core or fast.core_for(game.profile, fast.COMPILED)
        assert core is not None
        if n % 50000 == 0:
            print(f"[{n}/{args.count}] {time.process_time() - began:.0f} CPU s", file=sys.stderr, flush=True)
        if 0 <= args.most_moves < len(core.children(game.position)):
            skipped += 1
            continue
        found = stages(game.profile, core, game.position, args.caps)
        if len(found) > 1 or found[0].end == "dry":
            print(code, " ".join(f"R>={game.profile.reshuffles - i}:{list(c.counts)}:{c.end}"
                                 for i, c in enumerate(found)), flush=True)
            if found[-1].end == "dry":
                survivors.append(code)
    print(f"{args.profile}: {args.count} codes ({skipped} skipped by --most-moves), "
          f"{time.process_time() - began:.0f} CPU s; "
          f"every stage ran dry for {len(survivors)}: {' '.join(survivors) or '-'}")


if __name__ == "__main__":
    main()
