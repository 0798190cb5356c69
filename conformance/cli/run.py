"""``run``: the corpus against an implementation, a summary by area, optionally a JSON report.

Every adapter fault is a recorded result (a failed handshake errors every planned scenario); Ctrl-C
ends the run with a report saying ``complete: false`` and holding what ran. The exit code is 1
when a scenario failed or errored, or when every scenario was skipped (nothing was judged); 2 when
the selection names what does not exist or matches nothing; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from conformance.adapter import Adapter, AdapterError, Info
from conformance.adapters.session import SelectionError, check_selection, make_adapter, plan
from conformance.cli.common import Command, adapter_options, replay_name, selection_options
from conformance.corpus.lint import iter_lint
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.files import check_writable
from conformance.judging.report import area_summary, format_failure, report_header, unchecked_summary, write_report
from conformance.judging.runner import Result, run_scenario
from crescent_ref.exits import BAD_INPUT, FAILED, INTERRUPTED, OK

UNKNOWN = Info("?", "?", "?", ())


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``run``."""
    selection_options(p)
    adapter_options(p)
    p.add_argument("--report", type=Path, help="write the JSON report here")
    p.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    p.add_argument(
        "--allow-empty", action="store_true", help="exit 0 even when nothing is selected or every scenario is skipped"
    )


def _run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    if args.report:
        check_writable(args.report, "--report")
    pairs = _selection(args)
    if pairs is None:
        return BAD_INPUT
    if not pairs:
        if not args.allow_empty:
            raise SelectionError("the selection (--profile, --id, --scenarios) matches no scenario")
        print("nothing selected (--allow-empty)")
        return OK
    adapter = _adapter(args)
    info, results, interrupted = _play_all(adapter, pairs)
    _summary(args, info, results, began)
    if args.report:
        complete = not (args.profile or args.id or interrupted)
        write_report(
            args.report,
            {**report_header(info, sorted({p for _, p in pairs}), complete), "planned": len(pairs)},
            results,
        )
    return INTERRUPTED if interrupted else _verdict(args, results)


def _selection(args: argparse.Namespace) -> list[tuple[Scenario, str]] | None:
    """The planned pairs; None (after saying why on stderr) when a selected scenario is broken."""
    scenarios = load_corpus(args.scenarios)
    check_selection(scenarios, args.profile, args.id)
    pairs = plan(scenarios, args.profile, args.id)
    faults = list(iter_lint({sc.id: sc for sc, _ in pairs}.values()))
    for fault in faults:
        print(f"crescent-conformance: {fault}", file=sys.stderr)
    return None if faults else pairs


def _adapter(args: argparse.Namespace) -> Adapter:
    try:
        return make_adapter(args.impl, args.cmd, args.timeout, args.max_line)
    except (ImportError, AttributeError, TypeError, ValueError) as err:
        raise SelectionError(f"--impl {args.impl!r}: cannot load the adapter: {err}") from None


def _play_all(adapter: Adapter, pairs: list[tuple[Scenario, str]]) -> tuple[Info, list[Result], bool]:
    """Every pair's result; a failed handshake errors them all; Ctrl-C stops (the third value: interrupted)."""
    results: list[Result] = []
    info, fault = UNKNOWN, ""
    try:
        try:
            info = adapter.info()
        except Exception as err:  # an adapter fault: AdapterError, or an in-process adapter's exception
            fault = str(err) if isinstance(err, AdapterError) else f"handshake failed: {type(err).__name__}: {err}"
        for scenario, profile in pairs:
            results.append(
                Result(scenario, profile, "errored", fault) if fault else run_scenario(adapter, info, scenario, profile)
            )
    except KeyboardInterrupt:
        print(f"\ninterrupted after {len(results)} of {len(pairs)} scenario runs", file=sys.stderr)
        return info, results, True
    finally:
        adapter.close()
    return info, results, False


def _summary(args: argparse.Namespace, info: Info, results: list[Result], began: float) -> None:
    if not args.quiet:
        for r in results:
            if r.verdict in ("failed", "errored"):
                print(format_failure(r, replay_name(args)) + "\n")
    print("\n".join(area_summary(results) + unchecked_summary(results)))
    counts = {v: sum(r.verdict == v for r in results) for v in ("passed", "failed", "skipped", "errored")}
    print(
        f"{info.name} {info.version}: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + f" in {time.perf_counter() - began:.2f}s"
    )


def _verdict(args: argparse.Namespace, results: list[Result]) -> int:
    if any(r.verdict in ("failed", "errored") for r in results):
        return FAILED
    if all(r.verdict == "skipped" for r in results) and not args.allow_empty:
        print(
            f"crescent-conformance: all {len(results)} scenario runs were skipped: nothing was judged "
            "(--allow-empty to accept)",
            file=sys.stderr,
        )
        return FAILED
    return OK


COMMAND = Command("run", "run the corpus against an implementation (default: the reference engine)", configure, _run)
