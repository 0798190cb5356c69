"""A kit node id pytest printed, given back on its command line, runs that item (conformance/nodeids.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_runs import prepared, read_json, run, run_apart

from conformance.nodeids import named_by, names_kit_node


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return prepared(pytester, monkeypatch)


def test_the_failing_line_pytest_prints_reruns_just_that_run(kit: pytest.Pytester) -> None:
    first = run(kit, "--crescent-impl", "mutants:pile_limit_14", "-k", "pile-limit-001", "-rf")
    failed = [x.split()[1] for x in first.stdout.lines if x.startswith("FAILED ")]
    assert failed, first.stdout.str()
    again = run(kit, "--crescent-impl", "mutants:pile_limit_14", failed[0], "-rf")
    again.assert_outcomes(failed=1)
    assert [x.split()[1] for x in again.stdout.lines if x.startswith("FAILED ")] == [failed[0]]


def test_a_scenario_id_names_every_profile_and_a_file_every_run_in_it(kit: pytest.Pytester) -> None:
    listed = run(kit, "--crescent-impl", "reference", "--collect-only", "-q", "crescent/piles.yaml::piles-006")
    ids = [x for x in listed.stdout.lines if "::" in x]
    assert len(ids) > 1 and all(re.fullmatch(r"crescent/piles\.yaml::piles-006\[[\w+-]+\]", x) for x in ids)
    whole = run(kit, "--crescent-impl", "reference", "--collect-only", "-q", "crescent/piles.yaml")
    in_file = [x for x in whole.stdout.lines if "::" in x]
    assert set(ids) < set(in_file) and all(x.startswith("crescent/piles.yaml::") for x in in_file)


def test_under_xdist_a_node_id_runs_its_runs_and_an_option_value_stays_an_option(kit: pytest.Pytester) -> None:
    scenario = "crescent/piles.yaml::piles-006"
    args = ("--crescent-impl", "reference", "--crescent-report", "r.json", "-p", "xdist", "-n", "2")
    result = run_apart(kit, *args, scenario, "--deselect", f"{scenario}[app]")
    records = read_json(kit.path / "r.json")["results"]
    assert records and {r["id"] for r in records} == {"piles-006"} and "app" not in {r["profile"] for r in records}
    result.assert_outcomes(passed=len(records))


def test_a_node_id_naming_nothing_is_a_usage_error_that_quotes_it(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-impl", "reference", "crescent/piles.yaml::no-such-scenario")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "not found: crescent/piles.yaml::no-such-scenario" in result.stderr.str()
    idle = run(kit, "crescent/piles.yaml::piles-006[app]")
    assert idle.ret == pytest.ExitCode.USAGE_ERROR and "--crescent-cmd or --crescent-impl" in idle.stderr.str()


def test_a_users_own_test_named_beside_a_kit_node_still_runs(kit: pytest.Pytester) -> None:
    kit.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = run(kit, "--crescent-impl", "reference", "test_mine.py", "crescent/piles.yaml::piles-006[app]")
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("nodeid", "wanted", "named"),
    [
        ("crescent/piles.yaml::piles-006[app]", "crescent/piles.yaml::piles-006[app]", True),
        ("crescent/piles.yaml::piles-006[app]", "crescent/piles.yaml::piles-006", True),
        ("crescent/piles.yaml::piles-006[app]", "crescent/piles.yaml", True),
        ("crescent/piles.yaml::piles-0060[app]", "crescent/piles.yaml::piles-006", False),
        ("crescent/piles.yaml::piles-006[app]", "crescent/pile", False),
    ],
)
def test_what_a_node_id_names(nodeid: str, wanted: str, named: bool) -> None:
    assert named_by(nodeid, wanted) is named


def test_a_real_path_under_a_crescent_folder_is_left_to_pytest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert names_kit_node("crescent/test_x.py::test_y") and not names_kit_node("--crescent-cmd=crescent/x")
    (tmp_path / "crescent").mkdir()
    (tmp_path / "crescent" / "test_x.py").write_text("", encoding="utf-8")
    assert not names_kit_node("crescent/test_x.py::test_y") and not names_kit_node("crescent/test_x.py")
