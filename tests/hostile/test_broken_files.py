"""Broken input files through every command that reads them: one line naming the file, exit 2, no traceback.

Two tables: the broken files (``REPORTS``, ``LOGS``, ``YAMLS``) and the commands that read each kind
(``REPORT_READERS``, ...). A new reading command joins by one line in its table; every broken file
then goes through it.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.corpus.load import load_corpus

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HEADER = '{"crescent_log": 1, "profile": "app", "code": "CR1-N-AAAAAAB"}'
RECURSIVE = "deviations: &a {x: *a}\n"


@functools.cache
def one_id() -> str:
    return load_corpus()[0].id


@functools.cache
def good_report_text() -> str:
    """A real report of one scenario (written by the kit once per session)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        assert main(["run", "--id", one_id(), "-q", "--report", str(path)]) == 0
        data = json.loads(path.read_text(encoding="utf-8"))
    data["complete"] = True  # as a whole run would say (compare takes only complete reports)
    return json.dumps(data, indent=1)


def report_with(change: Callable[[dict[str, object]], None]) -> str:
    data = json.loads(good_report_text())
    change(data)
    return json.dumps(data, indent=1, ensure_ascii=False)


def _set_record(field: str, value: object) -> Callable[[dict[str, object]], None]:
    def change(data: dict[str, object]) -> None:
        results = data["results"]
        assert isinstance(results, list)
        results[0][field] = value

    return change


def _set(field: str, value: object) -> Callable[[dict[str, object]], None]:
    return lambda data: data.__setitem__(field, value)


def _failed_minimally(data: dict[str, object]) -> None:
    _set_record("verdict", "failed")(data)
    _set_record("failure", {"step": 1, "mismatches": ["x"]})(data)


# name -> (file bytes, text the error must hold; None: the file is readable and the command reads it)
REPORTS: dict[str, tuple[Callable[[], bytes], str | None]] = {
    "x": (lambda: b"x", "not JSON"),
    "empty": (lambda: b"", "not JSON"),
    "deep": (lambda: b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested more than"),
    "5000 digits": (lambda: b'{"complete": ' + b"9" * 5000 + b"}", "5000 digits"),
    "1e999": (lambda: report_with(_set("complete", 0)).replace('"complete": 0', '"complete": 1e999').encode(),
              "out of range"),
    "NaN": (lambda: report_with(_set("complete", 0)).replace('"complete": 0', '"complete": NaN').encode(), "NaN"),
    "a list": (lambda: b"[]", "a JSON object is expected"),
    "latin-1": (lambda: good_report_text().encode("utf-8").replace(b'"id"', b'"\xe9id"'), "not UTF-8"),
    "id 7": (lambda: report_with(_set_record("id", 7)).encode(), "$.results[0].id: 7 is not a string"),
    "verdict null": (lambda: report_with(_set_record("verdict", None)).encode(), "$.results[0].verdict: null"),
    "results null": (lambda: report_with(_set("results", None)).encode(), "$.results: null is not a list"),
    "record a number": (lambda: report_with(_set("results", [5])).encode(), "$.results[0]: 5 is not an object"),
    "implementation null": (lambda: report_with(_set("implementation", None)).encode(), "$.implementation"),
    "failure mistyped": (lambda: report_with(_set_record("failure", {"step": "1", "mismatches": []})).encode(),
                         "$.results[0].failure.step"),
    "failure minimal": (lambda: report_with(_failed_minimally).encode(), None),
    "record minimal": (lambda: report_with(_set("results", [{"id": "a-001", "profile": "app", "area": "piles",
                                                               "verdict": "failed"}])).encode(), None),
    "lone surrogate": (lambda: good_report_text().replace('"crescent_ref"', '"bad\\ud800"').encode(), None),
}


def _report(path: Path, tmp: Path) -> list[str]:
    return ["report", str(path)]


def _html(path: Path, tmp: Path) -> list[str]:
    return ["html-report", str(path), "--out", str(tmp / "r.html")]


def _matrix(path: Path, tmp: Path) -> list[str]:
    return ["matrix", str(tmp / "good.json"), str(path), "--out", str(tmp / "m.html")]


def _compare_old(path: Path, tmp: Path) -> list[str]:
    return ["compare", str(path), str(tmp / "good.json")]


def _compare_new(path: Path, tmp: Path) -> list[str]:
    return ["compare", str(tmp / "good.json"), str(path), "--format", "html", "--out", str(tmp / "c.html")]


def _badge(path: Path, tmp: Path) -> list[str]:
    return ["badge", str(path), "--out", str(tmp / "b.svg")]


REPORT_READERS = {"report": _report, "html-report": _html, "matrix": _matrix, "compare-old": _compare_old,
                  "compare-new": _compare_new, "badge": _badge}  # fmt: skip


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", REPORT_READERS)
@pytest.mark.parametrize("case", REPORTS)
def test_a_broken_report(case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.json").write_text(good_report_text(), encoding="utf-8")
    content, says = REPORTS[case]
    path = tmp_path / "broken.json"
    path.write_bytes(content())
    code = main(REPORT_READERS[command](path, tmp_path))
    seen = capsys.readouterr()
    if says is None:  # readable: judged (a compare may find a regression), never bad input
        assert code in (0, 1) and "Traceback" not in seen.err, seen.err
        return
    assert code == 2
    err = one_line(seen.err)
    assert str(path) in err and says in err
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob("*.svg"))  # nothing written


def test_a_bad_field_is_named_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    text = report_with(_set_record("verdict", None))
    path.write_text(text, encoding="utf-8")
    assert main(["report", str(path)]) == 2
    line = next(n for n, t in enumerate(text.splitlines(), 1) if '"verdict": null' in t)
    assert f"{path}:{line}: $.results[0].verdict" in capsys.readouterr().err


def test_a_folder_given_as_a_report_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path)]) == 2
    assert "Is a directory" in one_line(capsys.readouterr().err)


def test_the_command_of_the_issue_exits_2() -> None:
    """``printf x > g.json; crescent-conformance report g.json`` exited 70 with a traceback."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "g.json").write_text("x", encoding="utf-8")
        code = "import sys; from conformance.cli import main; sys.exit(main())"
        done = subprocess.run([sys.executable, "-c", code, "report", "g.json"], cwd=folder, capture_output=True,
                              text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "g.json:1" in done.stderr


# --- game logs: check-log ---------------------------------------------------------------------------------

LOGS: dict[str, tuple[str, str]] = {
    "deep": ('{"action": "p3-p1", "accepted": false, "meta": ' + "[" * 300 + "]" * 300 + "}", "nested more than"),
    "huge integer": ('{"action": "p3-p1", "accepted": false, "state": {"moves": ' + "9" * 5000 + "}}", "5000 digits"),
    "foundations a number": ('{"action": "p3-p1", "accepted": false, "state": {"foundations": 5}}', "foundations"),
    "foundations a list": ('{"action": "p3-p1", "accepted": false, "state": {"foundations": [1]}}', "foundations"),
    "foundation top a number": ('{"action": "p3-p1", "accepted": false, "state": {"foundations": {"A♠": 7}}}',
                                "foundations"),
    "piles too few": ('{"action": "p3-p1", "accepted": false, "state": {"piles": [["A♠"]]}}', "piles"),
    "NaN": ('{"action": "p3-p1", "accepted": false, "state": {"moves": NaN}}', "NaN"),
    "not JSON": ("{oops", "not JSON"),
}


@pytest.mark.parametrize("case", LOGS)
def test_a_broken_log(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line, says = LOGS[case]
    path = tmp_path / "g.jsonl"
    path.write_text(f"{HEADER}\n{line}\n", encoding="utf-8")
    assert main(["check-log", str(path)]) == 2
    seen = capsys.readouterr()
    err = one_line(seen.err)
    assert f"{path}:2:" in err and says in err and says not in seen.out


def test_a_raw_line_separator_inside_a_string_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(HEADER + '\n{"action": "p3-p1", "accepted": false, "meta": {"note": "a\u2028b\u0085c"}}\n',
                    encoding="utf-8")  # fmt: skip
    assert main(["check-log", str(path)]) == 0
    assert capsys.readouterr().err == ""


# --- YAML: scenario files, expectations, allow files, impact, pytest ---------------------------------------

YAMLS: dict[str, tuple[str, str]] = {
    "recursive alias": (RECURSIVE, "recursive alias"),
    "deep flow": ("deviations: " + "[" * 5000 + "]" * 5000 + "\n", "YAML"),
    "deep block": ("deviations:\n" + "".join("  " * n + "- \n" for n in range(1, 80)), "nested more than"),
    "long integer": ("deviations:\n  x: " + "9" * 5000 + "\n", "digits"),
    "list as key": ("deviations:\n  ? [a, b]\n  : why\n", "a key that is a list"),
    "not UTF-8": ("deviations:\n  x: caf\udce9\n", "not UTF-8"),
}


def _write_yaml(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def _as_scenarios(path: Path, text: str) -> None:
    _write_yaml(path, text.replace("deviations", "scenarios"))


YAML_READERS: dict[str, tuple[Callable[[Path, str], None], Callable[[Path], list[str]]]] = {
    "run --scenarios": (_as_scenarios, lambda p: ["run", "--scenarios", str(p)]),
    "lint --scenarios": (_as_scenarios, lambda p: ["lint", "--scenarios", str(p)]),
    "list --scenarios": (_as_scenarios, lambda p: ["list", "--scenarios", str(p)]),
    "run --expectations": (_write_yaml, lambda p: ["run", "--expectations", str(p)]),
    "perft --expectations": (_write_yaml, lambda p: ["perft", "--expectations", str(p)]),
    "fuzz --expectations": (_write_yaml, lambda p: ["fuzz", "--expectations", str(p), "--games", "1"]),
    "compare --allow-file": (_write_yaml, lambda p: ["compare", str(p.parent / "good.json"),
                                                      str(p.parent / "good.json"), "--allow-file", str(p)]),
}  # fmt: skip


@pytest.mark.parametrize("command", YAML_READERS)
@pytest.mark.parametrize("case", YAMLS)
def test_a_broken_yaml_file(case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.json").write_text(good_report_text(), encoding="utf-8")
    text, says = YAMLS[case]
    write, argv = YAML_READERS[command]
    path = tmp_path / "broken.yaml"
    write(path, text)
    assert main(argv(path)) == 2
    err = one_line(capsys.readouterr().err)
    assert str(path) in err and says in err


def test_an_allow_file_that_is_not_text_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.json").write_text(good_report_text(), encoding="utf-8")
    (tmp_path / "allow.txt").write_bytes(b"\xff\xfe")
    good = str(tmp_path / "good.json")
    assert main(["compare", good, good, "--allow-file", str(tmp_path / "allow.txt")]) == 2
    assert "allow.txt" in one_line(capsys.readouterr().err)


def test_impact_with_a_recursive_alias_in_the_working_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """impact reads two versions of spec/; a broken statements file of the working tree is one line."""
    import shutil

    spec = tmp_path / "repo" / "spec"
    shutil.copytree(ROOT / "spec", spec)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(spec.parent)]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "spec"]):
        subprocess.run([*git, *step], check=True, capture_output=True, timeout=120)
    (spec / "statements.yaml").write_text("statements: &a [*a]\n", encoding="utf-8")
    assert main(["impact", "--spec", str(spec), "-q"]) == 2
    err = one_line(capsys.readouterr().err)
    assert "statements.yaml" in err and "recursive alias" in err


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--crescent-impl",
                           "reference", *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)  # fmt: skip


def test_pytest_with_a_recursive_alias_in_a_scenario_file(tmp_path: Path) -> None:
    _as_scenarios(tmp_path / "bad.yaml", RECURSIVE)
    done = _pytest(tmp_path, "--collect-only", "--crescent-scenarios", str(tmp_path / "bad.yaml"))
    assert done.returncode == pytest.ExitCode.INTERRUPTED  # a collection error, not an internal error (3)
    assert "recursive alias" in done.stdout and "RecursionError" not in done.stdout + done.stderr


def test_pytest_with_a_recursive_alias_in_the_expectations(tmp_path: Path) -> None:
    _write_yaml(tmp_path / "bad.yaml", RECURSIVE)
    done = _pytest(tmp_path, "--collect-only", "--crescent-expectations", str(tmp_path / "bad.yaml"))
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "recursive alias" in done.stderr and "Traceback" not in done.stderr


def schema_keywords(node: object) -> set[str]:
    """Every keyword of a JSON Schema (the names under ``properties`` are fields, not keywords)."""
    if isinstance(node, list):
        return set().union(*(schema_keywords(n) for n in node))
    if not isinstance(node, dict):
        return set()
    found = set(node)
    for key, value in node.items():
        inner = value.values() if key == "properties" and isinstance(value, dict) else [value]
        found |= set().union(*(schema_keywords(v) for v in inner))
    return found


def test_the_quick_report_check_knows_every_keyword_of_the_schema() -> None:
    from conformance.reportfile import CHECKED, report_validator

    annotations = {"$schema", "$id", "title", "description"}
    assert schema_keywords(report_validator().schema) - annotations <= CHECKED
