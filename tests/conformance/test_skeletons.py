"""The adapter skeletons of docs/skeletons run as shipped: over stdio they answer the handshake of protocol
3, load a position (a starting-position scenario passes), skip what they do not implement, send only the state
a request asks for (state on demand) and answer batches, every line within the protocol schema; smoke says
what next.

The Go, Java and C# skeletons are built first (go build, javac, mcs) into a temporary folder, so that
the handshake does not wait for a compiler; each is skipped, saying which tool is missing, when its
toolchain is not installed (.ci/run installs Debian's golang-go and mono-mcs; Java 17 is javac).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import SPY, corpus

from conformance.adapter import BATCH, STATE_ON_DEMAND
from conformance.adapters.lines import schema_problem
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


OFFERED = ["move-count", "reshuffle-count", STATE_ON_DEMAND, BATCH]  # as every skeleton's handshake lists them
DECLARED = frozenset(OFFERED)
# the state fields a skeleton reports (no undo, no selection: it declares neither)
REPORTED = frozenset({"piles", "hidden", "foundations", "held", "reshuffles", "moves", "status", "foundation_cards"})
REPLY_SCHEMA = {"new_game": "new-game-reply", "act": "act-reply", "batch": "batch-reply"}


def hello(language: str) -> dict[str, Any]:
    """The handshake reply every skeleton sends, as spec/protocol.md writes it for version 3."""
    who = {"name": "my-crescent", "version": "0.0.1", "language": language, "profiles": ["app"]}
    return {"version": 3, "implementation": {**who, "capabilities": OFFERED}}


LANGUAGES = [
    language_param("python", ()),
    language_param("javascript", ("node",)),
    *(language_param(language, tools) for language, (tools, _, _) in BUILT.items()),
]


# checked: the position (six fields and two more), no state, two fields; reasons-014 fails (the skeleton's status is
# always playing, the position is won) and is played again asking for whole states
LEAN = {"layout-005": "passed", "piles-001": "skipped", "end-of-game-003": "skipped", "reasons-014": "failed"}


def scenario(wanted: str) -> Scenario:
    return next(sc for sc in corpus() if sc.id == wanted)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skeleton_answers_the_handshake_and_runs_scenarios(language: str, build_dir: Path) -> None:
    adapter = StdioAdapter(command_for(language, build_dir), timeout=30, validate=True)
    try:
        info = adapter.info()
        # version 3: the two counters are declared (read off the position), lost is not (status is always playing)
        assert (info.name, info.profiles, info.capabilities) == ("my-crescent", ("app",), DECLARED)
        assert info.language == language
        given_only = run_scenario(adapter, info, scenario("layout-005"), "app")
        assert given_only.verdict == "passed", given_only.detail or given_only.failure
        with_steps = run_scenario(adapter, info, scenario("piles-001"), "app")
        assert with_steps.verdict == "skipped" and "YOUR ENGINE HERE" in with_steps.detail
    finally:
        adapter.close()


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def exchanges(sent: list[dict[str, Any]], replied: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each new_game and act request with its reply (a batch's requests with its replies), paired by seq."""
    by_seq = {reply["seq"]: reply for reply in replied if "seq" in reply}
    pairs = []
    for request in (r for r in sent if "seq" in r and r["seq"] in by_seq):
        reply = by_seq[request["seq"]]
        if request["cmd"] == "batch":
            pairs += list(zip(request["requests"], reply["result"]["replies"], strict=True))
        else:
            pairs.append((request, reply))
    return pairs


def schema_problems(sent: list[dict[str, Any]], replied: list[dict[str, Any]]) -> list[str]:
    """What in the replies breaks spec/schema/protocol.schema.json (a batch's replies each checked as a reply)."""
    problems = [schema_problem("start-reply", replied[0])]
    cmds = {request["seq"]: request["cmd"] for request in sent if "seq" in request}
    problems += [schema_problem(REPLY_SCHEMA[cmds[reply["seq"]]], reply) for reply in replied[1:]]
    inner = [(request, reply) for request, reply in exchanges(sent, replied) if "seq" not in reply]
    problems += [schema_problem(REPLY_SCHEMA[request["cmd"]], {"seq": 0, **reply}) for request, reply in inner]
    return [problem for problem in problems if problem]


def test_the_schema_takes_part_of_a_state_and_still_types_each_field() -> None:
    asked = {"seq": 7, "result": {"accepted": True, "reason": None, "state": {"status": "playing", "moves": 1}}}
    assert schema_problem("act-reply", asked) is None  # spec/protocol.md's own example
    assert schema_problem("new-game-reply", {"seq": 1, "result": {}}) is None  # "state": [] asked for none
    for wrong in ({"moves": -1}, {"status": "over"}, {"piles": [["Z♠"]]}, {"score": 3}):
        assert schema_problem("act-reply", {"seq": 7, "result": {"accepted": True, "state": wrong}}), wrong


def state_asked_and_sent(request: dict[str, Any], reply: dict[str, Any]) -> tuple[str, frozenset[str] | None]:
    """What the runner asked for ('whole', 'none' or 'some') and the state fields the reply held (None: none)."""
    asked = request.get("state")
    kind = "whole" if asked is None else "some" if asked else "none"
    state = reply["result"].get("state")
    return kind, None if state is None else frozenset(state)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_runner_asks_a_skeleton_only_for_the_state_a_step_checks(
    language: str, build_dir: Path, tmp_path: Path
) -> None:
    spied = f"{shlex.quote(sys.executable)} {shlex.quote(str(SPY))} {shlex.quote(str(tmp_path))} "
    adapter = StdioAdapter(spied + command_for(language, build_dir), timeout=30)
    try:
        info = adapter.info()
        verdicts = {wanted: run_scenario(adapter, info, scenario(wanted), "app").verdict for wanted in LEAN}
    finally:
        adapter.close()
    assert verdicts == LEAN
    sent, replied = lines_of(tmp_path / "sent"), lines_of(tmp_path / "replied")
    assert sent[0] == {"cmd": "start", "version": 3} and replied[0] == hello(language)
    assert any(request.get("cmd") == "batch" for request in sent)  # batch declared: a scenario's requests in one
    assert schema_problems(sent, replied) == []
    kinds = set()
    for request, reply in exchanges(sent, replied):
        if "result" in reply:
            kind, fields = state_asked_and_sent(request, reply)
            kinds.add(kind)
            if kind == "whole":
                assert fields == REPORTED, request
            elif kind == "none":
                assert fields is None, (request, reply)  # the state left out
            else:  # more would be allowed, but a skeleton sends exactly what was asked (of what it reports)
                assert fields == frozenset(request["state"]) & REPORTED, (request, reply)
    assert kinds == {"whole", "none", "some"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skeleton_passes_the_protocol_validation_run(language: str, build_dir: Path, tmp_path: Path) -> None:
    """``run --validate-protocol`` over the app profile: every message the skeleton sends is checked against the
    schema, and none breaks it (a break errors the scenario)."""
    report = tmp_path / "report.json"
    command = command_for(language, build_dir)
    conformance_main(["run", "--validate-protocol", "--profile", "app", "--cmd", command, "--report", str(report)])
    results = json.loads(report.read_text("utf-8"))["results"]
    errored = [f"{r['id']}[{r['profile']}]: {r['detail']}" for r in results if r["verdict"] == "errored"]
    assert errored == []
    assert {"layout-005", "worked-example-002"} <= {r["id"] for r in results if r["verdict"] == "passed"}


def test_smoke_on_a_skeleton_reports_and_says_what_next(capsys: pytest.CaptureFixture[str]) -> None:
    command = command_for("python", SKELETONS)
    conformance_main(["smoke", "--cmd", command])
    out = capsys.readouterr().out
    assert "handshake: my-crescent 0.0.1" in out and "passed   layout-005[app]" in out
    assert f'next: crescent-conformance run --cmd "{command}" --report report.json' in out
