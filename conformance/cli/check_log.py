"""``check-log``: replay game logs (spec/game-log.md) on the reference; report each log's first divergence."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.cli.common import Command, check_expectations, profile_name
from conformance.contract.expectations import Expectations
from conformance.logs.check import LogVerdict, check_log
from conformance.logs.read import LogError, read_log
from conformance.logs.report import format_verdict
from crescent_ref.progress import progress

OK, DIVERGES, BAD_INPUT = 0, 1, 2


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``check-log``."""
    p.add_argument("logs", nargs="+", type=Path, metavar="FILE", help="game logs (JSON lines, spec/game-log.md)")
    p.add_argument(
        "--profile", type=profile_name, help="judge every log in this profile instead of the one its header names"
    )
    p.add_argument(
        "--as-scenario",
        type=Path,
        metavar="OUT.yaml",
        help="also write the (consistent) log as a scenario file in the corpus format (one log only)",
    )
    p.add_argument(
        "--expectations",
        type=Path,
        help="file of known differences; a log is keyed log/<file name> (a listed log that agrees fails, strict)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only divergences and errors")


def _check_log(args: argparse.Namespace) -> int:
    if args.as_scenario and len(args.logs) != 1:
        print("check-log: --as-scenario takes exactly one log", file=sys.stderr)
        return BAD_INPUT
    expectations = check_expectations(args)
    logs = progress(args.logs, "logs", total=len(args.logs), quiet=args.quiet)
    codes = [_one(path, args, expectations) for path in logs]
    if len(codes) > 1 and not args.quiet:
        print(f"check-log: {codes.count(OK)} of {len(codes)} logs consistent")
    return max(codes)


def _one(path: Path, args: argparse.Namespace, expectations: Expectations) -> int:
    try:
        verdict = check_log(read_log(path), args.profile)
    except LogError as err:
        print(f"check-log: log {err}", file=sys.stderr)
        return BAD_INPUT
    why = expectations.reason_for(f"log/{path.name}", verdict.profile.name)
    if not (args.quiet and verdict.consistent):
        print(format_verdict(verdict) + ("" if verdict.consistent else "\n"))
    if why is not None:
        return _expected(path, verdict.consistent, why)
    if args.as_scenario:
        return _as_scenario(verdict, args.as_scenario)
    return OK if verdict.consistent else DIVERGES


def _expected(path: Path, consistent: bool, why: str) -> int:
    """A log the expectations file lists: its divergence is a known difference; agreeing fails (strict)."""
    if consistent:
        print(f"UNEXPECTED PASS: log/{path.name} is listed as a known difference ({why}) but agrees")
        return DIVERGES
    print(f"expected: log/{path.name} is a known difference ({why})")
    return OK


def _as_scenario(verdict: LogVerdict, out: Path) -> int:
    from conformance.logs.scenario import ScenarioRefused, write_scenario

    try:
        write_scenario(verdict, out)
    except ScenarioRefused as err:
        print(f"check-log: no scenario written: {err}", file=sys.stderr)
        return DIVERGES if not verdict.consistent else BAD_INPUT
    except OSError as err:
        print(f"check-log: cannot write {out}: {err}", file=sys.stderr)
        return BAD_INPUT
    print(f"scenario written to {out}")
    return OK


COMMAND = Command(
    "check-log", "replay game logs on the reference and report each one's first divergence", configure, _check_log
)
