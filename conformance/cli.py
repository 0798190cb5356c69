"""``crescent-conformance``: run the corpus against an implementation, list it, lint it, report."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from conformance.adapter import AdapterError, Info
from conformance.corpus import iter_lint, load_corpus
from conformance.report import area_summary, area_summary_records, format_failure, report_header, write_report
from conformance.runner import Result, run_scenario, why_skip
from conformance.scenarios import Scenario
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
    smoke = sub.add_parser("smoke", help="a quick health check of an adapter: handshake and one scenario per area")
    smoke.add_argument("--impl", default="reference", help="'reference' or module:factory (in-process)")
    smoke.add_argument("--cmd", help="command line of a stdio implementation")
    smoke.add_argument("--timeout", type=float, default=10.0, help="seconds per request (stdio)")
    fz = sub.add_parser("fuzz", help="differential play against the reference; writes a scenario on a difference")
    fz.add_argument("--impl", default="reference", help="'reference' or module:factory (in-process)")
    fz.add_argument("--cmd", help="command line of a stdio implementation")
    fz.add_argument("--timeout", type=float, default=10.0, help="seconds per request (stdio)")
    fz.add_argument("--profile", default="app", help="the profile to play (base or base+variants)")
    fz.add_argument("--examples", type=int, default=100, help="games to play (hypothesis max_examples)")
    fz.add_argument("--steps", type=int, default=50, help="most actions a game")
    fz.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed plays the same games")
    fz.add_argument(
        "--out", type=Path, default=Path("fuzz-findings"), help="folder for the scenario written on a difference"
    )
    pf = sub.add_parser("perft", help="check an implementation's perft counts against spec/perft/")
    pf.add_argument("--impl", default="reference", help="'reference' or module:factory (in-process)")
    pf.add_argument("--cmd", help="command line of a stdio implementation")
    pf.add_argument("--timeout", type=float, default=10.0, help="seconds per request (stdio)")
    pf.add_argument("--max-depth", type=int, default=3, help="check depths up to this one")
    rep = sub.add_parser("report", help="render a JSON report as text")
    rep.add_argument("file", type=Path, help="the JSON report")
    hrep = sub.add_parser("html-report", help="render a JSON report as one self-contained HTML page")
    hrep.add_argument("file", type=Path, help="the JSON report")
    hrep.add_argument("--out", type=Path, help="the HTML file (default: the report's name with .html)")
    hrep.add_argument("--replay", help='how replay commands name the implementation, e.g. --cmd "node a.js"')
    docs = sub.add_parser("docs", help="build the living documentation (static HTML) from spec/")
    docs.add_argument("--out", type=Path, default=Path("docs/site"), help="the output folder")
    trace = sub.add_parser("trace", help="check (or --write) spec/traceability.md: statements and their scenarios")
    trace.add_argument("--write", action="store_true", help="regenerate spec/traceability.md")
    lst = sub.add_parser("list", help="list scenarios (id, profiles, title)")
    _common(lst)
    lint = sub.add_parser("lint", help="check every scenario file against the schema and vocabulary")
    _common(lint)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = _parser().parse_args(argv)
    try:
        commands = {
            "run": _run,
            "list": _list,
            "lint": _lint,
            "smoke": _smoke,
            "report": _report,
            "trace": _trace,
            "fuzz": _fuzz,
            "perft": _perft,
            "docs": _docs,
            "html-report": _html_report,
        }
        return commands[args.command](args)
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
    print(
        f"{info.name} {info.version}: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + f" in {time.perf_counter() - began:.2f}s"
    )
    if args.report:
        complete = not (args.profile or args.id)
        write_report(args.report, report_header(info, sorted({p for _, p in pairs}), complete), results)
    return 1 if bad else 0


def _smoke(args: argparse.Namespace) -> int:
    """Handshake, then the first scenario of each area in a profile the adapter supports."""
    adapter = make_adapter(args.impl, args.cmd, args.timeout)
    try:
        info = adapter.info()
        print(
            f"handshake: {info.name} {info.version} ({info.language}); profiles {', '.join(info.profiles)}; "
            f"capabilities {', '.join(sorted(info.capabilities)) or 'none'}"
        )
        results = [run_scenario(adapter, info, sc, p) for sc, p in _smoke_plan(info)]
    except AdapterError as err:
        print(f"SMOKE FAILED: the adapter does not complete the handshake: {err}")
        return 1
    finally:
        adapter.close()
    return _smoke_verdict(results)


def _smoke_plan(info: Info) -> list[tuple[Scenario, str]]:
    chosen: dict[str, tuple[Scenario, str]] = {}
    for sc in load_corpus():
        profile = next((p for p in sc.profiles if info.supports(p) is None), None)
        if profile and sc.area not in chosen and why_skip(info, sc, profile) is None:
            chosen[sc.area] = (sc, profile)
    return list(chosen.values())


def _smoke_verdict(results: list[Result]) -> int:
    for r in results:
        print(f"  {r.verdict:<8} {r.key:<36} {r.detail or (r.failure and str(r.failure.mismatches[0])) or ''}")
    good = sum(r.verdict == "passed" for r in results)
    if results and not good:
        print(
            f"SMOKE FAILED: the adapter failed all {len(results)} scenarios; check its state JSON and actions "
            "against spec/protocol.md before a full run"
        )
        return 1
    print(f"smoke: {good} of {len(results)} scenarios passed")
    return 0 if good == len(results) else 1


def _report(args: argparse.Namespace) -> int:
    """Print a JSON report: header, per-area counts, each failure."""
    data = json.loads(args.file.read_text(encoding="utf-8"))
    impl = data["implementation"]
    print(
        f"{impl['name']} {impl['version']} ({impl['language']}) — kit {data['kit_version']}, "
        f"corpus {data['corpus_version']}, {data['time']}, {'complete' if data['complete'] else 'PARTIAL'} run"
    )
    print("\n".join(area_summary_records(data["results"])))
    for r in data["results"]:
        if r["verdict"] in ("failed", "errored"):
            print(_record_text(r))
    print(", ".join(f"{n} {v}" for v, n in sorted(data["summary"].items())))
    return 0


def _record_text(r: dict[str, Any]) -> str:
    lines = [f"\n{r['id']} [{r['profile']}] {r['verdict'].upper()}: {r['title']}"]
    fail = r.get("failure")
    if fail:
        lines.append(f"  {r['file']}:{fail['line']}, step {fail['step']}: {fail['action']}")
        lines += [f"  - {m}" for m in fail["mismatches"]]
    else:
        lines.append(f"  {r['file']}:{r['line']}: {r['detail']}")
    return "\n".join(lines)


def _fuzz(args: argparse.Namespace) -> int:
    """Differential play; exit 1 with the finding's path on a difference."""
    from conformance.fuzz import FuzzConfig, fuzz

    config = FuzzConfig(profile=args.profile, examples=args.examples, steps=args.steps, seed=args.seed, out=args.out)
    began = time.perf_counter()
    try:
        fuzz(lambda: make_adapter(args.impl, args.cmd, args.timeout), config)
    except AssertionError as err:
        print(f"DIFFERENCE ({type(err).__name__}): {err}")
        return 1
    print(
        f"no difference in {args.examples} games of up to {args.steps} actions ({args.profile}, seed {args.seed}), "
        f"{time.perf_counter() - began:.1f}s"
    )
    return 0


def _perft(args: argparse.Namespace) -> int:
    """Every perft case the implementation's profiles allow, up to --max-depth."""
    from conformance.perftcheck import cases, check

    adapter = make_adapter(args.impl, args.cmd, args.timeout)
    try:
        info = adapter.info()
        if "legal-moves" not in info.capabilities:
            print("perft needs the legal-moves capability; the implementation does not declare it")
            return 1
        problems, checked = [], 0
        for case in cases():
            if info.supports(case.profile) is None:
                limited = {d: n for d, n in case.counts.items() if d <= args.max_depth}
                problems += check(adapter, type(case)(case.name, case.profile, case.position, limited))
                checked += 1
    finally:
        adapter.close()
    print("\n".join(problems) or f"perft: {checked} cases agree up to depth {args.max_depth}")
    return 1 if problems else 0


def _docs(args: argparse.Namespace) -> int:
    """Build the documentation pages into --out."""
    from conformance.docs.site import build

    written = build(args.out)
    print(f"wrote {len(written)} pages to {args.out}/ (start at {args.out / 'index.html'})")
    return 0


def _html_report(args: argparse.Namespace) -> int:
    """Render a JSON report as HTML."""
    from conformance.docs.htmlreport import write_html_report

    print(f"wrote {write_html_report(args.file, args.out, args.replay)}")
    return 0


def _trace(args: argparse.Namespace) -> int:
    """Report uncovered statements; regenerate the matrix with --write."""
    from conformance import trace

    scenarios = load_corpus()
    if args.write:
        trace.write(scenarios)
    missing = trace.uncovered(scenarios)
    for st in missing:
        print(f"no scenario covers {st.id} ({st.doc} § {st.section}): {st.summary}")
    if trace.stale(scenarios):
        print("spec/traceability.md is stale: run crescent-conformance trace --write")
        return 1
    print(f"{len(trace.statements())} statements, {len(missing)} without a scenario")
    return 1 if missing else 0


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
