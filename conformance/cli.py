"""``crescent-conformance``: run the corpus against an implementation, list it, lint it, report."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from conformance.corpus import iter_lint, load_corpus
from conformance.report import area_summary, format_failure, report_header, write_report
from conformance.runner import Result, run_scenario
from conformance.session import make_adapter, plan
from crescent_ref.errors import CrescentError


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenarios", action="append", type=Path, default=[], help="extra scenario folder or file")
    p.add_argument("--profile", action="append", default=[], help="only these profiles (base or base+variants)")
    p.add_argument("--id", action="append", default=[], help="only these scenario ids")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="crescent-conformance", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the corpus against an implementation (default: the reference engine)")
    _common(run)
    run.add_argument("--impl", default="reference", help="'reference' or module:factory (in-process)")
    run.add_argument("--cmd", help="command line of a stdio implementation")
    run.add_argument("--timeout", type=float, default=10.0, help="seconds per request (stdio)")
    run.add_argument("--report", type=Path, help="write the JSON report here")
    run.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    lst = sub.add_parser("list", help="list scenarios (id, profiles, title)")
    _common(lst)
    lint = sub.add_parser("lint", help="check every scenario file against the schema and vocabulary")
    _common(lint)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = _parser().parse_args(argv)
    try:
        return {"run": _run, "list": _list, "lint": _lint}[args.command](args)
    except CrescentError as err:
        print(f"crescent-conformance: {err}", file=sys.stderr)
        return 2


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
            print(format_failure(r, f'--cmd "{args.cmd}"' if args.cmd else f"--impl {args.impl}") + "\n")
    print("\n".join(area_summary(results)))
    counts = {v: sum(r.verdict == v for r in results) for v in ("passed", "failed", "skipped", "errored")}
    print(f"{info.name} {info.version}: " + ", ".join(f"{n} {v}" for v, n in counts.items())
          + f" in {time.perf_counter() - began:.2f}s")
    if args.report:
        complete = not (args.profile or args.id)
        write_report(args.report, report_header(info, sorted({p for _, p in pairs}), complete), results)
    return 1 if bad else 0


def _list(args: argparse.Namespace) -> int:
    for sc in load_corpus(args.scenarios):
        if not args.id or sc.id in args.id:
            print(f"{sc.id:<24} {','.join(sc.profiles):<40} {sc.title}")
    return 0


def _lint(args: argparse.Namespace) -> int:
    errors = [str(e) for e in iter_lint(load_corpus(args.scenarios))]
    print("\n".join(errors) or "corpus is clean")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
