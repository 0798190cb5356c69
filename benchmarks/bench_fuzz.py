"""Differential play against every faulty engine of tests/conformance/mutants.py, in process and over stdio.

Prints per engine and transport: found or not, seconds to the first difference, seconds spent
shrinking, steps in the shrunk scenario; then medians and maxima, and the reference against
itself (actions per second, legal-move comparison on). Usage::

    python benchmarks/bench_fuzz.py [--seconds 30] [--transport inproc|stdio|both] [--only NAME ...] [--soak 600]

Each engine is fuzzed in its ``fuzz_profile`` (a profile where it plays differently) until the first
finding or the time budget. Report the machine load with the figures (``uptime``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "conformance"))

from mutants import MUTANTS, Mutant, MutantAdapter  # noqa: E402

from conformance.adapter import Adapter  # noqa: E402
from conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from conformance.adapters.stdio import StdioAdapter  # noqa: E402
from conformance.explore.fuzz import FuzzConfig, FuzzReport, fuzz  # noqa: E402

SERVE_MUTANT = HERE.parent / "tests" / "conformance" / "serve_mutant.py"


def subject(mutant: Mutant, transport: str) -> Callable[[], Adapter]:
    """The mutant's adapter factory for a transport."""
    if transport == "stdio":
        return lambda: StdioAdapter(f"{sys.executable} {SERVE_MUTANT} {mutant.name}", timeout=30)
    return lambda: MutantAdapter(mutant)


def hunt(mutant: Mutant, transport: str, seconds: float, out: Path) -> FuzzReport:
    """Fuzz one engine until its first finding (shrunk) or the budget."""
    config = FuzzConfig(profile=mutant.fuzz_profile, games=10**9, seconds=seconds, out=out, max_findings=1)
    return fuzz(subject(mutant, transport), config)


def row(mutant: Mutant, transport: str, report: FuzzReport) -> tuple[str, float | None, float | None, int | None]:
    """Print one engine's line; return (name, to find, to shrink, steps)."""
    if not report.findings:
        print(f"{mutant.name:<34} {transport:<6} NOT FOUND in {report.seconds:5.1f}s ({report.games} games)")
        return mutant.name, None, None, None
    f = report.findings[0]
    print(f"{mutant.name:<34} {transport:<6} found {f.seconds_to_find:6.2f}s  shrink {f.seconds_to_shrink:6.2f}s  "
          f"{len(f.case.actions):>3} steps  {f.diagnosis.title[:90]}")
    return mutant.name, f.seconds_to_find, f.seconds_to_shrink, len(f.case.actions)


def summary(transport: str, rows: list[tuple[str, float | None, float | None, int | None]]) -> None:
    """Medians and maxima over the found engines."""
    found = [r for r in rows if r[1] is not None]
    missed = [r[0] for r in rows if r[1] is None]
    print(f"\n{transport}: found {len(found)}/{len(rows)}" + (f" (missed: {', '.join(missed)})" if missed else ""))
    for label, k in (("first difference s", 1), ("shrinking s", 2), ("steps", 3)):
        values = [float(r[k]) for r in found if r[k] is not None]  # type: ignore[arg-type]
        if values:
            print(f"  {label:<20} median {statistics.median(values):7.2f}  max {max(values):7.2f}")


def self_speed(transport: str, seconds: float) -> None:
    """The reference against itself: actions per second with legal-move comparison on.

    Besides the wall-clock rate, the rate per CPU second: this process's CPU time and (over stdio)
    the served engine's, which run in parallel, so the larger of the two bounds the rate on a machine
    with two free cores. On a shared, loaded machine the wall-clock rate says more about the load.
    """
    factory: Callable[[], Adapter] = ReferenceAdapter
    if transport == "stdio":
        factory = lambda: StdioAdapter(f"{sys.executable} -m crescent_ref.serve")  # noqa: E731
    mine, theirs = time.process_time(), _children_cpu()
    report = fuzz(factory, FuzzConfig(profile="app", games=10**9, seconds=seconds, out=None))
    mine, theirs = time.process_time() - mine, _children_cpu() - theirs
    print(f"reference vs itself, {transport:<6}: {report.actions} actions in {report.seconds:.1f}s = "
          f"{report.rate:,.0f} actions/s ({report.games} games, {len(report.findings)} findings); "
          f"CPU: fuzz {mine:.1f}s" + (f", engine {theirs:.1f}s" if transport == "stdio" else "")
          + f" = {report.actions / max(mine, theirs, 1e-9):,.0f} actions per CPU second of the busier side")


def soak(seconds: float) -> None:
    """The reference against itself in process for ``seconds``, printing the resident memory ten times."""
    slice_ = seconds / 10
    for k in range(10):
        report = fuzz(ReferenceAdapter, FuzzConfig(profile="app", games=10**9, seconds=slice_, seed=k, out=None))
        print(f"soak {(k + 1) * slice_:6.0f}s: {report.actions:>7} actions, resident memory {_rss_mb():.1f} MB")


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    """Run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=30.0, help="budget per engine and transport")
    p.add_argument("--transport", choices=("inproc", "stdio", "both"), default="both")
    p.add_argument("--only", nargs="*", default=[], help="only these mutants")
    p.add_argument("--speed-seconds", type=float, default=10.0, help="budget of the reference-vs-itself runs")
    p.add_argument("--soak", type=float, default=0.0, help="also run this many seconds watching memory")
    args = p.parse_args()
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    transports = ("inproc", "stdio") if args.transport == "both" else (args.transport,)
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    with tempfile.TemporaryDirectory() as out:
        for transport in transports:
            began = time.perf_counter()
            rows = [row(m, transport, hunt(m, transport, args.seconds, Path(out))) for m in chosen]
            summary(transport, rows)
            print(f"  ({time.perf_counter() - began:.0f}s for the {transport} hunt)\n")
    for transport in transports:
        self_speed(transport, args.speed_seconds)
    if args.soak:
        soak(args.soak)
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
