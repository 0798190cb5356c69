"""``smoke``: a quick health check of an adapter, the handshake and one scenario per area."""

from __future__ import annotations

import argparse

from conformance.adapter import Adapter, AdapterError
from conformance.adapters.replies import shown
from conformance.cli.common import (
    Command,
    adapter_options,
    check_expectations,
    contract_of,
    contract_options,
    nothing_judged,
    open_adapter,
)
from conformance.contract import Contract
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.explain import explaining_deviation
from conformance.judging.report import outcome, replay_command
from conformance.judging.runner import Result, judge, why_skip
from conformance.wording import fault_hints

TRIES = 4  # candidates per area before the area counts as not applicable under the declared rules
GOOD = ("passed",)


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``smoke``."""
    adapter_options(p)
    contract_options(p)


def handshake_line(contract: Contract) -> str:
    """What the handshake declared, in one line: who, claims, capabilities, reason codes, deviations."""
    info = contract.info
    label = f" [{contract.label}]" if contract.label else ""
    line = (
        f"handshake: {info.name} {info.version} ({info.language}){label}; profiles {', '.join(info.profiles)}; "
        f"capabilities {', '.join(sorted(info.capabilities)) or 'none'}"
    )
    if info.reason_codes is not None:
        line += f"; reason codes {', '.join(sorted(info.reason_codes)) or 'none'}"
    if contract.deviation_text():
        line += f"; DECLARED DEVIATIONS: {contract.deviation_text()}"
    if contract.expectations.deviations:
        line += f"; {len(contract.expectations.deviations)} known differences ({contract.expectations.file})"
    return line


def _smoke(args: argparse.Namespace) -> int:
    """Handshake, then the first applicable scenario of each area in a profile the adapter claims."""
    expectations = check_expectations(args)
    adapter = open_adapter(args)
    try:
        contract = contract_of(args, adapter.info(), expectations)
        print(shown(handshake_line(contract)))
        results = smoke_results(adapter, contract)
        hints = {r.key: explaining_deviation(adapter, contract, r.scenario, r.profile) for r in _failed(results)}
    except AdapterError as err:
        print(f"SMOKE FAILED: the adapter does not complete the handshake: {err}")
        for hint in fault_hints(str(err)):
            print(hint)
        print("next: make the handshake reply of spec/protocol.md (docs/writing-an-adapter.md §2), then smoke again")
        return 1
    finally:
        adapter.close()
    if not results:
        claimed = ", ".join(contract.info.profiles) or "none"
        return nothing_judged("smoke", f"no scenario runs in a declared profile ({claimed})")
    code = _smoke_verdict(results, hints)
    print("\n".join(next_steps(results, contract)))
    return code


def _failed(results: list[Result]) -> list[Result]:
    """The failures a declared parameter may explain: failed, or a start the implementation refused."""
    refused = "refused to load"
    return [
        r
        for r in results
        if not r.expected_failure and (r.verdict == "failed" or (r.verdict == "errored" and refused in r.detail))
    ]


def smoke_results(adapter: Adapter, contract: Contract) -> list[Result]:
    """One judged scenario per area: the first candidate the declared rules apply to (up to TRIES)."""
    results = []
    for candidates in _smoke_plan(contract).values():
        result = None
        for scenario, profile in candidates[:TRIES]:
            result = judge(adapter, contract, scenario, profile)
            if result.verdict != "skipped":
                break
        if result is not None:
            results.append(result)
    return results


def next_steps(results: list[Result], impl: str | Contract) -> list[str]:
    """What to do after a smoke test, from what it found."""
    contract = impl if isinstance(impl, Contract) else None
    options = contract.options() if contract else str(impl)
    skipped = [r for r in results if r.verdict == "skipped"]
    bad = [r for r in results if r.verdict in ("failed", "errored") and not r.expected_failure]
    steps = []
    if bad:
        steps.append(f"next: fix {bad[0].key} first (replay: {replay_command(bad[0], contract or options)})")
    if skipped:
        steps.append(f"next: {len(skipped)} skipped; the first said: {skipped[0].detail}")
    steps.append(f"next: crescent-conformance run {options} --report report.json   (the whole corpus)")
    steps.append("      then crescent-conformance report report.json; see docs/writing-an-adapter.md §5")
    return steps


def _smoke_plan(contract: Contract) -> dict[str, list[tuple[Scenario, str]]]:
    """By area, the scenarios the implementation claims and can run, in corpus order."""
    chosen: dict[str, list[tuple[Scenario, str]]] = {}
    for sc in load_corpus():
        profile = next((p for p in sc.profiles if contract.claims(p)), None)
        if profile and why_skip(contract, sc, profile) is None:
            chosen.setdefault(sc.area, []).append((sc, profile))
    return chosen


def _line(r: Result, hints: dict[str, str | None], width: int) -> str:
    """One scenario's row, its outcome worded as ``run``, ``report`` and ``compare`` word it (report.outcome)."""
    detail = r.detail or (r.failure and str(r.failure.mismatches[0])) or ""
    if r.expected_failure:
        listed = f"known difference: {r.expected_failure}"
        detail = f"{listed}, but it passed (the list is strict)" if r.verdict == "passed" else listed
    line = f"  {_outcome(r):<{width}} {r.key:<36} {detail}"
    if hints.get(r.key):
        line += f"\n           a declared deviation would explain it: {hints[r.key]}"
    return line


def _outcome(r: Result) -> str:
    return outcome({"verdict": r.verdict, "expected_failure": r.expected_failure})


def _smoke_verdict(results: list[Result], hints: dict[str, str | None]) -> int:
    width = max([8, *(len(_outcome(r)) for r in results)])
    for r in results:
        print(_line(r, hints, width))
    good = sum((r.verdict == "passed") != bool(r.expected_failure) for r in results)  # an expected pass is bad
    if results and not good:
        print(
            f"SMOKE FAILED: the adapter failed all {len(results)} scenarios; check its state JSON and actions "
            "against spec/protocol.md before a full run"
        )
        for hint in fault_hints(results[-1].detail):
            print(hint)
        return 1
    print(f"smoke: {good} of {len(results)} scenarios passed (known differences included)")
    return 0 if good == len(results) else 1


COMMAND = Command("smoke", "a quick health check of an adapter: handshake and one scenario per area", configure, _smoke)
