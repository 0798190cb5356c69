"""The pytest plugin, run with pytester: selection, stopping, reruns, profiles, ini twins, faults."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import SERVE, distinct_ids, fake_command, item_name, key, pairs
from plugin_runs import collected, k_expression, mutant_results, prepared, run

from conformance.wording import shown_path

# A mutant that fails scenarios in several areas and profiles (see mutants.py).
MUTANT = "no_pile_wrap"


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return prepared(pytester, monkeypatch)


def test_inert_without_options(kit: pytest.Pytester) -> None:
    kit.makepyfile(test_own="def test_one():\n    assert 1 + 1 == 2\n")
    assert collected(kit) == ["test_own.py::test_one"]
    result = run(kit)
    result.assert_outcomes(passed=1)
    assert "Crescent conformance" not in result.stdout.str()


def test_collects_the_corpus_in_a_stable_sorted_order(kit: pytest.Pytester) -> None:
    first = collected(kit, "--crescent-impl", "reference")
    expected = [item_name(p) for p in pairs()]
    assert first == expected
    assert collected(kit, "--crescent-impl", "reference") == first
    files = [name.split("::")[0] for name in first]
    assert files == sorted(files)


def test_k_selects_one_scenario(kit: pytest.Pytester) -> None:
    chosen = distinct_ids()[0]
    mine = [p for p in pairs() if p[0].id == chosen]
    result = run(kit, "--crescent-impl", "reference", "-k", chosen)
    result.assert_outcomes(passed=len(mine), deselected=len(pairs()) - len(mine))


def test_the_header_counts_the_corpus_items(kit: pytest.Pytester) -> None:
    chosen = distinct_ids()[0]
    mine = [p for p in pairs() if p[0].id == chosen]
    result = run(kit, "--crescent-impl", "reference", "-k", chosen)
    total = len(pairs())
    assert f"collected {total} items / {total - len(mine)} deselected / {len(mine)} selected" in result.stdout.str()


def test_profile_option_keeps_that_profile_and_its_variants(kit: pytest.Pytester) -> None:
    names = collected(kit, "--crescent-impl", "reference", "--crescent-profile", "app")
    expected = [item_name(p) for p in pairs() if p[1].split("+")[0] == "app"]
    assert names == expected
    assert all("[app]" in n or "[app+" in n for n in names)


def test_x_stops_at_the_first_failure(kit: pytest.Pytester) -> None:
    results = mutant_results(MUTANT)
    failing = [k for k, r in results.items() if r.verdict != "passed"]
    assert len(failing) >= 2, "the mutant must fail more than once for -x to show"
    result = run(kit, "--crescent-impl", f"mutants:{MUTANT}", "-x")
    outcomes = result.parseoutcomes()
    assert outcomes["failed" if results[failing[0]].verdict == "failed" else "errors"] == 1
    assert outcomes.get("passed", 0) == list(results).index(failing[0])
    assert f"::{failing[0]} - " in result.stdout.str()
    assert "stopping after 1 failures" in result.stdout.str()


def test_lf_reruns_only_the_last_failures(kit: pytest.Pytester) -> None:
    first = run(kit, "--crescent-impl", f"mutants:{MUTANT}", "--crescent-profile", "app")
    failed = first.parseoutcomes()["failed"]
    assert failed >= 1
    again = run(kit, "--crescent-impl", f"mutants:{MUTANT}", "--crescent-profile", "app", "--lf")
    assert again.parseoutcomes()["failed"] == failed
    assert "passed" not in again.parseoutcomes()
    assert sorted(_failed_lines(again)) == sorted(_failed_lines(first))


def _failed_lines(result: pytest.RunResult) -> list[str]:
    return [line.split(" - ")[0] for line in result.stdout.lines if line.startswith("FAILED ")]


def test_ini_twins_name_the_implementation_and_profile(kit: pytest.Pytester) -> None:
    chosen = distinct_ids()[0]
    mine = [p for p in pairs() if p[0].id == chosen]
    profile = mine[0][1].split("+")[0]
    kit.makeini(f"[pytest]\ncrescent_impl = reference\ncrescent_profile = {profile}\n")
    result = run(kit, "-k", chosen)
    result.assert_outcomes(passed=sum(p[1].split("+")[0] == profile for p in mine))


def test_an_errored_stdio_adapter_shows_as_error(kit: pytest.Pytester, tmp_path: Path) -> None:
    ids = list(distinct_ids()[:3])
    chosen = [p for p in pairs() if p[0].id in ids]
    command = fake_command("crash", 1, tmp_path / "fired")
    result = run(kit, "--crescent-cmd", command, "--crescent-timeout", "30", "-k", " or ".join(ids))
    result.assert_outcomes(errors=1, passed=len(chosen) - 1)
    assert f"ERROR crescent/{Path(chosen[0][0].file).name}::{key(chosen[0])}" in result.stdout.str()
    assert "exited (crash)" in result.stdout.str()


def test_the_reference_over_stdio_passes_with_protocol_validation(kit: pytest.Pytester) -> None:
    ids = list(distinct_ids()[:3])
    chosen = [p for p in pairs() if p[0].id in ids]
    result = run(kit, "--crescent-cmd", SERVE, "--crescent-validate-protocol", "-k", " or ".join(ids))
    result.assert_outcomes(passed=len(chosen))


def test_a_failure_reads_like_the_scenario(kit: pytest.Pytester) -> None:
    results = [r for r in mutant_results(MUTANT).values() if r.scenario.id in distinct_ids()]
    bad = next(r for r in results if r.failure is not None and r.failure.step is not None)
    sc, fail = bad.scenario, bad.failure
    assert fail is not None and fail.step is not None
    result = run(kit, "--crescent-impl", f"mutants:{MUTANT}", "-k", bad.key)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert f"scenario {sc.id} [{bad.profile}] FAILED" in text
    assert f"{shown_path(sc.file)}:{fail.step.line}, step {fail.step.number}: {fail.step.action}" in text
    assert all(str(m) in text for m in fail.mismatches)
    assert f"replay: crescent-conformance run --impl mutants:{MUTANT} --profile {bad.profile} --id {sc.id}" in text


def test_expectations_make_a_known_failure_xfail_and_a_pass_strict(kit: pytest.Pytester) -> None:
    ids = set(distinct_ids())
    results = [r for r in mutant_results(MUTANT).values() if r.scenario.id in ids]
    failing = next(r for r in results if r.verdict == "failed")
    passing = next(r for r in results if r.verdict == "passed" and r.scenario.id != failing.scenario.id)
    kit.makefile(".yaml", known=f"deviations:\n  {failing.key}: known\n  {passing.key}: fixed since\n")
    chosen = [(failing.scenario, failing.profile), (passing.scenario, passing.profile)]
    args = ("--crescent-impl", f"mutants:{MUTANT}", "--crescent-expectations", "known.yaml", "-rfx")
    result = run(kit, *args, "-k", k_expression(chosen))
    result.assert_outcomes(xfailed=1, failed=1)
    text = result.stdout.str()
    assert f"XFAIL crescent/{Path(failing.scenario.file).name}::{failing.key} - known deviation: known" in text
    assert f"FAILED crescent/{Path(passing.scenario.file).name}::{passing.key} - [XPASS(strict)]" in text
    assert "[XPASS(strict)] known deviation: fixed since" in text
