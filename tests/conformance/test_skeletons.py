"""The adapter skeletons of docs/skeletons run as shipped: over stdio they answer the handshake, load a
position (a starting-position scenario passes), skip what they do not implement, and smoke says what next.

The Go, Java and C# skeletons are built first (go build, javac, mcs) into a temporary folder, so that
the handshake does not wait for a compiler; each is skipped, saying which tool is missing, when its
toolchain is not installed (.ci/run installs Debian's golang-go and mono-mcs; Java 17 is javac).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import corpus

from conformance.adapter import COUNTERS
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main as conformance_main
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import run_scenario

SKELETONS = Path(__file__).resolve().parents[2] / "docs" / "skeletons"
# language -> (the tools it needs, the build command, the command that runs what was built); {src} is
# docs/skeletons and {out} the build folder
BUILT = {
    "go": (("go",), "go build -o {out}/skeleton {src}/skeleton_adapter.go", "{out}/skeleton"),
    "java": (("javac", "java"), "javac -d {out} {src}/SkeletonAdapter.java", "java -cp {out} SkeletonAdapter"),
    "csharp": (("mcs", "mono"), "mcs -out:{out}/skeleton.exe {src}/SkeletonAdapter.cs", "mono {out}/skeleton.exe"),
}


def missing(tools: tuple[str, ...]) -> str:
    """Why a skeleton cannot be built here ('' when it can)."""
    absent = [tool for tool in tools if shutil.which(tool) is None]
    return f"{', '.join(absent)} not installed" if absent else ""


def language_param(language: str, tools: tuple[str, ...]) -> Any:
    """A test parameter for one skeleton, skipped when its toolchain is absent."""
    return pytest.param(language, id=language, marks=pytest.mark.skipif(bool(missing(tools)), reason=missing(tools)))


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("skeletons")


def command_for(language: str, out: Path) -> str:
    """The command line of a skeleton: the interpreted ones as shipped, the compiled ones built into ``out``."""
    if language == "python":
        return f"{shlex.quote(sys.executable)} {SKELETONS / 'skeleton_adapter.py'}"
    if language == "javascript":
        return f"node {SKELETONS / 'skeleton-adapter.js'}"
    _, build, run = BUILT[language]
    folder = out / language
    if not folder.exists():
        folder.mkdir()
        words = [word.format(src=SKELETONS, out=folder) for word in build.split()]
        env = {"GOCACHE": str(out / "go-cache")} if "HOME" not in os.environ else {}  # go needs a cache
        done = subprocess.run(words, capture_output=True, text=True, timeout=300, check=False, env=os.environ | env)
        assert done.returncode == 0, f"{' '.join(words)}: {done.stderr[-2000:]}"
    run_words = [shlex.quote(word.format(out=folder)) for word in run.split()]
    return " ".join(run_words)


LANGUAGES = [
    language_param("python", ()),
    language_param("javascript", ("node",)),
    *(language_param(language, tools) for language, (tools, _, _) in BUILT.items()),
]


def scenario(wanted: str) -> Scenario:
    return next(sc for sc in corpus() if sc.id == wanted)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skeleton_answers_the_handshake_and_runs_scenarios(language: str, build_dir: Path) -> None:
    adapter = StdioAdapter(command_for(language, build_dir), timeout=30, validate=True)
    try:
        info = adapter.info()
        # the Python and JavaScript skeletons also offer the state on demand (spec/protocol.md); the others need not
        offers = frozenset({"state-on-demand"}) if language in ("python", "javascript") else frozenset()
        # every skeleton speaks version 2, under which the counters and lost are implied (spec/protocol.md)
        assert (info.name, info.profiles, info.capabilities) == ("my-crescent", ("app",), offers | set(COUNTERS))
        assert info.language == language
        given_only = run_scenario(adapter, info, scenario("layout-005"), "app")
        assert given_only.verdict == "passed", given_only.detail or given_only.failure
        with_steps = run_scenario(adapter, info, scenario("piles-001"), "app")
        assert with_steps.verdict == "skipped" and "YOUR ENGINE HERE" in with_steps.detail
    finally:
        adapter.close()


def test_smoke_on_a_skeleton_reports_and_says_what_next(capsys: pytest.CaptureFixture[str]) -> None:
    command = command_for("python", SKELETONS)
    conformance_main(["smoke", "--cmd", command])
    out = capsys.readouterr().out
    assert "handshake: my-crescent 0.0.1" in out and "passed   layout-005[app]" in out
    assert f'next: crescent-conformance run --cmd "{command}" --report report.json' in out
