"""``run``: the corpus against an implementation, a summary by area, optionally a JSON report.

Every adapter fault is a recorded result (a failed handshake errors every planned scenario); Ctrl-C
ends the run with a report saying ``complete: false`` and holding what ran. The exit code is 1
when a scenario failed or errored, or when every scenario was skipped (nothing was judged); 2 when
the selection names what does not exist or matches nothing; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from conformance.adapter import Adapter, AdapterError, Info
from conformance.adapters.replies import shown as escaped
from conformance.adapters.session import SelectionError, check_selection, plan
from conformance.cli.common import (
    Command,
    adapter_options,
    check_expectations,
    contract_of,
    contract_options,
    open_adapter,
    positive,
    selection_options,
)
from conformance.contract import Contract
from conformance.contract.expectations import write_expectations
from conformance.corpus.lint import lint_selected
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.files import check_writable
from conformance.judging.report import (
    BAD_OUTCOMES,
    area_summary,
    counts,
    declared_lines,
    format_failure,
    outcome,
    replay_command,
    report_header,
    result_record,
    unchecked_summary,
    write_report,
)
from conformance.judging.runner import Result, judge_all
from conformance.wording import RUNS, fault_hints, need_text, not_run, runs, spoiled, spoiled_blocks, unit_line
from crescent_ref.exits import BAD_INPUT, FAILED, INTERRUPTED, OK
from crescent_ref.progress import progress, shown

UNKNOWN = Info("(no handshake)", "", "?", ())


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``run``."""
    selection_options(p)
    adapter_options(p)
    contract_options(p)
    p.add_argument("--report", type=Path, help="write the JSON report here")
    p.add_argument(
        "--write-expectations",
        type=Path,
        metavar="FILE",
        help="write the failed and errored scenario-profiles of this run as an expectations file",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    p.add_argument(
        "--max-failures",
        type=positive(int),
        metavar="N",
        help="print only the first N failures in full, then count the rest (the summary is unchanged)",
    )
    p.add_argument(
        "--allow-empty", action="store_true", help="exit 0 even when nothing is selected or every scenario is skipped"
    )


def _run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    with _starting(args.quiet):
        for flag, path in (("--report", args.report), ("--write-expectations", args.write_expectations)):
            if path:
                check_writable(path, flag)
        expectations = check_expectations(args)
        pairs = _selection(args)
    if pairs is None:
        return BAD_INPUT
    gc.freeze()  # the corpus lives to the end: later collections (an import, the run's garbage) skip it
    if not pairs:
        if not args.allow_empty:
            raise SelectionError("the selection (--profile, --id, --scenarios) matches no scenario")
        print("nothing selected (--allow-empty)")
        return OK
    adapter = _adapter(args)
    resolve = functools.partial(contract_of, args, expectations=expectations)
    contract, results, interrupted = _play_all(adapter, pairs, args.quiet, resolve)
    complete = not (args.profile or args.id or interrupted) and len(results) == len(pairs)
    header = {**report_header(contract, sorted({p for _, p in pairs}), complete), "planned": len(pairs)}
    _summary(args, contract, header, results, began)
    if args.report:
        write_report(args.report, header, results)
    if args.write_expectations:
        _write_expectations(args.write_expectations, results, interrupted)
    return INTERRUPTED if interrupted else _verdict(args, results)


def _write_expectations(path: Path, results: list[Result], interrupted: bool) -> None:
    """The run's failures as an expectations file; not written after an interrupt (it would miss some)."""
    if interrupted:
        print(f"crescent-conformance: {path} NOT written: the run was interrupted", file=sys.stderr)
        return
    write_expectations(path, [result_record(r) for r in results])
    print(f"wrote {path} (the failed and errored runs; pass it back with --expectations)")


def _selection(args: argparse.Namespace) -> list[tuple[Scenario, str]] | None:
    """The planned pairs; None (after saying why on stderr) when a selected scenario is broken."""
    scenarios = load_corpus(args.scenarios)
    check_selection(scenarios, args.profile, args.id)
    pairs = plan(scenarios, args.profile, args.id)
    faults = list(lint_selected({sc.id: sc for sc, _ in pairs}.values()))
    for fault in faults:
        print(f"crescent-conformance: {fault}", file=sys.stderr)
    return None if faults else pairs


def _adapter(args: argparse.Namespace) -> Adapter:
    try:
        return open_adapter(args)
    except (ImportError, AttributeError, TypeError, ValueError) as err:
        raise SelectionError(f"--impl {args.impl!r}: cannot load the adapter: {err}") from None


def _play_all(
    adapter: Adapter,
    pairs: list[tuple[Scenario, str]],
    quiet: bool = False,
    resolve: Callable[[Info], Contract] = Contract,
) -> tuple[Contract, list[Result], bool]:
    """Every pair's result under the contract ``resolve`` makes of the handshake (a progress bar on a
    terminal); a failed handshake errors them all; Ctrl-C stops (the third value: interrupted)."""
    results: list[Result] = []
    contract, fault = resolve(UNKNOWN), ""
    try:
        try:
            with _starting(quiet, "handshake with the implementation"):
                contract = resolve(adapter.info())
        except Exception as err:  # an adapter fault: AdapterError, or an in-process adapter's exception
            fault = str(err) if isinstance(err, AdapterError) else f"handshake failed: {type(err).__name__}: {err}"
        played = (Result(sc, p, "errored", fault) for sc, p in pairs) if fault else judge_all(adapter, contract, pairs)
        for result in progress(played, "scenario runs", total=len(pairs), unit="run", quiet=quiet):
            results.append(result)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {len(results)} of {len(pairs)} scenario runs", file=sys.stderr)
        return contract, results, True
    finally:
        adapter.close()
    return contract, results, False


@contextlib.contextmanager
def _starting(quiet: bool, what: str = "reading the corpus and planning the scenario runs") -> Iterator[None]:
    """A first word on a terminal at once (reading the corpus, or a handshake, takes a moment before the
    progress bar), wiped when that is done or fails."""
    if not shown(quiet):
        yield
        return
    print(f"crescent-conformance run: {what} ...", end="", file=sys.stderr, flush=True)
    try:
        yield
    finally:
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def _summary(
    args: argparse.Namespace, contract: Contract, header: dict[str, Any], results: list[Result], began: float
) -> None:
    records = [result_record(r) for r in results]
    if contract.info is UNKNOWN and results:  # no handshake: one fault, not one block per run
        print(f"HANDSHAKE FAILED, so every run is errored: {results[0].detail}", file=sys.stderr)
        for hint in fault_hints(results[0].detail):
            print(hint, file=sys.stderr)
        print(_count_line(contract, records, time.perf_counter() - began))
        return
    if not args.quiet:
        _print_failures(args, contract, results, records)
    print("\n".join([*declared_lines(header, records), *area_summary(results), *unchecked_summary(results),
                     *not_run(records).lines()]))  # fmt: skip
    print(_count_line(contract, records, time.perf_counter() - began))
    if not args.quiet:
        print("\n".join(next_after_run(args, contract, results, records)))


def _print_failures(
    args: argparse.Namespace, contract: Contract, results: list[Result], records: list[dict[str, Any]]
) -> None:
    """Each failure in full, up to --max-failures; then one line counting the rest; the runs met after the
    implementation was given up in one block."""
    bad = [(r, outcome(rec)) for r, rec in zip(results, records, strict=True)
           if outcome(rec) in ("failed", "errored", "unexpectedly passed")]  # fmt: skip
    given_up = [r for r, found in bad if spoiled(found, r.detail)]
    bad = [(r, found) for r, found in bad if not spoiled(found, r.detail)]
    shown_here = bad[: args.max_failures]
    for r, found in shown_here:
        if found == "unexpectedly passed":
            print(f"UNEXPECTED PASS: {r.key} is listed as a known deviation ({r.expected_failure}) but passed\n")
        else:
            print(format_failure(r, contract) + "\n")
    if len(bad) > len(shown_here):
        print(f"... and {len(bad) - len(shown_here)} more failing {RUNS} not shown (--max-failures "
              f"{args.max_failures}; the summary below counts them all, --report keeps them)\n")  # fmt: skip
    for block in spoiled_blocks((r.key, r.detail) for r in given_up):
        print(block + "\n")


def next_after_run(
    args: argparse.Namespace, contract: Contract, results: list[Result], records: list[dict[str, Any]]
) -> list[str]:
    """What to do after a run, from what it found (as smoke ends); replays recreate the contract."""
    impl = contract.options()
    bad = [r for r, rec in zip(results, records, strict=True) if outcome(rec) in BAD_OUTCOMES]
    steps = []
    if bad:
        steps.append(f"next: fix {bad[0].key} first ({len(bad)} failing): {replay_command(bad[0], contract)}")
    why = not_run(records).why
    if why:
        what, n = why[0]
        steps.append(f"next: {runs(n)} {need_text(what)}; see docs/writing-an-adapter.md for what it takes")
    if args.report:
        steps.append(f"next: crescent-conformance html-report {args.report}   (the report as a page)")
    else:
        steps.append(f"next: crescent-conformance run {impl} --report report.json   (keep the results)")
    return steps


def _count_line(contract: Contract, records: list[dict[str, Any]], seconds: float) -> str:
    """``name version (label): N passed, N failed, ... in Xs``, with the declared deviations if any."""
    shown = {o: n for o, n in counts(records).items() if n or o in ("passed", "failed", "skipped", "errored")}
    declared = contract.deviation_text()
    tally = ", ".join(f"{n} {o}" for o, n in shown.items())
    label = f" ({contract.label})" if contract.label else ""
    name = f"{contract.info.name} {contract.info.version}".strip()
    line = escaped(f"{name}{label}") + f": {unit_line(records)}: {tally} in {seconds:.2f}s"
    return line + (f" (as declared: {declared})" if declared else "")


def _verdict(args: argparse.Namespace, results: list[Result]) -> int:
    if any(outcome(result_record(r)) in BAD_OUTCOMES for r in results):
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
