"""``smoke``: a quick health check of an adapter, the handshake and one scenario per area."""

from __future__ import annotations

import argparse

from conformance.adapter import AdapterError, Info
from conformance.adapters.replies import shown
from conformance.adapters.session import make_adapter
from conformance.cli.common import Command, adapter_options, nothing_judged, replay_name
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import Result, run_scenario, why_skip


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``smoke``."""
    adapter_options(p)


def _smoke(args: argparse.Namespace) -> int:
    """Handshake, then the first scenario of each area in a profile the adapter supports."""
    adapter = make_adapter(args.impl, args.cmd, args.timeout, args.max_line, validate=args.validate_protocol)
    try:
        info = adapter.info()
        print(shown(
            f"handshake: {info.name} {info.version} ({info.language}); profiles {', '.join(info.profiles)}; "
            f"capabilities {', '.join(sorted(info.capabilities)) or 'none'}"
        ))
        results = [run_scenario(adapter, info, sc, p) for sc, p in _smoke_plan(info)]
    except AdapterError as err:
        print(f"SMOKE FAILED: the adapter does not complete the handshake: {err}")
        print("next: make the handshake reply of spec/protocol.md (docs/writing-an-adapter.md §2), then smoke again")
        return 1
    finally:
        adapter.close()
    if not results:
        return nothing_judged("smoke", f"no scenario runs in a declared profile ({', '.join(info.profiles) or 'none'})")
    code = _smoke_verdict(results)
    print("\n".join(next_steps(results, replay_name(args))))
    return code


def next_steps(results: list[Result], impl: str) -> list[str]:
    """What to do after a smoke test, from what it found."""
    skipped = [r for r in results if r.verdict == "skipped"]
    bad = [r for r in results if r.verdict in ("failed", "errored")]
    steps = []
    if bad:
        steps.append(f"next: fix {bad[0].key} first (replay: crescent-conformance run {impl} "
                     f"--profile {bad[0].profile} --id {bad[0].scenario.id})")
    if skipped:
        steps.append(f"next: {len(skipped)} skipped; the first said: {skipped[0].detail}")
    steps.append(f"next: crescent-conformance run {impl} --report report.json   (the whole corpus)")
    steps.append("      then crescent-conformance report report.json; see docs/writing-an-adapter.md §5")
    return steps


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


COMMAND = Command("smoke", "a quick health check of an adapter: handshake and one scenario per area", configure, _smoke)
