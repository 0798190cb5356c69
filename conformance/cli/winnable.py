"""``winnable``: check an implementation's claim that the deals of some game codes can be won."""

from __future__ import annotations

import argparse

from conformance.adapter import Adapter, AdapterError, RuleError, Skip
from conformance.adapters.replies import shown
from conformance.cli.common import (
    Command,
    adapter_options,
    check_expectations,
    contract_of,
    contract_options,
    nothing_judged,
    open_adapter,
    positive,
    profile_name,
)
from conformance.contract import Contract
from conformance.explore.winnable import CodeCheck
from crescent_ref.exits import FAILED, OK
from crescent_ref.progress import progress
from crescent_ref.solver import Budget


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``winnable``."""
    adapter_options(p)
    contract_options(p, "file of known differences; a code is keyed winnable/<code>[profile] (strict)")
    p.add_argument(
        "--profile", type=profile_name, default="app", help="the profile the deals are played in (default: app)"
    )
    p.add_argument("--codes", nargs="+", required=True, help="the game codes claimed winnable")
    p.add_argument("--seconds", type=positive(float), default=30.0, help="the solver's time budget per code")
    p.add_argument("--nodes", type=positive(int), default=Budget().nodes,
        help=f"the solver's node budget per code (default {Budget().nodes:,}: the seconds run out first)")


def _winnable(args: argparse.Namespace) -> int:
    """Solve each code on the reference, replay each winning line on the implementation, report."""
    from conformance.explore.winnable import summary

    expectations = check_expectations(args)
    adapter = open_adapter(args)
    budget = Budget(nodes=args.nodes, seconds=args.seconds)
    try:
        contract = contract_of(args, adapter.info(), expectations)
        if not contract.claims(args.profile):
            return nothing_judged("winnable", f"--profile {args.profile}: {contract.info.supports(args.profile)}")
        codes = progress(args.codes, "codes", unit="code")
        checks = [_checked(adapter, args.profile, code, budget, contract) for code in codes]
    finally:
        adapter.close()
    lines, bad = [], 0
    for check in checks:
        why = contract.expected_failure(f"winnable/{check.code}", args.profile)
        if why is not None:
            held = check.finding == "won"
            bad += held
            lines.append(f"{'UNEXPECTED PASS' if held else 'expected failure'}: {check} (known difference: {why})")
        else:
            bad += check.finding != "won"
            lines.append(str(check))
    print("\n".join(lines))
    print(summary(checks, shown(contract.title)))
    return FAILED if bad else OK


def _checked(adapter: Adapter, profile: str, code: str, budget: Budget, contract: Contract) -> CodeCheck:
    """``check_code``, an adapter fault (a crash, a malformed reply, an errored or skipped request) being
    that code's finding, not the end of the command."""
    from conformance.explore.winnable import check_code

    try:
        return check_code(adapter, profile, code, budget, contract)
    except (AdapterError, RuleError, Skip) as err:
        kind = {RuleError: "refused the game code", Skip: "skipped the game"}.get(type(err), "errored")
        return CodeCheck(code, profile, "not-won", f"the implementation {kind}: {str(err).splitlines()[0]}")


COMMAND = Command(
    "winnable",
    "check that claimed-winnable game codes are won: the solver's line replayed on the implementation",
    configure,
    _winnable,
)
