"""The CLIs' exception policy and exit codes, against bad input and hostile implementations.

User errors: one line on stderr, exit 2. Adapter faults: recorded results (exit 1). Nothing
judged: exit 1 with a reason. Ctrl-C: a partial report, exit 130. ``| head``: quiet. A kit bug:
a traceback and a line asking for a report.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from deliverable import sigint_default

import conformance.cli as kit_cli
from conformance.cli import main
from conformance.cli.common import Command
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.files import write_atomic
from crescent_ref.exits import BROKEN_PIPE, BUG, INTERRUPTED, REPORT_BUG

HERE = Path(__file__).resolve().parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
KIT = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]


@functools.cache
def corpus() -> tuple[Scenario, ...]:
    return tuple(load_corpus())


def with_undo() -> str:
    """The id of a scenario whose first step is an undo (so it is short and meets the undo at once)."""
    return next(sc.id for sc in corpus() if any(st.action == "undo" for st in sc.steps[:2]))


def not_in_app() -> str:
    """The id of a scenario no app profile runs."""
    return next(sc.id for sc in corpus() if all(p.split("+")[0] != "app" for p in sc.profiles))


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run", "--profile", "nosuch"], "unknown base profile 'nosuch'"),
        (["run", "--id", "nosuch-001"], "no scenario has the id(s) 'nosuch-001'"),
        (["run", "--timeout", "abc"], "argument --timeout: expected a positive number, got 'abc'"),
        (["run", "--timeout", "nan"], "argument --timeout"),
        (["run", "--max-line", "0"], "argument --max-line"),
        (["run", "--report", "/no/such/folder/r.json"], "the folder '/no/such/folder' does not exist"),
        (["run", "--impl", "no_such_module:factory"], "cannot load the adapter"),
        (["run", "--cmd", "'unbalanced", "--id", "x"], "no scenario has the id"),
        (["report", "/no/such/report.json"], "/no/such/report.json"),
        (["html-report", "/no/such/report.json"], "/no/such/report.json"),
        (["dance"], "invalid choice"),
    ],
)
def test_a_user_error_is_one_line_and_exit_2(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert says in one_line_error(capsys)


def test_a_selection_matching_nothing_exits_2_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--profile", "app", "--id", not_in_app()]
    assert main(argv) == 2
    assert "matches no scenario" in one_line_error(capsys)
    assert main([*argv, "--allow-empty"]) == 0


def test_everything_skipped_exits_1_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--impl", "hostile_impls:skipper", "--id", with_undo(), "-q"]
    assert main(argv) == 1
    assert "were skipped: nothing was judged" in capsys.readouterr().err
    assert main([*argv, "--allow-empty"]) == 0


def test_an_in_process_adapters_exception_is_an_errored_result(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    assert main(["run", "--impl", "hostile_impls:no_undo", "--id", with_undo(), "-q", "--report", str(report)]) == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["complete"] is False and data["summary"].get("errored", 0) >= 1
    assert any("NotImplementedError: undo is not written yet" in r["detail"] for r in data["results"])


def test_a_failed_handshake_errors_every_run_and_is_reported(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    argv = ["run", "--cmd", "sh -c 'exit 3'", "--timeout", "5", "-q", "--report", str(report)]
    assert main([*argv, "--id", with_undo(), "--id", not_in_app()]) == 1
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    assert len(results) >= 2 and {r["verdict"] for r in results} == {"errored"}
    assert all("handshake failed" in r["detail"] and "(crash)" in r["detail"] for r in results)


def test_a_lone_surrogate_reaches_the_report_as_a_replacement(tmp_path: Path) -> None:
    report, page = tmp_path / "r.json", tmp_path / "r.html"
    main(["run", "--impl", "hostile_impls:surrogate", "--id", with_undo(), "--report", str(report)])
    data = json.loads(report.read_bytes().decode("utf-8"))  # strict UTF-8
    assert data["implementation"]["name"] == "bad\ufffdname"
    assert main(["html-report", str(report), "--out", str(page)]) == 0
    assert "bad\ufffdname" in page.read_text(encoding="utf-8")


def test_html_report_of_a_broken_file_leaves_the_old_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "r.json").write_text('{"results": [', encoding="utf-8")
    (tmp_path / "r.html").write_text("old page", encoding="utf-8")
    assert main(["html-report", str(tmp_path / "r.json")]) == 2
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == "old page"
    one_line_error(capsys)


def test_concurrent_writers_of_one_file_do_not_collide(tmp_path: Path) -> None:
    target, errors = tmp_path / "r.json", []

    def write(n: int) -> None:
        try:
            for _ in range(20):
                write_atomic(target, f"writer {n}\n" * 1000)
        except OSError as err:
            errors.append(err)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(set(target.read_text(encoding="utf-8").splitlines())) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_a_kit_bug_shows_its_traceback_and_asks_for_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(kit_cli, "command", lambda name: Command("report", "broken", lambda p: None, broken))
    assert main(["report"]) == BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: a bug" in err and REPORT_BUG in err


@pytest.mark.parametrize(
    "argv", [[*KIT, "list"], [sys.executable, "-m", "crescent_ref.cli", "profiles"]], ids=["kit", "ref"]
)
def test_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    """The reader goes away before the first write (as ``| head -0`` would): exit 141, nothing on stderr."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == BROKEN_PIPE
    assert err == ""


def test_ctrl_c_writes_a_partial_report_and_exits_130(tmp_path: Path) -> None:
    mark, report = tmp_path / "third-start", tmp_path / "r.json"
    report.write_text("{}", encoding="utf-8")
    argv = [*KIT, "run", "--impl", "hostile_impls:slow", "--profile", "app", "-q", "--report", str(report)]
    env = {**ENV, "HOSTILE_MARK": str(mark)}
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, preexec_fn=sigint_default)
    end = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == INTERRUPTED
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read().decode()
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["complete"] is False
    assert 2 <= len(data["results"]) < data["planned"]
