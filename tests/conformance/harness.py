"""Shared helpers of the runner's tests: the corpus, runs, the reference's verdicts, the fake engine."""

from __future__ import annotations

import functools
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from conformance.adapter import Adapter
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.session import plan
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import Result, run_scenario

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fakes" / "fake_engine.py"
SPY = HERE / "fakes" / "pipe_spy.py"  # keeps a copy of every line between the runner and an adapter
PYTHON = shlex.quote(sys.executable)
SERVE = f"{PYTHON} -m crescent_ref.serve"

Pair = tuple[Scenario, str]


@functools.cache
def corpus() -> tuple[Scenario, ...]:
    """The shipped corpus, loaded once per process."""
    return tuple(load_corpus())


def pairs() -> list[Pair]:
    """Every scenario-profile pair of the corpus, in corpus order."""
    return plan(corpus())


def key(pair: Pair) -> str:
    """``id[profile]``, as Result.key writes it."""
    return f"{pair[0].id}[{pair[1]}]"


def run_pairs(adapter: Adapter, chosen: Iterable[Pair]) -> dict[str, Result]:
    """Run the pairs in order on one adapter (closed afterwards); results by key."""
    try:
        info = adapter.info()
        return {key(p): run_scenario(adapter, info, *p) for p in chosen}
    finally:
        adapter.close()


@functools.cache
def reference_results() -> dict[str, Result]:
    """The reference engine's result on every pair (in-process)."""
    return run_pairs(ReferenceAdapter(), pairs())


def passing_pairs() -> list[Pair]:
    """The pairs the reference engine passes."""
    results = reference_results()
    return [p for p in pairs() if results[key(p)].verdict == "passed"]


def fake_command(mode: str, nth: int, flag: Path) -> str:
    """The command line of the fake engine with one fault (see fakes/fake_engine.py)."""
    return f"{PYTHON} {shlex.quote(str(FAKE))} {mode} {nth} {shlex.quote(str(flag))}"


def item_name(pair: Pair) -> str:
    """The pytest node id the plugin gives a pair."""
    return f"crescent/{Path(pair[0].file).name}::{key(pair)}"


def keywords(pair: Pair) -> set[str]:
    """The names ``-k`` matches for a pair's item: its name, its file, its area marker."""
    sc = pair[0]
    return {key(pair), Path(sc.file).name, sc.area.replace("-", "_"), "crescent"}


@functools.cache
def distinct_ids() -> tuple[str, ...]:
    """Ids of passing scenarios that ``-k`` selects alone (no other item's keyword contains them)."""
    names = {k for p in pairs() for k in keywords(p)}
    chosen: dict[str, None] = {}
    for sc, _ in passing_pairs():
        if not any(sc.id in n and not n.startswith(sc.id + "[") for n in names):
            chosen[sc.id] = None
    return tuple(chosen)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not count)."""
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (ProcessLookupError, FileNotFoundError, PermissionError):
        return False
    return state not in ("Z", "X")


def lingers(pid: int, within: float = 5.0) -> bool:
    """Whether a process still runs after ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not alive(pid):
            return False
        time.sleep(0.05)
    return True


def fake_pids(flag: Path) -> list[int]:
    """Every process of the fake engine run with ``flag``: its starts, and the grandchild of ``orphan``."""
    found = [Path(str(flag) + ".starts"), Path(str(flag) + ".orphan")]
    return [int(n) for f in found if f.exists() for n in f.read_text().split()]


def cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``crescent-conformance ARGS`` in a child process (its exit code, its output)."""
    code = "import sys; from conformance.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout)
