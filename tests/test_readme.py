"""The examples of README.md and docs/*.md run as written: the Python doctests, and every command in a
``sh`` block (and every ``crescent-ref`` transcript, whose printed answer is compared).

The commands run with bash in a scratch folder holding what they read (run reports, game logs, an
allow list), with the kit's venv first on PATH. A placeholder becomes a real adapter (``node
my-adapter.js`` and ``"..."`` become ``crescent-ref serve``; ``mypackage.adapter:factory`` the
reference's factory) and a repository path an absolute one (SUBSTITUTE). Game counts and time
budgets are cut to a few (SHRINK), so that each command runs its whole path in seconds; the commands
that play the whole corpus are marked ``slow`` (``-m "not slow"`` leaves them out). A command that
cannot run here says why in NOT_RUN, and a test checks that list against the documents.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.adapters.handshake import PROTOCOL_VERSION, SPOKEN
from conformance.logs.record import random_log, write_log

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
TRANSCRIPT = ("crescent-ref ", "crescent-conformance ")
ADAPTER = "crescent-ref serve"
CRESCENT_JS = ROOT / "implementations" / "crescent-js"
SUBSTITUTE = [
    ('"node my-adapter.js"', f'"{ADAPTER}"'),
    ('"..."', f'"{ADAPTER}"'),
    ("mypackage.adapter:factory", "conformance.adapters.reference:factory"),
    ("/path/to/crescent-js/", f"{CRESCENT_JS}/"),
    (" implementations/", f" {ROOT}/implementations/"),
    (" docs/skeletons/", f" {ROOT}/docs/skeletons/"),
    ("node bin/crescent-js.js", f"node {CRESCENT_JS}/bin/crescent-js.js"),
]
SHRINK = [
    (re.compile(r"--games \d+"), "--games 4"),
    (re.compile(r"(fuzz .*)--seconds \d+"), r"\1--seconds 2"),
    (re.compile(r"--crescent-fuzz=\d+"), "--crescent-fuzz=3"),
    (re.compile(r"--crescent-fuzz-seconds=\d+"), "--crescent-fuzz-seconds=3"),
    (re.compile(r" -n \d+"), " -n 2"),
    # perft through an adapter replays every path: depth 2 takes the same code path as 3 in a tenth of the requests
    # (tests/perft checks the counts to depth 3 and beyond in process)
    (re.compile(r"--max-depth [3-9]"), "--max-depth 2"),
    (re.compile(r'(crescent-conformance perft --cmd "[^"]*")(?!.*--max-depth)'), r"\1 --max-depth 2"),
    # every message checked against the schema costs ~4 ms (jsonschema): the app profile and its variants, every rule
    # area, 212 of the 758 runs (tests/js plays the whole corpus over stdio with crescent-js unchecked)
    (re.compile(r"--crescent-validate-protocol(?!.*--crescent-profile)"), r"\g<0> --crescent-profile=app"),
]
# Over five seconds on a quiet machine: a whole-corpus run or perft, fuzzing, pytest collecting the corpus, impact
# (the corpus at two revisions).
SLOW = re.compile(r"crescent-conformance (run(?!.*--id)|perft|fuzz|impact)|pytest |^(go build|javac|mcs) ")
SKELETON_SMOKES = (
    'crescent-conformance smoke --cmd "python3 docs/skeletons/skeleton_adapter.py"',
    "go build -o my-adapter docs/skeletons/skeleton_adapter.go && crescent-conformance smoke --cmd ./my-adapter",
    "javac -d my-adapter-java docs/skeletons/SkeletonAdapter.java && "
    'crescent-conformance smoke --cmd "java -cp my-adapter-java SkeletonAdapter"',
    "mcs -out:my-adapter.exe docs/skeletons/SkeletonAdapter.cs && "
    'crescent-conformance smoke --cmd "mono my-adapter.exe"',
)
# A command that exits other than 0 when it works as the page says: (its exit code, why).
EXIT = {smoke: (1, "a skeleton as shipped skips what it does not implement") for smoke in SKELETON_SMOKES}
NEEDS = {"node ": "node", "go build": "go", "javac ": "javac", "mcs ": "mcs"}
NOT_RUN = {
    "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/python -m pytest -q -n auto tests": (
        "the kit's own suite: .ci/run runs it (test_ci_runs_the_readme_test_command)"
    ),
}
REPORTED = ("--id", "layout-005", "--id", "piles-001", "--id", "undo-007")  # the scratch folder's reports
INSTALL = re.compile(r"^python3 -m venv \.venv && \.venv/bin/pip install [^&]+ && \.venv/bin/")


@dataclass(frozen=True)
class Example:
    """One command printed in a document, with the output printed after it (transcripts only)."""

    file: Path
    line: int
    command: str
    output: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.file.relative_to(ROOT)}:{self.line}"


def examples(path: Path) -> Iterator[Example]:
    """The commands of ``sh`` blocks, one a line, and the first line of each ``crescent-ref`` transcript."""
    text = path.read_text(encoding="utf-8")
    for block in BLOCK.finditer(text):
        first = text.count("\n", 0, block.start(2)) + 1
        lines = block[2].rstrip("\n").split("\n")
        if block[1] == "sh":
            yield from (Example(path, first + n, line.strip()) for n, line in enumerate(lines) if line.strip())
        elif not block[1] and lines[0].startswith(TRANSCRIPT):
            yield Example(path, first, lines[0], tuple(lines[1:]))


ALL = [example for path in DOCUMENTS for example in examples(path)]


def runnable(example: Example) -> str:
    """The command as it runs here: placeholders made real, budgets cut, an install step left out."""
    command = INSTALL.sub("", example.command)
    for old, new in SUBSTITUTE:
        command = command.replace(old, new)
    for pattern, replacement in SHRINK:
        command = pattern.sub(replacement, command)
    return command


def why_not(example: Example) -> str:
    """Why a command cannot run on this machine ('' when it can)."""
    if example.command in NOT_RUN:
        return NOT_RUN[example.command]
    for marker, tool in NEEDS.items():
        if marker in runnable(example) and shutil.which(tool) is None:
            return f"{tool} is not installed"
    if "--rev main" in example.command and not has_main():
        return "not a git checkout with a main branch"
    return ""


def has_main() -> bool:
    """The checkout is a git repository with a ``main`` revision (a clone of another branch has none)."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        return False
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "main^{commit}"], cwd=ROOT,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    return done.returncode == 0


def param(example: Example) -> object:
    marks = [pytest.mark.slow] if SLOW.search(example.command) else []
    if why_not(example):
        marks.append(pytest.mark.skip(reason=why_not(example)))
    return pytest.param(example, id=example.where, marks=marks)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with what the commands read: reports (one app run under every name the docs use), an allow
    list, two game logs, an expectations file and fuzz findings."""
    folder = tmp_path_factory.mktemp("docs-commands")
    env = shell_env()
    report = folder / "report.json"
    done = subprocess.run(
        ["crescent-conformance", "run", "-q", "--profile", "app", *REPORTED, "--report", str(report)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for name in ("last.json", "reference.json", "my-game.json", "other-game.json"):
        shutil.copy(report, folder / name)
    (folder / "known.txt").write_text("undo-007\n", encoding="utf-8")
    (folder / "logs").mkdir()
    for name, seed in (("session-17", 1), ("session-18", 2)):
        write_log(folder / "logs" / f"{name}.jsonl", random_log("app", "CR1-N-AAAAAAB", 40, seed=seed))
    (folder / "my-scenarios").mkdir()
    # findings/: what fuzz writes for a faulty engine (no King-Ace wrap), for "run --scenarios findings/"
    mutant = f"{sys.executable} {ROOT / 'tests' / 'conformance' / 'serve_mutant.py'} no_pile_wrap"
    found = subprocess.run(
        ["crescent-conformance", "fuzz", "--cmd", mutant, "--profile", "app", "--games", "5", "--out", "findings/"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert list((folder / "findings").glob("*.yaml")), found.stdout[-2000:] + found.stderr[-2000:]
    (folder / "crescent-expectations.yaml").write_text("deviations: {}\n", encoding="utf-8")
    return folder


def shell_env() -> dict[str, str]:
    """The environment of a documented command: the kit's venv first on PATH."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_readme_opens_with_the_two_commands() -> None:
    blocks = README.read_text(encoding="utf-8").split("```sh")[1:3]
    assert "crescent-conformance run" in blocks[0] and "pytest" in blocks[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m pytest -q -n auto tests" in ci and "-m pytest -q -n auto tests" in README.read_text(encoding="utf-8")


def test_the_documents_print_commands_and_each_exception_is_still_printed() -> None:
    printed = {example.command for example in ALL}
    assert len(ALL) > 40 and {path.name for path in DOCUMENTS} >= {"README.md", "writing-an-adapter.md"}
    assert set(NOT_RUN) | set(EXIT) <= printed, (set(NOT_RUN) | set(EXIT)) - printed


@pytest.mark.parametrize("example", [param(example) for example in ALL])
def test_a_documented_command_runs_as_written(example: Example, scratch: Path) -> None:
    command = runnable(example)
    done = subprocess.run(
        ["bash", "-c", command], cwd=scratch, env=shell_env(), capture_output=True, text=True, timeout=600,
        check=False,
    )  # fmt: skip
    shown = f"{example.where}: {command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == EXIT.get(example.command, (0, ""))[0], shown
    for printed in example.output:
        if printed.startswith(("answer:", "proof:")):  # the transcript's verdict, up to its "..."
            assert printed.split("...")[0] in done.stdout, shown


def test_the_adapter_guide_shows_the_handshake_of_the_current_protocol() -> None:
    guide = (ROOT / "docs" / "writing-an-adapter.md").read_text(encoding="utf-8").split("\n")
    sent = json.loads(next(line[2:] for line in guide if line.startswith('> {"cmd":"start"')))
    reply = json.loads(next(line[2:] for line in guide if line.startswith('< {"version"')))
    assert sent == {"cmd": "start", "version": PROTOCOL_VERSION} and reply["version"] in SPOKEN  # crescent-js speaks 2
    if shutil.which("node"):  # the reply shown is crescent-js's own
        talk = json.dumps(sent) + '\n{"cmd":"stop"}\n'
        done = subprocess.run(["node", str(CRESCENT_JS / "bin" / "crescent-js.js")], input=talk,
                              capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
        assert json.loads(done.stdout) == reply
