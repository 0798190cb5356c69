"""Output files of every writing command: a device, a FIFO or a folder is refused (one line, exit 2), never
replaced; a symlink is written through; concurrent writers of one file all succeed; the docs site is
replaced whole or not at all. Then the gates and the exit policy: nothing judged is never green.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.corpus.load import load_corpus
from conformance.files import OutputPathError, write_atomic, write_folder

HERE = Path(__file__).resolve().parent
HEADER = '{"crescent_log": 1, "profile": "app", "code": "CR1-N-AAAAAAB"}'
KIT = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}


@pytest.fixture
def good(tmp_path: Path) -> Path:
    """A complete report of one scenario."""
    path = tmp_path / "good.json"
    assert main(["run", "--id", load_corpus()[0].id, "-q", "--report", str(path)]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "complete": True}), encoding="utf-8")
    return path


def _log(tmp: Path) -> Path:
    path = tmp / "g.jsonl"
    path.write_text(HEADER + "\n", encoding="utf-8")
    return path


# command -> argv writing to the given path
WRITERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "run --report": lambda good, out: ["run", "--id", load_corpus()[0].id, "-q", "--report", str(out)],
    "html-report": lambda good, out: ["html-report", str(good), "--out", str(out)],
    "matrix": lambda good, out: ["matrix", str(good), "--out", str(out)],
    "compare": lambda good, out: ["compare", str(good), str(good), "--out", str(out)],
    "badge": lambda good, out: ["badge", str(good), "--out", str(out)],
    "check-log --as-scenario": lambda good, out: ["check-log", str(_log(good.parent)), "--as-scenario", str(out)],
}


def _fifo(tmp: Path) -> Path:
    path = tmp / "fifo.out"
    os.mkfifo(path)
    return path


def _device(tmp: Path) -> Path:
    """A character device node like /dev/null, made in the test's folder (so nothing real is at risk)."""
    path = tmp / "null.out"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    return path


def _link_to_device(tmp: Path) -> Path:
    path = tmp / "link.out"
    path.symlink_to(_device(tmp))
    return path


def _folder(tmp: Path) -> Path:
    path = tmp / "folder.out"
    path.mkdir()
    return path


SPECIAL = {"fifo": (_fifo, stat.S_ISFIFO), "device": (_device, stat.S_ISCHR),
           "link to a device": (_link_to_device, stat.S_ISCHR), "folder": (_folder, stat.S_ISDIR)}  # fmt: skip


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("command", WRITERS)
def test_a_special_file_is_refused_never_replaced(
    command: str, kind: str, good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, still = SPECIAL[kind]
    target = make(good.parent)
    capsys.readouterr()
    assert main(WRITERS[command](good, target)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(target) in err, err
    assert still(os.stat(target).st_mode)
    assert not [p for p in good.parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", WRITERS)
def test_a_symlink_is_written_through(command: str, good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real, link = good.parent / "real.out", good.parent / "link.out"
    real.write_text("old", encoding="utf-8")
    link.symlink_to(real)
    assert main(WRITERS[command](good, link)) == 0, capsys.readouterr().err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") not in ("old", "")


def test_pytest_refuses_a_device_as_its_report(tmp_path: Path) -> None:
    target = _device(tmp_path)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--crescent-impl",
                           "reference", "--crescent-report", str(target), "--collect-only"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == pytest.ExitCode.USAGE_ERROR and "character device" in done.stderr
    assert stat.S_ISCHR(os.stat(target).st_mode)


def test_docs_refuses_a_device_and_a_folder_of_other_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    device = _device(tmp_path)
    assert main(["docs", "--out", str(device)]) == 2
    assert "not a folder" in capsys.readouterr().err and stat.S_ISCHR(os.stat(device).st_mode)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep", encoding="utf-8")
    assert main(["docs", "--out", str(tmp_path / "mine")]) == 2
    assert "notes.txt" in capsys.readouterr().err
    assert (tmp_path / "mine" / "notes.txt").read_text(encoding="utf-8") == "keep"


def test_a_site_that_cannot_be_written_whole_leaves_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    write_folder(site, {"index.html": "old index", "rules.html": "old rules"})
    calls = [0]
    real_write = Path.write_bytes

    def full_disk(self: Path, data: bytes) -> int:
        calls[0] += 1
        if calls[0] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    with pytest.raises(OutputPathError, match="No space left on device"):
        write_folder(site, {"index.html": "new index", "rules.html": "new rules", "more.html": "x"})
    monkeypatch.undo()
    assert {p.name: p.read_text(encoding="utf-8") for p in site.iterdir()} == {
        "index.html": "old index", "rules.html": "old rules"}  # fmt: skip
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
    assert write_folder(site, {"index.html": "new"}) == [site / "index.html"]
    assert [p.name for p in site.iterdir()] == ["index.html"] and [p.name for p in tmp_path.iterdir()] == ["site"]


def test_two_concurrent_compares_to_one_file_both_succeed(good: Path) -> None:
    out = good.parent / "c.html"
    argv = [*KIT, "compare", str(good), str(good), "--format", "html", "--out", str(out)]
    procs = [subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV) for _ in range(3)]
    codes = [p.wait(timeout=120) for p in procs]
    errors = [p.stderr.read().decode() for p in procs if p.stderr is not None]
    assert codes == [0, 0, 0], errors
    assert out.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert sorted(p.name for p in good.parent.iterdir()) == ["c.html", "good.json"]


def test_a_reader_never_sees_half_a_file(tmp_path: Path) -> None:
    target, texts = tmp_path / "r.html", [f"<p>{n}</p>\n" * 20_000 for n in range(4)]
    write_atomic(target, texts[0])
    seen: set[str] = set()
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            seen.add(target.read_text(encoding="utf-8"))

    reader = threading.Thread(target=read)
    reader.start()
    for n in range(40):
        write_atomic(target, texts[n % 4])
    done.set()
    reader.join()
    assert seen <= set(texts) and seen


# --- gates and the exit policy ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "smoke", "perft", "fuzz", "winnable"])
@pytest.mark.parametrize("cmd", ["", "   "])
def test_an_empty_cmd_is_an_error_never_the_reference(
    command: str, cmd: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["--codes", "CR1-N-AAAAAAB"] if command == "winnable" else []
    assert main([command, "--cmd", cmd, *extra]) == 2
    err = capsys.readouterr().err
    assert "--cmd: expected a command line" in err and err.count("\n") == 1


NOTHING = {
    "smoke": ["smoke", "--impl", "hostile_impls:skipper"],
    "perft": ["perft", "--impl", "hostile_impls:skipper"],
    "fuzz": ["fuzz", "--impl", "hostile_impls:skipper", "--games", "2", "--quiet"],
    "winnable": ["winnable", "--impl", "hostile_impls:skipper", "--codes", "CR1-N-AAAAAAB"],
}


@pytest.mark.parametrize("command", NOTHING)
def test_a_command_that_judged_nothing_is_not_green(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = NOTHING[command] + (["--out", str(tmp_path / "f")] if command == "fuzz" else [])
    assert main(argv) == 1
    assert f"crescent-conformance {command}: nothing was judged" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["fuzz", "--games", "-1"],
        ["fuzz", "--seconds", "-5"],
        ["fuzz", "--steps", "-1"],
        ["fuzz", "--max-findings", "0"],
        ["winnable", "--codes", "CR1-N-AAAAAAB", "--seconds", "-1"],
        ["winnable", "--codes", "CR1-N-AAAAAAB", "--nodes", "-1"],
        ["perft", "--max-depth", "-2"],
    ],
)
def test_a_negative_budget_is_a_user_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "expected a" in capsys.readouterr().err


def test_solve_refuses_a_negative_budget(capsys: pytest.CaptureFixture[str]) -> None:
    from crescent_ref.cli import main as ref_main

    assert ref_main(["solve", "CR1-N-AAAAAAB", "--nodes", "-5"]) == 2
    assert ref_main(["solve", "CR1-N-AAAAAAB", "--seconds", "-1"]) == 2
    assert capsys.readouterr().err.count("expected a positive number") == 2


def test_compare_refuses_a_partial_report_unless_allowed(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(good.read_text(encoding="utf-8"))
    interrupted = good.parent / "interrupted.json"
    interrupted.write_text(json.dumps({**data, "complete": False, "planned": 749}, indent=1), encoding="utf-8")
    for argv in (["compare", str(good), str(interrupted)], ["compare", str(interrupted), str(good)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"{interrupted}:" in err and f"PARTIAL run (interrupted or stopped: {len(data['results'])} of 749" in err
    assert main(["compare", str(good), str(interrupted), "--allow-partial"]) == 0


def test_compare_takes_two_runs_of_one_selection_but_not_a_narrower_new_one(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(good.read_text(encoding="utf-8"))
    selection, narrower = good.parent / "selection.json", good.parent / "narrower.json"
    selection.write_text(json.dumps({**data, "complete": False}, indent=1), encoding="utf-8")
    fewer = {**data, "complete": False, "results": data["results"][1:], "planned": len(data["results"]) - 1}
    narrower.write_text(json.dumps(fewer, indent=1), encoding="utf-8")
    assert main(["compare", str(selection), str(selection)]) == 0
    assert main(["compare", str(narrower), str(good)]) == 0  # a wider new run: records added, nothing hidden
    capsys.readouterr()
    assert main(["compare", str(good), str(narrower)]) == 2
    err = capsys.readouterr().err
    assert f"{narrower}:" in err and "lacking 1 of the old report's" in err
    assert main(["compare", str(good), str(narrower), "--allow-partial"]) == 0


@pytest.mark.parametrize("impl", ["os:getcwd", "no_such_module_here:factory"])
@pytest.mark.parametrize("command", ["run", "smoke", "perft", "fuzz", "winnable"])
def test_an_impl_that_is_no_adapter_is_one_line(command: str, impl: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--codes", "CR1-N-AAAAAAB"] if command == "winnable" else []
    assert main([command, "--impl", impl, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and f"--impl {impl!r}" in err
