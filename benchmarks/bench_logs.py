"""Benchmark: checking long game logs (spec/game-log.md) on the reference engine.

Run: python benchmarks/bench_logs.py [--actions 10000] [--repeat 5]
Writes logs of --actions random actions played by the reference on one app deal (legal moves,
undos, reshuffles, taps and refused moves): one whose records carry the whole canonical state (the
worst case, about 1 kB a record) and one that records the verdict, move counter, status and
foundations. Then times ``crescent-conformance check-log`` on each in this process: best and
median of --repeat runs, reading included, as wall time and as CPU time (wall time grows with the
machine's load, printed last). The target is under 2 s for 10,000 actions.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from conformance.cli import main as conformance_main
from conformance.logs.model import STATE_FIELDS
from conformance.logs.record import random_log, write_log

LOGS = {"whole state": STATE_FIELDS, "some fields": ("moves", "status", "foundations")}


def measure(path: Path, repeat: int) -> tuple[list[float], list[float], str]:
    """Wall and CPU seconds of each check-log run, and its output."""
    wall, cpu, out = [], [], io.StringIO()
    for _ in range(repeat):
        out = io.StringIO()
        began, began_cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out):
            code = conformance_main(["check-log", str(path)])
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
        if code != 0:
            raise SystemExit(out.getvalue())
    return wall, cpu, out.getvalue().strip()


def one(folder: Path, name: str, fields: Iterable[str], args: argparse.Namespace) -> None:
    """Write one log, check it --repeat times, print the figures."""
    path = folder / f"{name.replace(' ', '-')}.jsonl"
    write_log(path, random_log(args.profile, "CR1-N-AAAAAAB", args.actions, seed=1, fields=fields))
    wall, cpu, said = measure(path, args.repeat)
    print(f"{name}: {args.actions} actions, {path.stat().st_size / 1e6:.1f} MB; {said.split(': ', 1)[1]}")
    print(f"  wall: best {min(wall):.3f}s  median {statistics.median(wall):.3f}s  (target < 2 s)")
    print(f"  CPU:  best {min(cpu):.3f}s  median {statistics.median(cpu):.3f}s  (load does not inflate it)")


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", default="app")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, fields in LOGS.items():
            one(Path(folder), name, fields, args)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
