"""The corpus itself: valid, linted, unique, traceable, and passing on the reference engine."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus import trace
from conformance.corpus.lint import iter_lint
from conformance.corpus.load import corpus_dirs, load_corpus, scenario_files
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import run_scenario
from crescent_ref.messages import reason_codes
from crescent_ref.spec_files import spec_dir

CORPUS = load_corpus()
PAIRS = [(sc, p) for sc in CORPUS for p in sc.profiles]


def test_every_file_starts_with_the_schema_line() -> None:
    for path in scenario_files(corpus_dirs()):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/scenario.schema.json", path


def test_ids_are_unique() -> None:
    counts = Counter(sc.id for sc in CORPUS)
    assert [i for i, n in counts.items() if n > 1] == []


def test_lint_is_clean() -> None:
    assert [str(e) for e in iter_lint(CORPUS, replay=True)] == []


@pytest.mark.parametrize(("scenario", "profile"), PAIRS, ids=[f"{sc.id}[{p}]" for sc, p in PAIRS])
def test_scenario_passes_on_the_reference_engine(scenario: Scenario, profile: str) -> None:
    adapter = ReferenceAdapter()
    result = run_scenario(adapter, adapter.info(), scenario, profile)
    assert result.verdict == "passed", result.failure or result.detail


def test_every_reason_code_is_expected_somewhere() -> None:
    expected = {e.reason for sc in CORPUS for s in sc.steps for e in [s.expect, *s.by_profile.values()] if e.reason}
    assert set(reason_codes()) - expected == set()


def test_every_checkable_statement_has_a_scenario() -> None:
    assert [s.id for s in trace.uncovered(CORPUS)] == []


def test_traceability_file_is_up_to_date() -> None:
    assert not trace.stale(CORPUS), "run: crescent-conformance trace --write"


def test_every_base_profile_has_scenarios() -> None:
    bases = Counter(p.split("+")[0] for _, p in PAIRS)
    assert all(bases[b] >= 30 for b in ("app", "open", "hoffmann-1892", "morehead-1949")), bases


def test_spec_dir_is_the_checkout_or_the_package() -> None:
    assert (spec_dir() / "profiles.yaml").is_file()
    assert Path(CORPUS[0].file).is_relative_to(spec_dir())
