"""The pytest plugin against bad files, bad options, hostile implementations and interrupts.

The report never lies (``complete`` only for a finished, unselected run; errored runs in it), an
expectations file is rewritten only by a finished run, and bad input is a collection or usage
error naming file and line, never an INTERNALERROR.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from deliverable import sigint_default

from conformance.corpus.load import load_corpus

HERE = Path(__file__).resolve().parent
QUIET = ("-p", "no:hypothesispytest")
OLD_EXPECTATIONS = "deviations:\n  {id}: known to fail\n"


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester whose runs (in-process and subprocess) can import ``hostile_impls``."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))
    pytester.syspathinsert(HERE)
    return pytester


@functools.cache
def short_undo_id() -> str:
    """A scenario meeting an undo in its first two steps, whose id ``-k`` selects alone."""
    scenarios = load_corpus()
    names = [f"{sc.id}[{p}]" for sc in scenarios for p in sc.profiles]
    return next(
        sc.id
        for sc in scenarios
        if any(st.action == "undo" for st in sc.steps[:2])
        and all(n.startswith(sc.id + "[") for n in names if sc.id in n)
    )


def run(kit: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in this process (the corpus is parsed once per process)."""
    return kit.runpytest(*QUIET, *args)


def report(kit: pytest.Pytester) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((kit.path / "r.json").read_text(encoding="utf-8"))
    return data


def test_a_broken_scenario_file_is_a_collection_error_with_file_and_line(kit: pytest.Pytester) -> None:
    folder = kit.mkdir("extra")
    (folder / "broken.yaml").write_text("area: undo\nscenarios: [\n  {id: x\n", encoding="utf-8")
    result = run(kit, "--crescent-impl", "reference", "--crescent-scenarios", "extra", "-k", short_undo_id())
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "INTERNALERROR" not in out and "1 error during collection" in out
    assert "broken.yaml:" in out and "YAML syntax" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--crescent-timeout", "abc"), "--crescent-timeout 'abc': expected a positive number"),
        (("--crescent-max-line", "-5"), "--crescent-max-line '-5'"),
        (("--crescent-report", "no/such/r.json"), "--crescent-report 'no/such/r.json': the folder"),
        (("--crescent-impl", "no_such_module:f"), "cannot load the adapter"),
    ],
)
def test_a_bad_option_is_a_usage_error_naming_it(kit: pytest.Pytester, args: tuple[str, ...], says: str) -> None:
    result = run(kit, "--crescent-impl", "reference", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert says in result.stderr.str() and "Traceback" not in result.stderr.str()


def test_an_expectations_file_naming_unknown_scenarios_is_a_usage_error(kit: pytest.Pytester) -> None:
    (kit.path / "known.yaml").write_text("deviations:\n  nosuch-001: why\n", encoding="utf-8")
    result = run(kit, "--crescent-impl", "reference", "--crescent-expectations", "known.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "known.yaml:2: deviations/nosuch-001: no scenario has the id 'nosuch-001'" in result.stderr.str()


def test_an_expectations_file_naming_an_unknown_perft_case_is_a_usage_error(kit: pytest.Pytester) -> None:
    """The same check as every command's (conformance.cli.common.check_expectations)."""
    (kit.path / "known.yaml").write_text("deviations:\n  autoplay-001: why\n  perft/nosuch: why\n", encoding="utf-8")
    result = run(kit, "--crescent-impl", "reference", "--crescent-expectations", "known.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "known.yaml:3: deviations/perft/nosuch: no perft case has the name 'nosuch'" in result.stderr.str()


def test_an_alias_bomb_in_an_expectations_file_is_refused_quickly(kit: pytest.Pytester) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]" for n in range(1, 9)]
    (kit.path / "known.yaml").write_text("\n".join([*lines, "deviations: *a8"]) + "\n", encoding="utf-8")
    began = time.monotonic()
    result = run(kit, "--crescent-impl", "reference", "--crescent-expectations", "known.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "once aliases are expanded" in result.stderr.str()
    assert time.monotonic() - began < 60


def test_everything_skipped_fails_the_run_unless_allowed(kit: pytest.Pytester) -> None:
    args = ("--crescent-impl", "hostile_impls:skipper", "-k", short_undo_id())
    result = run(kit, *args)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "were skipped: nothing was judged" in result.stdout.str()
    assert run(kit, *args, "--crescent-allow-empty").ret == pytest.ExitCode.OK


def test_errored_runs_are_in_the_report(kit: pytest.Pytester) -> None:
    result = run(kit, "--crescent-impl", "hostile_impls:no_undo", "-k", short_undo_id(), "--crescent-report", "r.json")
    errors = result.parseoutcomes()["errors"]
    data = report(kit)
    assert data["summary"]["errored"] == errors >= 1
    assert any("NotImplementedError" in r["detail"] for r in data["results"])


def test_a_failed_handshake_is_tried_once_per_process(kit: pytest.Pytester) -> None:
    counter = kit.path / "starts"
    cmd = f"sh -c 'echo start >> {counter}; exit 3'"
    result = run(kit, "--crescent-cmd", cmd, "-k", short_undo_id(), "--crescent-report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert counter.read_text().split() == ["start"]
    assert {r["verdict"] for r in report(kit)["results"]} == {"errored"}
    assert all("handshake failed" in r["detail"] for r in report(kit)["results"])


def test_stepwise_stops_with_a_partial_report_and_keeps_the_expectations(kit: pytest.Pytester) -> None:
    known = kit.path / "known.yaml"
    known.write_text(OLD_EXPECTATIONS.format(id=short_undo_id()), encoding="utf-8")
    args = ("--crescent-impl", "hostile_impls:no_undo", "--crescent-profile", "app", "-m", "undo", "--sw")
    result = run(kit, *args, "--crescent-report", "r.json", "--crescent-write-expectations", "known.yaml")
    assert "expectations file NOT written" in result.stdout.str()
    assert known.read_text(encoding="utf-8") == OLD_EXPECTATIONS.format(id=short_undo_id())
    data = report(kit)
    assert data["complete"] is False and len(data["results"]) < data["planned"]


def test_ctrl_c_leaves_a_partial_report_and_the_old_expectations(kit: pytest.Pytester) -> None:
    known, mark = kit.path / "known.yaml", kit.path / "third-start"
    known.write_text(OLD_EXPECTATIONS.format(id=short_undo_id()), encoding="utf-8")
    argv = [sys.executable, "-m", "pytest", *QUIET, "-q", "--crescent-impl", "hostile_impls:slow"]
    argv += ["--crescent-report", "r.json", "--crescent-write-expectations", "known.yaml"]
    env = {**os.environ, "HOSTILE_MARK": str(mark)}
    proc = subprocess.Popen(
        argv, cwd=kit.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=sigint_default
    )
    end = time.monotonic() + 120
    while not mark.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, out.decode()[-2000:]
    data = report(kit)
    assert data["complete"] is False and 2 <= len(data["results"]) < data["planned"]
    assert known.read_text(encoding="utf-8") == OLD_EXPECTATIONS.format(id=short_undo_id())
