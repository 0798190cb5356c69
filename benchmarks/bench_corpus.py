"""Benchmark: the whole corpus against the reference engine, in-process and over the stdio protocol.

Run: python benchmarks/bench_corpus.py [--repeat 5]
Prints the wall time of each run (best and median of --repeat runs, measured in one process, one
after the other) and the ratio stdio / in-process. Scenario loading is timed separately, once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from conformance.adapters.session import make_adapter, plan
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import run_scenario


def run_all(pairs: list[tuple[Scenario, str]], cmd: str | None) -> tuple[float, int]:
    """Wall seconds for one full run, including adapter start and stop; and the passed count."""
    began = time.perf_counter()
    adapter = make_adapter("reference", cmd)
    info = adapter.info()
    passed = sum(run_scenario(adapter, info, sc, p).verdict == "passed" for sc, p in pairs)
    adapter.close()
    return time.perf_counter() - began, passed


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    began = time.perf_counter()
    pairs = plan(load_corpus())
    print(f"corpus: {len(pairs)} scenario-profile runs, loaded and validated in {time.perf_counter() - began:.3f}s")
    cmd = f"{sys.executable} -m crescent_ref.serve"
    times: dict[str, list[float]] = {"in-process": [], "stdio": []}
    for _ in range(args.repeat):
        for name, command in (("in-process", None), ("stdio", cmd)):
            seconds, passed = run_all(pairs, command)
            times[name].append(seconds)
    for name, values in times.items():
        print(f"{name:<11} best {min(values):.3f}s  median {statistics.median(values):.3f}s  ({passed} passed)")
    ratio = statistics.median(times["stdio"]) / statistics.median(times["in-process"])
    print(f"stdio / in-process (medians): {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
