"""The pytest plugin's outputs, run with pytester: JUnit XML, the JSON report, expectations files, xdist.

Runs go in this process (pytester's in-process runs); only xdist runs, whose controller and workers
must start afresh, go in a fresh process.
"""

from __future__ import annotations

import calendar
import re
import time

import pytest
import yaml
from harness import Pair, distinct_ids, key, pairs
from plugin_runs import junit_cases, mutant_results, prepared, read_json, run, run_apart

import conformance
import crescent_ref
from conformance.judging.report import CORPUS_VERSION

MUTANT = "no_pile_wrap"


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return prepared(pytester, monkeypatch)


def record_keys(report: dict[str, object]) -> list[str]:
    results = report["results"]
    assert isinstance(results, list)
    return sorted(f"{r['id']}[{r['profile']}]" for r in results)


def test_a_reference_run_has_one_testcase_and_one_record_per_pair(kit: pytest.Pytester) -> None:
    began = time.time()
    result = run(kit, "--crescent-impl", "reference", "--junitxml", "junit.xml", "--crescent-report", "r.json")
    expected = sorted(key(p) for p in pairs())
    result.assert_outcomes(passed=len(expected))
    assert "Crescent conformance by rule area" in result.stdout.str()
    cases = junit_cases(kit.path / "junit.xml")
    assert sorted(name.rsplit("::", 1)[1] for name in cases) == expected
    report = read_json(kit.path / "r.json")
    assert record_keys(report) == expected
    assert report["summary"] == {"passed": len(expected)}
    check_header(report, began, complete=True)


def check_header(report: dict[str, object], began: float, complete: bool) -> None:
    assert report["kit_version"] == conformance.__version__
    assert report["corpus_version"] == CORPUS_VERSION
    assert report["implementation"] == {
        "name": "crescent_ref",
        "version": crescent_ref.__version__,
        "language": "python",
    }
    assert report["profiles"] == sorted({profile for _, profile in chosen_pairs(record_keys(report))})
    stamp = calendar.timegm(time.strptime(str(report["time"]), "%Y-%m-%dT%H:%M:%SZ"))
    assert began - 2 <= stamp <= time.time() + 2
    assert report["complete"] is complete


def chosen_pairs(keys: list[str]) -> list[Pair]:
    wanted = set(keys)
    return [p for p in pairs() if key(p) in wanted]


def test_the_report_of_a_selection_says_it_is_incomplete(kit: pytest.Pytester) -> None:
    began = time.time()
    chosen = distinct_ids()[0]
    run(kit, "--crescent-impl", "reference", "-k", chosen, "--crescent-report", "r.json")
    report = read_json(kit.path / "r.json")
    assert record_keys(report) == sorted(key(p) for p in pairs() if p[0].id == chosen)
    check_header(report, began, complete=False)


def test_written_expectations_make_the_run_green(kit: pytest.Pytester) -> None:
    results = mutant_results(MUTANT)
    profile = next(r.profile for r in results.values() if r.verdict == "failed")
    bad = sorted(k for k, r in results.items() if r.verdict != "passed" and r.profile == profile)
    args = ("--crescent-impl", f"mutants:{MUTANT}", "--crescent-profile", profile, "-k", f"[{profile}]")
    first = run(kit, *args, "--crescent-write-expectations", "known.yaml")
    assert first.ret == pytest.ExitCode.TESTS_FAILED
    written = yaml.safe_load((kit.path / "known.yaml").read_text(encoding="utf-8"))["deviations"]
    assert sorted(written) == bad
    again = run(kit, *args, "--crescent-expectations", "known.yaml")
    assert again.ret == pytest.ExitCode.OK
    assert again.parseoutcomes()["xfailed"] == len(bad)
    assert "failed" not in again.parseoutcomes()


def test_xdist_gives_the_same_outcomes_as_serial(kit: pytest.Pytester) -> None:
    area = mixed_area(MUTANT)
    args = ("--crescent-impl", f"mutants:{MUTANT}", "-m", area.replace("-", "_"))
    run(kit, *args, "--junitxml", "serial.xml")
    run_apart(kit, "-p", "xdist", "-n", "2", *args, "--junitxml", "parallel.xml", "--crescent-report", "r.json")
    serial = junit_cases(kit.path / "serial.xml")
    assert junit_cases(kit.path / "parallel.xml") == serial
    assert {"passed", "failure"} <= set(serial.values())
    verdicts = {f"{r['id']}[{r['profile']}]": r["verdict"] for r in read_json(kit.path / "r.json")["results"]}
    assert verdicts == {name.rsplit("::", 1)[1]: _verdict(o) for name, o in serial.items()}


def mixed_area(mutant: str) -> str:
    """A rule area where the mutant both passes and fails scenarios."""
    verdicts: dict[str, set[str]] = {}
    for result in mutant_results(mutant).values():
        verdicts.setdefault(result.scenario.area, set()).add(result.verdict)
    return next(area for area, seen in verdicts.items() if {"passed", "failed"} <= seen)


def _verdict(junit_outcome: str) -> str:
    return {"failure": "failed", "error": "errored", "skipped": "skipped"}.get(junit_outcome, junit_outcome)


def test_two_sessions_in_one_process_report_only_their_own(kit: pytest.Pytester) -> None:
    chosen = distinct_ids()[0]
    for n in range(2):
        run(kit, "--crescent-impl", "reference", "-k", chosen, "--crescent-report", f"r{n}.json")
    report = read_json(kit.path / "r1.json")
    assert record_keys(report) == sorted(key(p) for p in pairs() if p[0].id == chosen)


def test_the_plugin_states_declared_deviations_and_checks_not_made(kit: pytest.Pytester) -> None:
    result = run(
        kit, "--crescent-impl", "declaring:no_pile_limit", "-k", "pile-limit-001", "--crescent-report", "r.json"
    )
    out = result.stdout.str()
    assert "DECLARED DEVIATIONS: app, except pile_limit=null, undo_limit=5" in out
    report = read_json(kit.path / "r.json")
    assert report["declared"] == ["app, except pile_limit=null, undo_limit=5"]
    assert any(r.get("judged_as") for r in report["results"])
    quiet = run(
        kit, "--crescent-impl", "verdict_only:factory", "-k", "reasons-001", "--crescent-report", "v.json"
    )
    assert "not checked: the reason code of a refusal" in quiet.stdout.str()
    assert "reasons" in read_json(kit.path / "v.json")["unchecked"]


def test_short_summary_lines_keep_the_id_and_say_what_went_wrong(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-impl", "mutants:pile_limit_14", "-k", "pile-limit-001", "-rf")
    lines = [x for x in result.stdout.lines if x.startswith("FAILED ")]
    assert lines and all(re.match(r"FAILED crescent/[\w-]+\.yaml::pile-limit-001\[[\w+-]+\] - ", x) for x in lines)
    assert all(x.split(" - ", 1)[1].startswith(("outcome: ", "legal moves: ", "cards in ")) for x in lines), lines
    short = run(kit, "--crescent-impl", "mutants:pile_limit_14", "-k", "pile-limit-001[app]", "--tb=line")
    out = short.stdout.str()
    assert "outcome: expected 'rejected (pile-full)', got 'accepted'" in out and "position after" not in out


def test_the_summary_reconciles_pytests_skipped_with_the_kits_counts(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-impl", "app_only:factory", "-k", "piles or game-codes")
    out = result.stdout.str()
    tally = re.search(r"pytest counts all (\d+) as skipped: (\d+) skipped .*, (\d+) not claimed", out)
    assert tally, out[-2000:]
    total, skipped, unclaimed = map(int, tally.groups())
    assert total == skipped + unclaimed and skipped > 0 and unclaimed > 0
    result.assert_outcomes(passed=result.parseoutcomes()["passed"], skipped=total)
    assert re.search(r"^not run, and why \(\d+ scenario runs skipped\): \d+ need game-codes", out, re.M)
    assert re.search(r"^\d+ scenario runs of \d+ scenarios: ", out, re.M)


def test_max_failures_shows_the_first_in_full_and_the_rest_in_one_line(kit: pytest.Pytester) -> None:
    def failures(result: pytest.RunResult) -> str:
        """The failures section (under CI=true pytest's short summary repeats whole messages)."""
        return result.stdout.str().split("short test summary info")[0]

    args = ("--crescent-impl", "mutants:pile_limit_14", "-k", "pile-limit and app")
    full = failures(run(kit, *args)).count("  replay: crescent-conformance run")
    assert full >= 2
    capped = failures(run(kit, *args, "--crescent-max-failures", "1"))
    assert capped.count("  replay: crescent-conformance run") == 1
    assert capped.count("(in full only the first 1: --crescent-max-failures)") == full - 1
    assert "--crescent-max-failures 'x'" in run(kit, *args, "--crescent-max-failures", "x").stderr.str()


def test_an_item_deselected_under_xdist_makes_the_report_incomplete(kit: pytest.Pytester) -> None:
    """xdist workers deselect where the controller cannot see it: 748 of 749 runs is not complete."""
    first = pairs()[0]
    node = f"crescent/{first[0].file.rsplit('/', 1)[-1]}::{key(first)}"
    args = ("--crescent-impl", "reference", "--crescent-report", "r.json")
    run_apart(kit, "-p", "xdist", "-n", "2", *args, "--deselect", node)
    report = read_json(kit.path / "r.json")
    assert len(report["results"]) == len(pairs()) - 1 and key(first) not in record_keys(report)
    assert report["complete"] is False


def test_an_empty_crescent_cmd_is_a_usage_error(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-cmd", "  ")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--crescent-cmd is empty" in result.stderr.str()
