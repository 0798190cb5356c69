"""What the plugin costs a process, and what an xdist controller leaves to its workers.

Each run here is a fresh pytest process (with Hypothesis's plugin loaded, unlike the other plugin
tests) with a plugin ``facts`` (``-p facts``: a conftest's hooks would not see the scenario items,
which live outside its folder) that writes down, per process, what that process ended with: whether
Hypothesis was imported, whether its plugin was still registered, how many reports carried a
scenario record and how many of those named the implementation and contract, and which of the
modules that judge had been imported at session start and at the end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import distinct_ids, key, pairs
from plugin_runs import prepared, read_json

FACTS = """
import json, os, sys
from pathlib import Path

seen = {"records": 0, "identities": 0}
JUDGING = ("conformance.judging.runner", "conformance.corpus.load", "conformance.adapters.session")

def pytest_sessionstart(session):
    seen["judging_at_start"] = sorted(m for m in JUDGING if m in sys.modules)

def pytest_runtest_logreport(report):
    text = getattr(report, "crescent", None)
    if text is not None:
        seen["records"] += 1
        seen["identities"] += "contract" in json.loads(text)

def pytest_unconfigure(config):
    facts = {
        "worker": hasattr(config, "workerinput"),
        "hypothesis_imported": "hypothesis" in sys.modules,
        "hypothesis_plugin": config.pluginmanager.get_plugin("hypothesispytest") is not None,
        "judging_at_end": sorted(m for m in JUDGING if m in sys.modules),
        **seen,
    }
    Path(f"facts-{os.getpid()}.json").write_text(json.dumps(facts))
"""

COUNTING = """
import os
from pathlib import Path
from conformance.adapters.reference import OnDemandReference

def factory():
    with open("adapters.txt", "a") as out:
        out.write(f"{os.getpid()}\\n")
    return OnDemandReference()
"""


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    prepared(pytester, monkeypatch)
    pytester.makepyfile(facts=FACTS)
    return pytester


def run(kit: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in a fresh process, with the ``facts`` plugin."""
    return kit.runpytest_subprocess("-q", "-p", "facts", *args)


def facts(kit: pytest.Pytester) -> dict[int, dict[str, Any]]:
    """What each process of the last run wrote, by process id."""
    return {int(p.stem.split("-")[1]): json.loads(p.read_text()) for p in kit.path.glob("facts-*.json")}


def chosen() -> str:
    return distinct_ids()[0]


def test_a_corpus_run_never_imports_hypothesis(kit: pytest.Pytester) -> None:
    run(kit, "--crescent-impl", "reference", "-k", chosen())
    (only,) = facts(kit).values()
    assert not only["hypothesis_imported"]
    assert not only["hypothesis_plugin"]


def test_a_session_with_a_users_test_leaves_hypothesis_alone(kit: pytest.Pytester) -> None:
    kit.makepyfile(test_own="def test_one():\n    assert 1 + 1 == 2\n")
    result = run(kit, "--crescent-impl", "reference", "-k", f"{chosen()} or test_one")
    result.assert_outcomes(passed=1 + sum(p[0].id == chosen() for p in pairs()))
    (only,) = facts(kit).values()
    assert only["hypothesis_plugin"]


def test_a_session_without_an_implementation_never_imports_what_judges(kit: pytest.Pytester) -> None:
    kit.makepyfile(test_own="def test_one():\n    assert 1 + 1 == 2\n")
    run(kit).assert_outcomes(passed=1)
    (only,) = facts(kit).values()
    assert only["judging_at_end"] == []


def test_hypothesis_statistics_still_print_in_a_corpus_run(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-impl", "reference", "-k", chosen(), "--hypothesis-show-statistics")
    assert "Hypothesis Statistics" in result.stdout.str()
    (only,) = facts(kit).values()
    assert only["hypothesis_imported"] and only["hypothesis_plugin"]


def test_under_xdist_only_workers_start_adapters_each_record_arrives_once_and_no_process_imports_hypothesis(
    kit: pytest.Pytester,
) -> None:
    """One xdist run of the whole corpus (a fresh controller and two workers) shows all of it."""
    kit.makepyfile(counting=COUNTING)
    result = run(kit, "--crescent-impl", "counting:factory", "-p", "xdist", "-n", "2", "--crescent-report", "r.json")
    result.assert_outcomes(passed=len(pairs()))
    seen = list(facts(kit).values())
    assert sorted(f["worker"] for f in seen) == [False, True, True]
    started = sorted(int(line) for line in Path(kit.path / "adapters.txt").read_text().split())
    assert started == sorted(pid for pid, f in facts(kit).items() if f["worker"])  # the controller starts none
    assert not any(f["hypothesis_imported"] or f["hypothesis_plugin"] for f in seen)
    controller = next(f for f in seen if not f["worker"])
    assert controller["judging_at_start"] == []  # it spawns the workers before importing what judges
    assert all(f["judging_at_start"] for f in seen if f["worker"])
    assert controller["records"] == len(pairs())
    assert controller["identities"] == 2
    assert sum(f["records"] for f in seen if f["worker"]) == len(pairs())
    report = read_json(kit.path / "r.json")
    assert report["complete"] is True
    assert report["implementation"]["name"] == "crescent_ref"
    assert sorted(f"{r['id']}[{r['profile']}]" for r in report["results"]) == sorted(key(p) for p in pairs())
    assert all("contract" not in r for r in report["results"])
