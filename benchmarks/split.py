"""Try to prove a deal not winnable by splitting its search at the last reshuffle.

``exhaust.py`` enumerates a deal's early phases and solves each *root* with one reshuffle left by
one depth-first search, whose table of positions holds both phases that follow: the positions with
one reshuffle left and those with none. That table is what ran out (CR1-N-LNCOLDU in ``open``:
45 million positions, 11 GiB). A reshuffle cannot be taken back, so the two phases split cleanly:
a root with one left is winnable exactly when some position reachable from it before its last
reshuffle is won, or the position right after that reshuffle (a *last root*, none left) is
winnable. So this script walks the positions with one left depth first (keyed by ``canon.key``,
the solver's own steps; a position proved dead by the rules the solve uses is not expanded: the
locked-card rule, ``waits.py``, and the one-suit rules with their last reshuffle), and solves each
distinct last root as it meets it, by its own depth-first search with every rule and a bounded
table of its own, forgotten when that search ends. Only the keys of the positions with one left
and of the last roots are kept for the whole run. The positions each last root's search proved
lost and the one-suit answers are shared between them (``Search.lost``, ``memo``, both bounded).

The verdict: ``winnable`` as soon as one last root is, ``not winnable`` when the walk ran dry and
every last root was proved not winnable, else ``unknown`` with the counts so far (last roots by
how they were decided; a last root left unknown within its budget is counted and the walk goes on,
so that one run measures what a proof would need). Progress on stderr every ``--every`` CPU s.
With ``--resume FILE`` every last root proved not winnable is added to the file as it is proved (a
16-byte BLAKE2b digest of its key, one a line), and a later run with the same file counts such a
root as proved without solving it again: the walk itself is cheap next to the last roots' searches,
so a long campaign can run in pieces.

    python benchmarks/split.py CR1-N-LNCOLDU --profile open --seconds 600 --root-nodes 200000
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from exhaust import enumerate_phases

from crescent_ref.actions import RESHUFFLE
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast
from crescent_ref.solver.canon import after
from crescent_ref.solver.orders import depth_first
from crescent_ref.solver.search import Budget, Search, waits_most

MEMO_SIZE = 2_000_000  # one-suit answers kept before the memo is cleared


@dataclass
class Split:
    """The walk of the positions with one reshuffle left and the last roots' answers so far."""

    profile: Profile
    core: fast.Core
    root_budget: Budget
    pairs: bool
    seen: set[bytes] = field(default_factory=set)  # positions with one left, met
    last_roots: set[bytes] = field(default_factory=set)
    lost: set[bytes] = field(default_factory=set)
    memo: dict[bytes, str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    nodes: int = 0
    largest: int = 0  # the most positions one last root's search stored
    proved: set[bytes] = field(default_factory=set)  # digests of last roots proved by an earlier run
    record: TextIO | None = None  # where each last root proved now is written (--resume)

    def judge(self) -> Search:
        """A search object whose rules judge positions with one reshuffle left (not run)."""
        if len(self.memo) > MEMO_SIZE:
            self.memo.clear()
        return Search(self.profile, Budget(10**12, 10**9), True, depth_first, core=self.core,
                      waits_most=waits_most(self.profile), lost=self.lost, memo=self.memo)

    def dead(self, pos: Position, judge: Search) -> bool:
        """Proved dead by the locked-card rule, waits.py, or a suit lost alone with its last reshuffle."""
        return self.core.dead(pos) or bool(self.core.waits(pos)) or judge.suit_lost(pos)

    def solve_last_root(self, root: Position, root_key: bytes) -> str:
        """One last root's verdict by its own depth-first search (every rule, a table of its own),
        or from the record of an earlier run."""
        digest = hashlib.blake2b(root_key, digest_size=16).digest()
        if digest in self.proved:
            self.counts["not winnable in the record"] += 1
            return "not winnable"
        search = Search(self.profile, self.root_budget, True, depth_first, core=self.core,
                        waits_most=waits_most(self.profile), pairs=self.pairs, lost=self.lost, memo=self.memo,
                        keep_met=True)
        answer = search.run(root)
        self.nodes += answer.nodes
        self.largest = max(self.largest, answer.stored)
        kind = ("at its start" if answer.nodes == 0 else "by its search") if answer.verdict == "not winnable" else ""
        self.counts[f"{answer.verdict} {kind}".strip()] += 1
        if answer.verdict == "not winnable" and self.record is not None:
            print(digest.hex(), file=self.record, flush=True)
        return answer.verdict

    def walk(self, start: Position, seconds: float, every: float) -> str:
        """Depth first over the positions with one left from ``start``; the verdict (see the module doc)."""
        began, judge = time.process_time(), self.judge()
        next_report, todo = began + every, [start]
        self.seen.add(self.core.key(start))
        while todo:
            now = time.process_time()
            if now - began >= seconds:
                self.counts["walks stopped by the time budget"] += 1
                return "unknown"
            if now >= next_report:
                next_report, judge = now + every, self.judge()
                self.report(now - began, len(todo))
            verdict = self.visit(todo.pop(), todo, judge)
            if verdict:
                return verdict
        return "unknown" if self.counts["unknown"] else "not winnable"

    def visit(self, pos: Position, todo: list[Position], judge: Search) -> str:
        """Expand one position with one left: queue its children, solve its last root; "winnable" or ""."""
        status = self.core.status(pos)
        if status == "won":
            return "winnable"
        if status == "lost" or self.dead(pos, judge):
            self.counts["one left, proved dead"] += 1
            return ""
        self.counts["one left, expanded"] += 1
        for _, child in self.core.children(pos):
            child_key = self.core.key(child)
            if child_key not in self.seen:
                self.seen.add(child_key)
                todo.append(child)
        root = after(self.profile, pos, (RESHUFFLE,))
        root_key = self.core.key(root)
        if root_key in self.last_roots:
            return ""
        self.last_roots.add(root_key)
        return "winnable" if self.solve_last_root(root, root_key) == "winnable" else ""

    def report(self, cpu: float, queued: int) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        done = ", ".join(f"{what} {n:,}" for what, n in sorted(self.counts.items()))
        print(f"  {cpu:.0f} CPU s: {done}; queued {queued:,}; last-root nodes {self.nodes:,} "
              f"(largest table {self.largest:,}); lost kept {len(self.lost):,}; {peak:,} MiB; "
              f"load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def resumed(split: Split, path: Path | None) -> Iterator[None]:
    """Read the record of an earlier run into ``split`` and add this run's proofs to it."""
    if path is None:
        yield
        return
    if path.exists():
        split.proved = {read(path, n, line) for n, line in enumerate(path.read_text().splitlines(), 1)}
    with path.open("a") as split.record:
        yield


def read(path: Path, number: int, line: str) -> bytes:
    """One line of a record: a digest in hex (SystemExit naming the file and line otherwise)."""
    try:
        digest = bytes.fromhex(line)
    except ValueError:
        digest = b""
    if len(digest) != 16:
        raise SystemExit(f"{path}:{number}: not a last root's digest: {line[:40]!r}")
    return digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code")
    parser.add_argument("--profile", default="open")
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU seconds for the whole run")
    parser.add_argument("--root-nodes", type=int, default=200_000, help="nodes of one last root's search")
    parser.add_argument("--root-seconds", type=float, default=20.0, help="CPU seconds of one last root's search")
    parser.add_argument("--root-stored", type=int, default=2_000_000, help="positions one last root's search stores")
    parser.add_argument("--pairs", action="store_true", help="with pairs.py in the last roots' searches")
    parser.add_argument("--every", type=float, default=60.0, help="CPU seconds between progress lines")
    parser.add_argument("--resume", type=Path, help="the record of last roots proved (read, then added to)")
    args = parser.parse_args()
    game = Game.deal(args.profile, args.code)
    core = fast.core_for(game.profile, fast.COMPILED)
    assert core is not None
    began, load = time.process_time(), os.getloadavg()[0]
    phases = enumerate_phases(game.profile, core, game.position, 2, 1_000_000)
    if phases.won or not phases.dry:
        print(f"{args.code} {args.profile}: {'winnable' if phases.won else 'unknown: the early phases pass the cap'}")
        return
    split = Split(game.profile, core, Budget(args.root_nodes, args.root_seconds, args.root_stored), args.pairs)
    with resumed(split, args.resume):
        verdicts = [split.walk(root, args.seconds - (time.process_time() - began), args.every)
                    for root in phases.roots.values()]
    over = "winnable" if "winnable" in verdicts else "not winnable" if set(verdicts) == {"not winnable"} else "unknown"
    split.report(time.process_time() - began, 0)
    print(f"{args.code} {args.profile}: {over}; {len(phases.roots)} roots with one left; "
          f"{len(split.seen):,} positions with one left met, {len(split.last_roots):,} last roots; "
          f"{', '.join(f'{w} {n:,}' for w, n in sorted(split.counts.items()))}; "
          f"{time.process_time() - began:.0f} CPU s, load {load:.2f}-{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
