"""The pytest plugin collects game logs (``--crescent-logs`` and its ini twin): one item per log file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.logs.record import random_log, write_log

QUIET = ("-p", "no:hypothesispytest")


@pytest.fixture
def logs(pytester: pytest.Pytester) -> Path:
    folder = pytester.path / "logs"
    (folder / "more").mkdir(parents=True)
    lines = random_log("open", "CR1-N-AAAAAAC", 20, seed=4)
    write_log(folder / "good.jsonl", lines)
    record = json.loads(lines[7])
    record["accepted"] = not record["accepted"]
    record.pop("reason", None)
    write_log(folder / "more" / "doctored.jsonl", [*lines[:7], json.dumps(record, ensure_ascii=False), *lines[8:]])
    write_log(folder / "broken.jsonl", [lines[0], "{not json"])
    (folder / "notes.txt").write_text("not a log\n", encoding="utf-8")
    return folder


def test_each_log_is_one_item_in_sorted_order(pytester: pytest.Pytester, logs: Path) -> None:
    result = pytester.runpytest(*QUIET, "--collect-only", "-q", f"--crescent-logs={logs}")
    names = [line for line in result.stdout.lines if "::" in line]
    assert names == [f"crescent/logs/logs::{n}" for n in ("broken.jsonl", "good.jsonl", "more/doctored.jsonl")]


def test_a_doctored_log_fails_like_a_scenario_and_a_broken_one_names_its_line(
    pytester: pytest.Pytester, logs: Path
) -> None:
    result = pytester.runpytest(*QUIET, f"--crescent-logs={logs}")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "doctored.jsonl:8, step 7" in out and "replay: crescent-ref play --profile open --code CR1-N-AAAAAAC" in out
    assert "broken.jsonl:2: not JSON" in out and "Traceback" not in out


def test_the_ini_twin_names_the_logs(pytester: pytest.Pytester, logs: Path) -> None:
    pytester.makeini(f"[pytest]\ncrescent_logs = {logs / 'good.jsonl'}\n")
    pytester.runpytest(*QUIET).assert_outcomes(passed=1)
