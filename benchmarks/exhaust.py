"""Try to prove a deal not winnable phase by phase: the early phases enumerated, then each root solved.

A reshuffle cannot be taken back, so a deal's positions fall into phases by the reshuffles left.
This script enumerates, on the compiled core, every position reachable from the start with at
least ``K`` reshuffles left (``--lowest K``; the solver's own steps, ``canon.steps``, and the
reshuffle while more than ``K`` are left; lost positions and those ``dead.py`` proves dead are not
expanded). The *roots* are the positions one reshuffle after those with exactly ``K`` left. The
deal is winnable exactly when a won position lies among the enumerated ones or some root is
winnable, so when the enumeration meets no win and every root is proved not winnable, the deal is
proved not winnable. Each root is solved by one depth-first search (``Search`` with every rule the
solve uses, and pairs.py with ``--pairs``) within ``--seconds`` CPU seconds; the roots share the
positions proved lost and the one-suit answers, so a later root drops what an earlier one exhausted.
Prints the enumeration, then each root's verdict, nodes and stored positions as it ends, and the
verdict over all (with the load).

    python benchmarks/exhaust.py CR1-N-LPZEZLQ --profile open --lowest 2 --seconds 60 --pairs
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from typing import NamedTuple

from crescent_ref.actions import RESHUFFLE
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast
from crescent_ref.solver.canon import after
from crescent_ref.solver.orders import depth_first
from crescent_ref.solver.search import Answer, Budget, Search, waits_most


class Phases(NamedTuple):
    """The enumeration: positions counted (with at least ``lowest`` left), whether a won one was met,
    whether it ran dry within its cap, and the roots by key."""

    counted: int
    won: bool
    dry: bool
    roots: dict[bytes, Position]


def enumerate_phases(profile: Profile, core: fast.Core, start: Position, lowest: int, cap: int) -> Phases:
    """Every position reachable from ``start`` with at least ``lowest`` reshuffles left, depth first."""
    seen, todo, roots, counted = {core.key(start)}, [start], dict[bytes, Position](), 0
    while todo:
        pos = todo.pop()
        status = core.status(pos)
        if status == "won":
            return Phases(counted, True, False, roots)
        if status == "lost" or core.dead(pos):
            continue
        counted += 1
        if counted > cap:
            return Phases(counted, False, False, roots)
        children = [child for _, child in core.children(pos)]
        if pos.reshuffles > lowest:
            children.append(after(profile, pos, (RESHUFFLE,)))
        elif pos.reshuffles == lowest > 0:
            root = after(profile, pos, (RESHUFFLE,))
            roots.setdefault(core.key(root), root)
        for child in children:
            child_key = core.key(child)
            if child_key not in seen:
                seen.add(child_key)
                todo.append(child)
    return Phases(counted, False, True, roots)


class Progress:
    """A search's ``tick``: a line on stderr every ``every`` CPU seconds (nodes so far, memory)."""

    def __init__(self, what: str, every: float = 60.0) -> None:
        self.what, self.every, self.began = what, every, time.process_time()
        self.next = self.began + every

    def __call__(self, nodes: int) -> None:
        now = time.process_time()
        if now >= self.next:
            self.next = now + self.every
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(f"  {self.what}: {now - self.began:.0f} CPU s, {nodes:,} nodes, {peak:,} MiB", file=sys.stderr,
                  flush=True)


def solve_roots(profile: Profile, core: fast.Core, roots: list[Position], budget: Budget,
                pairs: bool) -> list[Answer]:
    """One depth-first search per root, in turn, sharing what each proves; stops at a winnable root."""
    lost, memo, answers = set[bytes](), dict[bytes, str](), []
    for n, root in enumerate(roots, 1):
        search = Search(profile, budget, True, depth_first, core=core, waits_most=waits_most(profile),
                        pairs=pairs, lost=lost, memo=memo, keep_met=True, tick=Progress(f"root {n}/{len(roots)}"))
        answer = search.run(root)
        answers.append(answer)
        print(f"  root {n}/{len(roots)}: {answer.verdict} {answer.limit} nodes {answer.nodes:,} stored "
              f"{answer.stored:,} {answer.seconds:.1f} CPU s; positions proved lost so far {len(lost):,}", flush=True)
        if answer.verdict == "winnable":
            break
    return answers


def verdict(phases: Phases, answers: list[Answer], roots: int) -> str:
    """The deal's verdict from the enumeration and the roots' answers."""
    if phases.won or any(a.verdict == "winnable" for a in answers):
        return "winnable"
    if phases.dry and len(answers) == roots and all(a.verdict == "not winnable" for a in answers):
        return "not winnable"
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code")
    parser.add_argument("--profile", default="app")
    parser.add_argument("--lowest", type=int, default=2, help="enumerate the positions with at least this many left")
    parser.add_argument("--cap", type=int, default=1_000_000, help="most positions enumerated")
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per root")
    parser.add_argument("--stored", type=int, default=20_000_000, help="most positions one root's search stores")
    parser.add_argument("--pairs", action="store_true", help="with pairs.py in the roots' searches")
    args = parser.parse_args()
    game = Game.deal(args.profile, args.code)
    core = fast.core_for(game.profile, fast.COMPILED)
    assert core is not None
    began, load = time.process_time(), os.getloadavg()[0]
    phases = enumerate_phases(game.profile, core, game.position, args.lowest, args.cap)
    print(f"{args.code} {args.profile}: {phases.counted:,} positions with at least {args.lowest} reshuffles left "
          f"({'a won one met' if phases.won else 'all of them' if phases.dry else 'cap reached'}), "
          f"{len(phases.roots):,} roots with {args.lowest - 1} left", flush=True)
    answers = [] if phases.won or not phases.dry else solve_roots(
        game.profile, core, list(phases.roots.values()), Budget(10**12, args.seconds, args.stored), args.pairs)
    print(f"{args.code} {args.profile}: {verdict(phases, answers, len(phases.roots))} "
          f"({time.process_time() - began:.0f} CPU s, load {load:.2f}-{os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
