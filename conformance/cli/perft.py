"""``perft``: an implementation's move counts against spec/perft/ (or the reference under its declared rules)."""

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
)
from conformance.contract import Contract
from conformance.explore.perft import PerftCase
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.profiles import Profile
from crescent_ref.progress import progress


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``perft``."""
    adapter_options(p)
    contract_options(p, "file of known differences; perft cases are keyed perft/<case name>[profile] (strict)")
    p.add_argument("--max-depth", type=positive(int), default=3, help="check depths up to this one")


def _perft(args: argparse.Namespace) -> int:
    """Every perft case the implementation's profiles allow, up to --max-depth; one line a case."""
    expectations = check_expectations(args)
    adapter = open_adapter(args)
    try:
        contract = contract_of(args, adapter.info(), expectations)
        if "legal-moves" not in contract.info.capabilities:
            print("perft needs the legal-moves capability; the implementation does not declare it")
            return 1
        lines, bad, checked, skipped = _check_all(adapter, contract, args.max_depth)
    finally:
        adapter.close()
    declared = contract.deviation_text()
    tail = f", {skipped} not applicable under the declared rules" if skipped else ""
    lines += [f"perft of {shown(contract.title)}: {checked} cases checked up to depth {args.max_depth}, "
              f"{bad} unexpected results{tail}"]  # fmt: skip
    lines += (
        [f"  (counts of deviated profiles from the reference under the declared rules: {declared})"] if declared else []
    )
    print("\n".join(lines))
    if not checked:
        claimed = ", ".join(contract.info.profiles) or "none"
        return nothing_judged("perft", f"no perft case is of a declared profile ({claimed})")
    return 1 if bad else 0


def applicable(case: PerftCase, contract: Contract) -> str | None:
    """Why the declared rules cannot start this case (a position they refuse), or None."""
    if not contract.deviated(case.profile):
        return None
    try:
        Game.from_text(contract.rules(case.profile), case.position)
    except NotationError as err:
        return str(err)
    return None


def _check_all(adapter: Adapter, contract: Contract, max_depth: int) -> tuple[list[str], int, int, int]:
    """Report lines, the number of unexpected results (differences not listed, listed cases that agree), cases
    checked, cases not applicable."""
    from conformance.explore.perft import cases

    lines: list[str] = []
    bad = checked = skipped = 0
    for case in progress(cases(), "perft cases", unit="case"):
        if not contract.claims(case.profile):
            continue
        key = f"perft/{case.name}[{case.profile}]"
        why_not = applicable(case, contract)
        if why_not:
            lines.append(f"  skipped  {key}: not applicable under the declared rules ({why_not})")
            skipped += 1
            continue
        limited = PerftCase(
            case.name, case.profile, case.position, {d: n for d, n in case.counts.items() if d <= max_depth}
        )
        rules = contract.rules(case.profile) if contract.deviated(case.profile) else None
        try:
            problems = _checked(adapter, limited, rules, contract.info.observes("reshuffle-count"))
        except (AdapterError, RuleError, Skip) as err:  # that case's error, not the end of the command
            lines.append(f"  FAILED   {key}: errored: {str(err).splitlines()[0]}")
            bad += 1
            checked += 1
            continue
        why = contract.expected_failure(f"perft/{case.name}", case.profile)
        checked += 1
        depths = f"depths {min(limited.counts, default=0)}-{max(limited.counts, default=0)}"
        if problems and why:
            lines.append(f"  expected failure ({why}): {problems[0]}")
        elif why:
            lines.append(f"  UNEXPECTED PASS: {key} is listed ({why}) but agrees")
            bad += 1
        elif problems:
            lines += [f"  FAILED   {key}", *(f"    {p}" for p in problems)]
            bad += 1
        else:
            lines.append(f"  ok       {key} {depths}")
    return lines, bad, checked, skipped


def _checked(adapter: Adapter, case: PerftCase, rules: Profile | None, reshuffle_count: bool) -> list[str]:
    """``check``; a crash or hang met while requests went together is placed by checking the case again a
    request at a time on a fresh process (conformance.adapters.placing), and raised from there."""
    from conformance.adapters.placing import again_alone
    from conformance.explore.perft import check

    problems, unrepeated = again_alone(adapter, lambda: check(adapter, case, rules, reshuffle_count))
    if not unrepeated:
        return problems
    return [f"{case.name} [{case.profile}]: a crash or hang met with requests sent together did not repeat when "
            "the case was checked again a request at a time", *problems]  # fmt: skip


COMMAND = Command("perft", "check an implementation's perft counts against spec/perft/", configure, _perft)
