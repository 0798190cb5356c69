"""Benchmark: start-up, the CPU a process spends before the corpus's scenarios run.

Run: python benchmarks/bench_startup.py [--repeat 5]

Each figure is the CPU (user + system, from the OS's accounting of the finished child process) of a
whole ``crescent-conformance run -q --id layout-001``: start, load the corpus, one scenario, report.
- warm: the corpus cache holds this corpus (one run made it first);
- cold: an empty cache folder each run (every file parsed and checked against the schema);
- off: ``CRESCENT_CACHE_DIR=off``.
Then the corpus under pytest on the reference, serial against ``-n 2`` (wall and CPU of the whole
pytest process tree), warm cache; and the same with only the items of one scenario selected
(``-k``), which splits each way's CPU and wall time into what a process tree pays once and what each
scenario item costs (the slope between the two runs: under xdist, the item's judging plus its six
messages to the controller and the controller's handling of them), and says at how many items of
that cost the two wall lines would cross. Runs alternate, so a drift in the machine's load
touches both sides; medians are printed, with the load average and whether Python writes bytecode
caches at the end (with ``PYTHONDONTWRITEBYTECODE`` set and no caches yet, every process compiles the kit, and
pytest rewrites the asserts of every plugin package, Hypothesis's included: a run then takes about
1.5 times the CPU).
"""

from __future__ import annotations

import argparse
import os
import re
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
ONE_SCENARIO = ["-k", "layout-001"]


def child_cpu(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """CPU seconds (this child and its children) and wall seconds of one run of ``argv``."""
    cpu, wall, _ = child_run(argv, env, cwd)
    return cpu, wall


def child_run(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float, str]:
    """``child_cpu`` and what the run printed on stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall, done.stdout


def passed(stdout: str) -> int:
    """The ``N passed`` of pytest's last line (the kit's summary above it counts by area)."""
    found = re.findall(r"(\d+) passed", stdout.strip().splitlines()[-1] if stdout.strip() else "")
    if not found:
        raise SystemExit(f"no 'passed' count in pytest's last line: {stdout[-300:]!r}")
    return int(found[-1])


def per_item(env: dict[str, str], cwd: str, repeat: int) -> None:
    """Each way's CPU and wall split into a fixed part and a part per scenario item (two selections,
    alternated), and how many items a run would need before ``-n 2`` took less wall time than serial."""
    ways = {"serial": PYTEST, "-n 2": [*PYTEST, "-n", "2"]}
    runs: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
    for n in range(repeat):
        for way, argv in ways.items():
            for chosen in ("all", "one"):
                cpu, wall, out = child_run([*argv, *(ONE_SCENARIO if chosen == "one" else [])], env, cwd)
                runs.setdefault((way, chosen), []).append((cpu, wall, passed(out)))
        print(f"  round {n + 1}/{repeat}", file=sys.stderr, flush=True)
    walls: dict[str, tuple[float, float]] = {}
    for way in ways:
        (cpu, cpu_once, n_one, n_all), (wall, wall_once, _, _) = (_split_cost(runs, way, k) for k in (0, 1))
        walls[way] = (wall, wall_once)
        print(
            f"{way:<22} {cpu * 1e3:5.2f} ms cpu a scenario item, {cpu_once:5.2f} s cpu once;"
            f" {wall * 1e3:5.2f} ms wall an item, {wall_once:5.2f} s wall once ({n_one} and {n_all} items)"
        )
    print(break_even(walls["serial"], walls["-n 2"]))


def _split_cost(
    runs: dict[tuple[str, str], list[tuple[float, float, int]]], way: str, k: int
) -> tuple[float, float, int, int]:
    """The slope (seconds an item) and intercept (seconds once) of figure ``k`` (0 cpu, 1 wall) between the
    medians of the one-scenario and the whole-corpus runs of ``way``."""
    (all_s, all_n), (one_s, one_n) = (_median(runs[way, chosen], k) for chosen in ("all", "one"))
    slope = (all_s - one_s) / (all_n - one_n)
    return slope, one_s - slope * one_n, one_n, all_n


def break_even(serial: tuple[float, float], parallel: tuple[float, float]) -> str:
    """Where the two wall lines (seconds an item, seconds once) cross, in scenario items."""
    saved, extra = serial[0] - parallel[0], parallel[1] - serial[1]
    if saved <= 0:
        return "wall: -n 2 costs no less per item than serial, so it never catches up"
    return f"wall: -n 2 would match serial at about {extra / saved:,.0f} scenario items of this cost"


def _median(runs: list[tuple[float, float, int]], k: int) -> tuple[float, int]:
    return statistics.median(run[k] for run in runs), runs[0][2]


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
        print("the same, per scenario item and once (the slope between all items and one scenario's):")
        per_item(environment(warm), cwd, args.repeat)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"bytecode caches: {'not written (PYTHONDONTWRITEBYTECODE)' if sys.flags.dont_write_bytecode else 'written'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
