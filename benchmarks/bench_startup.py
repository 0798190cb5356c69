"""Benchmark: start-up, the CPU a process spends before the corpus's scenarios run.

Run: python benchmarks/bench_startup.py [--repeat 5]

Each figure is the CPU (user + system, from the OS's accounting of the finished child process) of a
whole ``crescent-conformance run -q --id layout-001``: start, load the corpus, one scenario, report.
- warm: the corpus cache holds this corpus (one run made it first);
- cold: an empty cache folder each run (every file parsed and checked against the schema);
- off: ``CRESCENT_CACHE_DIR=off``.
Then the corpus under pytest on the reference, serial against ``-n 2`` (wall and CPU of the whole
pytest process tree), warm cache. Runs alternate, so a drift in the machine's load touches both
sides; medians are printed, with the load average and whether Python writes bytecode caches at the
end (with ``PYTHONDONTWRITEBYTECODE`` set and no caches yet, every process compiles the kit, and
pytest rewrites the asserts of every plugin package, Hypothesis's included: a run then takes about
1.5 times the CPU).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ONE = [str(Path(sys.executable).parent / "crescent-conformance"), "run", "-q", "--id", "layout-001"]
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--crescent-impl=reference"]


def child_cpu(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """CPU seconds (this child and its children) and wall seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def environment(cache: str) -> dict[str, str]:
    return {**os.environ, "CRESCENT_CACHE_DIR": cache}


def alternate(cases: dict[str, Callable[[], tuple[float, float]]], repeat: int) -> dict[str, list[tuple[float, float]]]:
    """Each case ``repeat`` times, in turn (A B C A B C ...)."""
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for n in range(repeat):
        for name, case in cases.items():
            figures[name].append(case())
        print(f"  round {n + 1}/{repeat}", file=sys.stderr, flush=True)
    return figures


def show(figures: dict[str, list[tuple[float, float]]], against: str) -> None:
    base = statistics.median(cpu for cpu, _ in figures[against])
    for name, runs in figures.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(f"{name:<22} cpu {cpu:6.3f} s  wall {wall:6.3f} s  cpu/{against} {cpu / base:5.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        warm = str(Path(scratch) / "warm")
        cwd = str(Path(scratch))
        child_cpu(ONE, environment(warm), cwd)  # fills the warm cache

        def cold() -> tuple[float, float]:
            return child_cpu(ONE, environment(tempfile.mkdtemp(dir=scratch)), cwd)

        print("one scenario, whole process:")
        show(alternate({
            "warm cache": lambda: child_cpu(ONE, environment(warm), cwd),
            "cold cache": cold,
            "cache off": lambda: child_cpu(ONE, environment("off"), cwd),
        }, args.repeat), "cache off")  # fmt: skip
        print("the corpus under pytest (warm cache):")
        show(alternate({
            "serial": lambda: child_cpu(PYTEST, environment(warm), cwd),
            "-n 2": lambda: child_cpu([*PYTEST, "-n", "2"], environment(warm), cwd),
        }, args.repeat), "serial")  # fmt: skip
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"bytecode caches: {'not written (PYTHONDONTWRITEBYTECODE)' if sys.flags.dont_write_bytecode else 'written'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
