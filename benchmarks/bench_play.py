"""Benchmark: differential steps per second, and perft speed of the reference engine.

Run: python benchmarks/bench_play.py
- differential play, reference against itself, in-process and over stdio (`crescent-ref serve`):
  actions compared per second (each counted once, though both engines play it), with shrinking off;
- perft at depth 3 from dealt positions (four codes, profile app): leaves per second.
All figures come from this one run, one after the other, on one core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from conformance.adapter import Adapter, Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.explore.fuzz import FuzzConfig, fuzz
from crescent_ref.game import Game
from crescent_ref.perft import perft

COUNT = {"acts": 0}


class Counting(ReferenceAdapter):
    """The reference, counting the actions it is asked to apply."""

    def act(self, action: str) -> Reply:
        COUNT["acts"] += 1
        return super().act(action)


class CountingStdio(StdioAdapter):
    """A stdio adapter counting its actions."""

    def act(self, action: str, fields: frozenset[str] | None = None) -> Reply:
        COUNT["acts"] += 1
        return super().act(action, fields)


def differential(subject: type[Adapter] | None, label: str, examples: int) -> None:
    """Play ``examples`` games of up to 60 steps and print steps per second."""
    COUNT["acts"] = 0
    with TemporaryDirectory() as out:
        config = FuzzConfig(profile="app", games=examples, steps=60, out=Path(out), shrink=False)
        factory = (lambda: CountingStdio(f"{sys.executable} -m crescent_ref.serve")) if subject is None else subject
        began = time.perf_counter()
        fuzz(factory, config)
        seconds = time.perf_counter() - began
    steps = COUNT["acts"]
    print(f"differential, {label:<10}: {steps:>6} steps in {seconds:6.2f}s = {steps / seconds:8.0f} steps/s")


def perft_speed() -> None:
    """perft(3) from four dealt positions: leaves, and the positions made on the way (applied actions)."""
    leaves = made = 0
    began = time.perf_counter()
    for code in ("CR1-N-AAAAAAB", "CR1-N-PERFTXX", "CR1-N-ABCDEFG", "CR1-N-ZZZZZZZ"):
        leaves += perft(Game.deal("app", code), 3)
    seconds = time.perf_counter() - began
    for code in ("CR1-N-AAAAAAB", "CR1-N-PERFTXX", "CR1-N-ABCDEFG", "CR1-N-ZZZZZZZ"):
        game = Game.deal("app", code)
        made += perft(game, 1) + perft(game, 2)  # depth 3 applies an action at depths 1 and 2 only
    print(f"perft depth 3, app, 4 deals: {leaves} leaves in {seconds:.3f}s = {leaves / seconds:.0f} leaves/s "
          f"({made} positions made = {made / seconds:.0f} nodes/s)")


def main() -> int:
    """Measure and print."""
    differential(Counting, "in-process", 200)
    differential(None, "stdio", 100)
    perft_speed()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
