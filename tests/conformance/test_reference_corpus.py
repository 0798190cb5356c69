"""The reference engine passes the whole corpus, in-process and over the stdio protocol alike."""

from __future__ import annotations

from dataclasses import replace

from harness import SERVE, Pair, pairs, reference_results, run_pairs

from conformance.adapter import BATCH
from conformance.adapters.reference import OnDemandReference
from conformance.adapters.stdio import StdioAdapter
from conformance.judging.report import format_failure


def first_pairs(area: str, count: int) -> list[Pair]:
    """The first ``count`` pairs of a rule area."""
    return [p for p in pairs() if p[0].area == area][:count]


def test_the_corpus_is_not_empty() -> None:
    assert len(pairs()) > 0


def test_reference_passes_every_scenario_in_process() -> None:
    bad = [format_failure(r) for r in reference_results().values() if r.verdict != "passed"]
    assert not bad, "\n\n".join(bad[:5]) + f"\n\n({len(bad)} of {len(pairs())} not passed)"


def test_reference_over_stdio_gives_the_same_verdicts() -> None:
    adapter = StdioAdapter(SERVE, timeout=30)
    over_stdio = run_pairs(adapter, pairs())
    in_process = reference_results()
    assert {k: r.verdict for k, r in over_stdio.items()} == {k: r.verdict for k, r in in_process.items()}
    assert adapter.restarts == 0


def test_reference_replies_follow_the_protocol_schema() -> None:
    """Every reply checked in full against the schema, on a sample: the first pairs of each area."""
    sample = [p for area in sorted({sc.area for sc, _ in pairs()}) for p in first_pairs(area, 4)]
    results = run_pairs(StdioAdapter(SERVE, timeout=30, validate=True), sample)
    assert [r.detail for r in results.values() if r.verdict == "errored"] == []


def test_stdio_handshake_matches_the_in_process_info() -> None:
    adapter = StdioAdapter(SERVE, timeout=30, validate=True)
    try:
        info = adapter.info()  # batch is a feature of the wire, which an in-process adapter has not
        assert replace(info, capabilities=info.capabilities - {BATCH}) == OnDemandReference().info()
    finally:
        adapter.close()
