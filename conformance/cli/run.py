"""``run``: the corpus against an implementation, a summary by area, optionally a JSON report."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from conformance.adapters.session import make_adapter, plan
from conformance.cli.common import Command, adapter_options, replay_name, selection_options
from conformance.corpus.load import load_corpus
from conformance.judging.report import area_summary, format_failure, report_header, unchecked_summary, write_report
from conformance.judging.runner import Result, run_scenario


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``run``."""
    selection_options(p)
    adapter_options(p)
    p.add_argument("--report", type=Path, help="write the JSON report here")
    p.add_argument("-q", "--quiet", action="store_true", help="only the summary")


def _run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    pairs = plan(load_corpus(args.scenarios), args.profile, args.id)
    adapter = make_adapter(args.impl, args.cmd, args.timeout)
    info = adapter.info()
    results: list[Result] = []
    try:
        for scenario, profile in pairs:
            results.append(run_scenario(adapter, info, scenario, profile))
    finally:
        adapter.close()
    bad = [r for r in results if r.verdict in ("failed", "errored")]
    if not args.quiet:
        for r in bad:
            print(format_failure(r, replay_name(args)) + "\n")
    print("\n".join(area_summary(results) + unchecked_summary(results)))
    counts = {v: sum(r.verdict == v for r in results) for v in ("passed", "failed", "skipped", "errored")}
    print(
        f"{info.name} {info.version}: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + f" in {time.perf_counter() - began:.2f}s"
    )
    if args.report:
        complete = not (args.profile or args.id)
        write_report(args.report, report_header(info, sorted({p for _, p in pairs}), complete), results)
    return 1 if bad else 0


COMMAND = Command("run", "run the corpus against an implementation (default: the reference engine)", configure, _run)
