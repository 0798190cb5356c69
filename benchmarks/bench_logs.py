"""Benchmark: checking a long game log (spec/game-log.md) on the reference engine.

Run: python benchmarks/bench_logs.py [--actions 10000] [--repeat 5]
Writes a log of --actions random actions played by the reference on one app deal (legal moves,
undos, reshuffles, taps and refused moves; every record with the whole canonical state), then
times ``crescent-conformance check-log`` on it in this process: best and median of --repeat runs,
reading included, as wall time and as CPU time (wall time grows with the machine's load, printed
last). The target is under 2 s for 10,000 actions.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import tempfile
import time
from pathlib import Path

from conformance.cli import main as conformance_main
from conformance.logs.record import random_log, write_log


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", default="app")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        began = time.perf_counter()
        write_log(path, random_log(args.profile, "CR1-N-AAAAAAB", args.actions, seed=1))
        size = path.stat().st_size
        print(f"log: {args.actions} actions, {size / 1e6:.1f} MB, written in {time.perf_counter() - began:.2f}s")
        times, cpu = [], []
        for _ in range(args.repeat):
            out = io.StringIO()
            began, began_cpu = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(out):
                code = conformance_main(["check-log", str(path)])
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
            if code != 0:
                print(out.getvalue())
                return 1
        print(out.getvalue().strip())
    print(f"check-log wall: best {min(times):.3f}s  median {statistics.median(times):.3f}s  (target < 2 s)")
    print(f"check-log CPU:  best {min(cpu):.3f}s  median {statistics.median(cpu):.3f}s  (load does not inflate it)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
