"""Failure reports that read like the scenario, and the JSON run report."""

from __future__ import annotations

import difflib
import json
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import conformance
from conformance.adapter import Info
from conformance.contract import Contract
from conformance.files import write_atomic
from conformance.judging.runner import Result
from conformance.wording import grounds, runs, shown_path
from crescent_ref.position import FIELDS

CORPUS_VERSION = "1"


def position_lines(text: str) -> list[str]:
    """A position text split one field, and one pile, a line (for diffs)."""
    lines: list[str] = []
    for part in text.split():
        key, _, value = part.partition(":")
        if key == "piles" and key in FIELDS:
            lines.extend(f"p{i}: {pile}" for i, pile in enumerate(value.split("/"), 1))
        else:
            lines.append(part)
    return lines


def state_diff(expected: str, actual: str) -> list[str]:
    """Unified diff lines between two position texts, pile by pile."""
    diff = difflib.unified_diff(
        position_lines(expected), position_lines(actual), "expected", "actual", lineterm="", n=0
    )
    return [line for line in diff if not line.startswith("@@")]


def replay_command(result: Result, impl: str | Contract) -> str:
    """One command that re-runs just this scenario in this profile, as written: ``impl`` is the contract it
    ran under (its command, expectations and label), or just how to name the implementation
    (``--impl X`` or ``--cmd "..."``)."""
    if isinstance(impl, Contract):
        return impl.replay(result.profile, result.scenario.id)
    return f"crescent-conformance run {impl} --profile {result.profile} --id {result.scenario.id}"


def format_failure(result: Result, impl: str | Contract = "--impl reference") -> str:
    """A failure as the reader of the scenario wants it: id, place, step, expected against actual."""
    sc, fail = result.scenario, result.failure
    head = [f"scenario {sc.id} [{result.profile}] {result.verdict.upper()}: {sc.title}"]
    if fail is None:
        line = result.faulted_at.line if result.faulted_at else sc.line  # the detail names the step
        place = [f"  {shown_path(sc.file)}:{line}", *("  " + g for g in grounds(sc).lines())]
        return "\n".join([*head, *place, f"  {result.detail}", f"  replay: {replay_command(result, impl)}"])
    where = f"step {fail.step.number}: {fail.step.action}" if fail.step else "given (starting state)"
    line = fail.step.line if fail.step else sc.line
    lines = [*head, f"  {shown_path(sc.file)}:{line}, {where}", *("  " + g for g in grounds(sc).lines())]
    lines += [f"  - {m}" for m in fail.mismatches]
    if fail.before:
        lines.append(f"  position before: {fail.before}")
    lines.append(f"  position after:  {fail.after}")
    lines += ["  " + d for d in _position_diff(result)]
    lines.append(f"  replay: {replay_command(result, impl)}")
    return "\n".join(lines)


def failure_headline(result: Result) -> str:
    """What went wrong in one line, without the id (pytest's short summary already names the item):
    the first mismatch and where, or the error."""
    fail = result.failure
    if fail is None or not fail.mismatches:
        return result.detail or result.verdict
    where = f"step {fail.step.number}: {fail.step.action}" if fail.step else "given position"
    more = f" (+{len(fail.mismatches) - 1} more)" if len(fail.mismatches) > 1 else ""
    return f"{fail.mismatches[0]}{more}, at {where}"


def _position_diff(result: Result) -> list[str]:
    fail = result.failure
    if fail is None or "position" not in fail.expected.state:
        return []
    from crescent_ref.position import Position

    return state_diff(Position.from_text(fail.expected.state["position"]).to_text(), fail.after)


def result_record(result: Result) -> dict[str, Any]:
    """One scenario-in-profile as a JSON report record."""
    sc, fail = result.scenario, result.failure
    record: dict[str, Any] = {
        "id": sc.id,
        "profile": result.profile,
        "area": sc.area,
        "title": sc.title,
        "file": sc.file,
        "line": sc.line,
        "verdict": result.verdict,
        "detail": result.detail,
        "seconds": round(result.seconds, 6),
    }
    if not result.claimed:
        record["claimed"] = False
    if result.unchecked:
        record["unchecked"] = list(result.unchecked)
    if result.judged_as:
        record["judged_as"] = result.judged_as
    if result.expected_failure:
        record["expected_failure"] = result.expected_failure
    if result.faulted_at is not None:
        at = result.faulted_at
        record["faulted_at"] = {"step": at.number, "action": at.action, "line": at.line}
    if fail is not None:
        record["failure"] = {
            "step": fail.step.number if fail.step else 0,
            "action": fail.step.action if fail.step else None,
            "line": fail.step.line if fail.step else sc.line,
            "mismatches": [str(m) for m in fail.mismatches],
            "before": fail.before,
            "after": fail.after,
        }
    return record


def report_header(
    info: Info | Contract, profiles: list[str], complete: bool, corpus_version: str = CORPUS_VERSION
) -> dict[str, Any]:
    """The JSON report's header: versions, the run, and what the implementation declared (capabilities,
    deviations) with the checks therefore not made; ``contract``: the whole contract it was judged
    against (label, command, declarations, the expectations used), which report, html-report, matrix,
    compare and badge read back (conformance.contract.from_report)."""
    contract = info if isinstance(info, Contract) else Contract(info, command="")
    info = contract.info
    header: dict[str, Any] = {
        "kit_version": conformance.__version__,
        "corpus_version": corpus_version,
        "implementation": {"name": info.name, "version": info.version, "language": info.language},
        "profiles": profiles,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "complete": complete,
        "capabilities": sorted(info.capabilities),
        "unchecked": info.unobserved(),
        "contract": contract.as_record(),
    }
    if contract.label:
        header["implementation"]["label"] = contract.label
    if info.deviations:
        header["deviations"] = {base: dict(changes) for base, changes in info.deviations.items()}
        header["declared"] = info.deviation_lines()
    return header


def contract_of_record(record: dict[str, Any]) -> Contract:
    """The contract a plugin record carries (made on an xdist worker), or the Info-only one of older records."""
    if isinstance(record.get("contract"), dict):
        return Contract.from_record(record["contract"])
    return Contract(info_of_record(record.get("implementation", {})), command="")


def info_of_record(impl: dict[str, Any]) -> Info:
    """The Info a record carries (the pytest plugin's records, made on xdist workers)."""
    return Info(
        impl.get("name", "?"),
        impl.get("version", "?"),
        impl.get("language", "?"),
        (),
        capabilities=frozenset(impl.get("capabilities", ())),
        deviations=impl.get("deviations", {}),
    )


def report_header_records(records: list[dict[str, Any]], complete: bool) -> dict[str, Any]:
    """The header from records that carry their implementation (the pytest plugin's case)."""
    contract = contract_of_record(records[0]) if records else Contract(info_of_record({}), command="")
    return report_header(contract, sorted({r["profile"] for r in records}), complete)


def outcome(record: dict[str, Any]) -> str:
    """The verdict as counted: ``not claimed`` (a profile or variant never declared) apart from ``skipped``;
    a known deviation of the expectations file as ``expected failure``, or ``unexpectedly passed`` (strict)."""
    verdict = str(record["verdict"])
    if record.get("expected_failure"):
        return "unexpectedly passed" if verdict == "passed" else "expected failure" if verdict != "skipped" else verdict
    return "not claimed" if record.get("claimed") is False else verdict


OUTCOMES = ("passed", "failed", "errored", "expected failure", "unexpectedly passed", "skipped", "not claimed")
BAD_OUTCOMES = ("failed", "errored", "unexpectedly passed")


def counts(records: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Scenario runs by outcome, in the order summaries print them (zeros kept)."""
    found = Counter(outcome(r) for r in records)
    return {o: found[o] for o in (*OUTCOMES, *sorted(set(found) - set(OUTCOMES)))}


def declared_lines(header: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    """What a summary states before the counts: the declared deviations, and the checks not made."""
    lines = []
    if header.get("declared"):
        judged = sum(bool(r.get("judged_as")) for r in records)
        lines.append(
            "DECLARED DEVIATIONS: "
            + "; ".join(header["declared"])
            + f" ({runs(judged)} {'depends' if judged == 1 else 'depend'} on them and"
            + f" {'was' if judged == 1 else 'were'} judged against the reference under these rules)"
        )
    for capability, what in header.get("unchecked", {}).items():
        lines.append(f"not checked: {what} (capability {capability} not declared)")
    return lines


def write_records(path: Path, header: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Write the JSON report atomically (a uniquely named temporary file renamed into place)."""
    body = {
        **header,
        "summary": {k: n for k, n in counts(records).items() if n},
        "results": [{k: v for k, v in r.items() if k not in ("implementation", "contract")} for r in records],
    }
    write_atomic(path, json.dumps(body, ensure_ascii=False, indent=1))


def write_report(path: Path, header: dict[str, Any], results: Iterable[Result]) -> None:
    """Write the JSON report of a list of results."""
    write_records(path, header, [result_record(r) for r in results])


def area_summary_records(records: Iterable[dict[str, Any]]) -> list[str]:
    """One line per rule area: passed / failed / errored / skipped / not claimed counts."""
    table: dict[str, Counter[str]] = {}
    for r in records:
        table.setdefault(r["area"], Counter())[outcome(r)] += 1
    width = max((len(a) for a in table), default=4)
    return [
        f"{area:<{width}}  " + "  ".join(f"{c[v]} {v}" for v in OUTCOMES if c[v]) for area, c in sorted(table.items())
    ]


def area_summary(results: Iterable[Result]) -> list[str]:
    """Per-area counts of a list of results."""
    return area_summary_records(result_record(r) for r in results)


def unchecked_summary(results: Iterable[Result]) -> list[str]:
    """One line per kind of check the run could not make (e.g. messages without the capability),
    with how many scenario runs asked for it; none when every check was made."""
    counts: dict[str, int] = {}
    for r in results:
        for what in r.unchecked:
            counts[what] = counts.get(what, 0) + 1
    return [f"not checked ({n} scenario runs): {what}" for what, n in sorted(counts.items())]
