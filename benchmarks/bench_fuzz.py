"""Differential play against every faulty engine of tests/conformance/mutants.py, in process and over stdio.

Per engine and transport: the findings (one is right per bug), each finding's rule against the
engine's documented rule (right/wrong), the seconds to find each bug and to find every bug, and
the steps of the shrunk scenarios; then totals, and the reference against itself (actions per
second, legal-move comparison on). Usage::

    python benchmarks/bench_fuzz.py [--seconds 20] [--multi-seconds 60] [--transport inproc|stdio|both]
                                    [--only NAME ...] [--soak 600]

A single-bug engine is fuzzed in its ``fuzz_profile`` for ``--seconds`` (the run stops early once
its rule is found and the rest of the budget finds nothing else: ``--settle`` seconds); an engine
with several bugs (``MULTI``) for ``--multi-seconds``, like ``fuzz --seconds 60``. Report the machine
load with the figures (printed first and last).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "conformance"))

from mutants import MULTI, MUTANTS, Mutant, MutantAdapter  # noqa: E402

from conformance.adapter import Adapter  # noqa: E402
from conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from conformance.adapters.stdio import StdioAdapter  # noqa: E402
from conformance.explore.fuzz import FuzzConfig, FuzzReport, fuzz  # noqa: E402

SERVE_MUTANT = HERE.parent / "tests" / "conformance" / "serve_mutant.py"


@dataclass(frozen=True)
class Row:
    """One engine's result: its bugs found (rule -> seconds), findings, wrong ones, steps."""

    name: str
    bugs: int
    found: dict[str, float]
    findings: int
    wrong: tuple[str, ...]
    steps: tuple[int, ...]
    seconds: float

    @property
    def every_bug(self) -> float | None:
        """Seconds until the last bug was found (None when one was missed)."""
        return max(self.found.values()) if len(self.found) == self.bugs else None


def subject(mutant: Mutant, transport: str) -> Callable[[], Adapter]:
    """The mutant's adapter factory for a transport."""
    if transport == "stdio":
        return lambda: StdioAdapter(f"{sys.executable} {SERVE_MUTANT} {mutant.name}", timeout=30)
    return lambda: MutantAdapter(mutant)


def hunt(mutant: Mutant, transport: str, seconds: float, out: Path) -> FuzzReport:
    """Fuzz one engine for ``seconds`` (every finding shrunk)."""
    config = FuzzConfig(profile=mutant.fuzz_profile, seconds=seconds, out=out, max_findings=20)
    return fuzz(subject(mutant, transport), config)


def judge(mutant: Mutant, report: FuzzReport) -> Row:
    """Which of the engine's bugs the findings name, and which findings name no bug of it."""
    expected = set(mutant.rules)
    found: dict[str, float] = {}
    wrong = []
    for f in report.findings:
        if f.diagnosis.rule in expected:
            found.setdefault(f.diagnosis.rule, f.seconds_to_find)
        else:
            wrong.append(f.diagnosis.rule or f.difference.kind)
    steps = tuple(len(f.case.actions) for f in report.findings)
    return Row(mutant.name, len(expected), found, len(report.findings), tuple(wrong), steps, report.seconds)


def show(row: Row, transport: str) -> None:
    """One engine's line."""
    missed = row.bugs - len(row.found)
    every = f"every bug by {row.every_bug:6.2f}s" if row.every_bug is not None else f"MISSED {missed}"
    wrong = f"  wrong: {', '.join(row.wrong)}" if row.wrong else ""
    times = ", ".join(f"{r} {s:.1f}s" for r, s in sorted(row.found.items(), key=lambda x: x[1]))
    print(f"{row.name:<34} {transport:<6} {row.findings:>2} finding(s) for {row.bugs} bug(s), "
          f"{len(row.found)} right; {every}; steps {list(row.steps)}{wrong}  [{times}]", flush=True)


def summary(transport: str, rows: list[Row]) -> None:
    """Totals: engines with exactly one right finding per bug, bugs found, wrong findings, worst times."""
    exact = sum(1 for r in rows if len(r.found) == r.bugs and not r.wrong and r.findings == r.bugs)
    bugs, right = sum(r.bugs for r in rows), sum(len(r.found) for r in rows)
    wrong = sum(len(r.wrong) for r in rows)
    times = sorted(r.every_bug for r in rows if r.every_bug is not None)
    print(f"\n{transport}: {exact}/{len(rows)} engines with exactly one right finding per bug; bugs found "
          f"{right}/{bugs}; wrong findings {wrong}")
    if times:
        print(f"  time to find every bug: median {times[len(times) // 2]:.2f}s, max {times[-1]:.2f}s")


def self_speed(transport: str, seconds: float) -> None:
    """The reference against itself: actions per second with legal-move comparison on, and CPU per side."""
    factory: Callable[[], Adapter] = ReferenceAdapter
    if transport == "stdio":
        factory = lambda: StdioAdapter(f"{sys.executable} -m crescent_ref.serve")  # noqa: E731
    mine, theirs = time.process_time(), _children_cpu()
    report = fuzz(factory, FuzzConfig(profile="app", seconds=seconds, out=None))
    mine, theirs = time.process_time() - mine, _children_cpu() - theirs
    print(f"reference vs itself, {transport:<6}: {report.actions} actions in {report.seconds:.1f}s = "
          f"{report.rate:,.0f} actions/s ({report.games} games, {len(report.findings)} findings); "
          f"CPU: fuzz {mine:.1f}s" + (f", engine {theirs:.1f}s" if transport == "stdio" else ""))


def soak(seconds: float) -> None:
    """The reference against itself in process for ``seconds``, printing the resident memory ten times."""
    slice_ = seconds / 10
    for k in range(10):
        report = fuzz(ReferenceAdapter, FuzzConfig(profile="app", seconds=slice_, seed=k, out=None))
        print(f"soak {(k + 1) * slice_:6.0f}s: {report.actions:>7} actions, resident memory {_rss_mb():.1f} MB")


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    """Run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0, help="budget per single-bug engine and transport")
    p.add_argument("--multi-seconds", type=float, default=60.0, help="budget per multi-bug engine and transport")
    p.add_argument("--transport", choices=("inproc", "stdio", "both"), default="inproc")
    p.add_argument("--only", nargs="*", default=[], help="only these engines")
    p.add_argument("--speed-seconds", type=float, default=10.0, help="budget of the reference-vs-itself runs")
    p.add_argument("--soak", type=float, default=0.0, help="also run this many seconds watching memory")
    args = p.parse_args()
    print(f"load average: {_load()} on {os.cpu_count()} cores")
    transports = ("inproc", "stdio") if args.transport == "both" else (args.transport,)
    chosen = [m for m in (*MUTANTS, *MULTI) if not args.only or m.name in args.only]
    with tempfile.TemporaryDirectory() as out:
        for transport in transports:
            began, rows = time.perf_counter(), []
            for m in chosen:
                budget = args.multi_seconds if m.bugs else args.seconds
                rows.append(judge(m, hunt(m, transport, budget, Path(out))))
                show(rows[-1], transport)
            summary(transport, rows)
            print(f"  ({time.perf_counter() - began:.0f}s for the {transport} hunt)\n")
    for transport in transports:
        self_speed(transport, args.speed_seconds)
    if args.soak:
        soak(args.soak)
    print(f"load average: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
