"""``perft``: an implementation's move counts against spec/perft/ (or the reference under its declared rules)."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.adapter import Adapter, AdapterError, Info, RuleError, Skip
from conformance.adapters.session import make_adapter
from conformance.cli.common import Command, adapter_options, nothing_judged, positive
from conformance.judging.expectations import Expectations, load_expectations
from crescent_ref.progress import progress


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``perft``."""
    adapter_options(p)
    p.add_argument("--max-depth", type=positive(int), default=3, help="check depths up to this one")
    p.add_argument(
        "--expectations",
        type=Path,
        help="file of known deviations; perft cases are keyed perft/<case name>[profile] (strict)",
    )


def _perft(args: argparse.Namespace) -> int:
    """Every perft case the implementation's profiles allow, up to --max-depth."""
    expectations = load_expectations(args.expectations)
    adapter = make_adapter(args.impl, args.cmd, args.timeout, args.max_line, validate=args.validate_protocol)
    try:
        info = adapter.info()
        if "legal-moves" not in info.capabilities:
            print("perft needs the legal-moves capability; the implementation does not declare it")
            return 1
        lines, bad, checked = _check_all(adapter, info, args.max_depth, expectations)
    finally:
        adapter.close()
    declared = "; ".join(info.deviation_lines())
    lines += [f"perft: {checked} cases checked up to depth {args.max_depth}, {bad} unexpected results"]
    lines += (
        [f"  (counts of deviated profiles from the reference under the declared rules: {declared})"] if declared else []
    )
    print("\n".join(lines))
    if not checked:
        return nothing_judged("perft", f"no perft case is of a declared profile ({', '.join(info.profiles) or 'none'})")
    return 1 if bad else 0


def _check_all(adapter: Adapter, info: Info, max_depth: int, expectations: Expectations) -> tuple[list[str], int, int]:
    """Report lines, the number of unexpected results (differences not listed, listed cases that agree), cases run."""
    from conformance.explore.perft import cases, check

    lines: list[str] = []
    bad = checked = 0
    for case in progress(cases(), "perft cases", unit="case"):
        if info.supports(case.profile) is not None:
            continue
        limited = type(case)(
            case.name, case.profile, case.position, {d: n for d, n in case.counts.items() if d <= max_depth}
        )
        rules = info.reference_profile(case.profile) if info.deviated(case.profile) else None
        try:
            problems = check(adapter, limited, rules)
        except (AdapterError, RuleError, Skip) as err:  # that case's error, not the end of the command
            lines.append(f"{case.name} [{case.profile}]: errored: {str(err).splitlines()[0]}")
            bad += 1
            checked += 1
            continue
        why = expectations.reason_for(f"perft/{case.name}", case.profile)
        checked += 1
        if problems and why:
            lines.append(f"expected failure ({why}): {problems[0]}")
        elif why:
            lines.append(f"UNEXPECTED PASS: perft/{case.name}[{case.profile}] is listed ({why}) but agrees")
            bad += 1
        elif problems:
            lines += problems
            bad += 1
    return lines, bad, checked


COMMAND = Command("perft", "check an implementation's perft counts against spec/perft/", configure, _perft)
