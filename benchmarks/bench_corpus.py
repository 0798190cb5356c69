"""Benchmark: the whole corpus against the reference in-process, over stdio, and crescent-js over stdio.

Run: python benchmarks/bench_corpus.py [--repeat 3] [--no-js] [--full-state] [--ahead 1,4,16] [--instructions]

One paired run: each round plays the whole corpus once on every subject, one after the other in
this process, and measures the job's CPU time: this process (the runner, and the engine when it is
in process) plus the adapter process (reaped before the reading, so its time is in
RUSAGE_CHILDREN). Prints per subject the median CPU and wall seconds, the requests sent, the CPU
per request, and the ratio of each stdio subject's CPU to the in-process one (medians of the
rounds; a round's subjects run back to back, so load changes touch them alike). ``--full-state``
turns state on demand off (every reply carries the whole state, as version 2 adapters did).
The whole job (``crescent-conformance run -q`` in a child process, start-up and adapter included)
is measured in the same rounds. The reference is served by the documented ``crescent-ref serve`` (the
console script beside this Python; ``python -m crescent_ref.serve`` where there is none). Scenario
loading is timed separately, once. The load average is printed at the start and the end: report it
with the figures.

Child processes (the whole jobs, the reference's ``serve``) run with Python's bytecode cache on, as an
installed kit does (pip compiles the .pyc files at install): a ``PYTHONDONTWRITEBYTECODE`` in the
environment would make every process compile the kit's sources again, which no installed kit pays.
``--as-set`` keeps the environment as it is. ``--ahead 1,4,16`` adds, for the corpus's runs alone, the
reference over stdio with that many scenarios' requests sent ahead (conformance.judging.runner.AHEAD)
as subjects of their own, in the same rounds.

``--instructions`` counts instead the user-space instructions of the whole job in process and over stdio
with the reference (``valgrind --tool=cachegrind --cache-sim=no``, every process of the job): a figure
the machine's load does not move, for comparing two versions of the code where CPU seconds at load 6-10
scatter by +-30 %. It counts no kernel time and no cache misses, so it is a floor of the CPU ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from conformance.adapter import Adapter, Info
from conformance.adapters.session import make_adapter, plan
from conformance.adapters.stdio import StdioAdapter
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging import runner
from conformance.judging.runner import run_scenarios

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "implementations" / "crescent-js" / "bin" / "crescent-js.js"


@dataclass(frozen=True, slots=True)
class Run:
    """One subject's run of the whole corpus."""

    cpu: float
    wall: float
    requests: int
    passed: int


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _lean_off(info: Info) -> Info:
    return replace(info, capabilities=info.capabilities - {"state-on-demand"})


def run_all(pairs: list[tuple[Scenario, str]], cmd: str | None, full_state: bool, ahead: int | None = None) -> Run:
    """One full run, adapter start and stop included (``ahead``: scenarios sent ahead, else the runner's)."""
    runner.AHEAD, saved = ahead if ahead is not None else runner.AHEAD, runner.AHEAD
    try:
        return _run_all(pairs, cmd, full_state)
    finally:
        runner.AHEAD = saved


def _run_all(pairs: list[tuple[Scenario, str]], cmd: str | None, full_state: bool) -> Run:
    cpu, wall = _cpu(), time.perf_counter()
    adapter: Adapter = make_adapter("reference", cmd)
    info = adapter.info()
    if full_state:
        info = _lean_off(info)
    passed = sum(r.verdict == "passed" for r in run_scenarios(adapter, info, pairs))
    requests = adapter.calls if isinstance(adapter, StdioAdapter) else 0
    adapter.close()
    return Run(_cpu() - cpu, time.perf_counter() - wall, requests, passed)


KIT = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]


def whole_job(cmd: str | None) -> Run:
    """``crescent-conformance run -q`` in a child process: its CPU and its adapter's (start-up included)."""
    cpu, wall = _cpu(), time.perf_counter()
    argv = [*KIT, "run", "-q", *(["--cmd", cmd] if cmd else [])]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-500:]}")
    return Run(_cpu() - cpu, time.perf_counter() - wall, 0, int(done.stdout.split(": ")[-1].split()[0]))


def _counted(argv: list[str], stdin: Path | None = None) -> int:
    """The user-space instructions of one process running ``argv`` (valgrind's cachegrind, no cache model)."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "valgrind.log"
        tool = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        tool.append(f"--log-file={log}")
        with open(stdin or os.devnull, "rb") as given:
            done = subprocess.run([*tool, *argv], stdin=given, capture_output=True, text=True, check=False)
        found = _REFS.search(log.read_text())
        if done.returncode != 0 or found is None:
            raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stdout[-300:]}")
        return int(found.group(1).replace(",", ""))


_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def count_instructions() -> int:
    """Print the whole job's instructions in process and over stdio with the reference, and their ratio.

    The runner is counted with the reference served as usual while a ``tee`` keeps its requests; the
    server is then counted answering those same requests from a file (it ends at their ``stop``; counted
    under the runner it could be killed before valgrind wrote its count, as the runner ends an adapter
    that has not exited 2 s after ``stop``).
    """
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    reference = subjects(False)["stdio reference"]
    assert reference is not None
    job = [*KIT, "run", "-q", "--timeout", "600"]
    base = _counted(job)
    with tempfile.TemporaryDirectory() as folder:
        requests = Path(folder) / "requests.jsonl"
        teed = shlex.join(["sh", "-c", f"tee {shlex.quote(str(requests))} | {reference}"])
        runner_count = _counted([*job, "--cmd", teed])
        server_count = _counted(shlex.split(reference), stdin=requests)
    total = runner_count + server_count
    print(f"in-process {base / 1e6:,.0f} M instructions; stdio reference {runner_count / 1e6:,.0f} (runner) +"
          f" {server_count / 1e6:,.0f} (server) = {total / 1e6:,.0f} M: {total / base:.3f}x")  # fmt: skip
    return 0


def subjects(with_js: bool) -> dict[str, str | None]:
    """Subject name -> command line (None: in process)."""
    serve = Path(sys.executable).parent / "crescent-ref"  # the documented command, as installed
    reference = f"{serve} serve" if serve.exists() else f"{sys.executable} -m crescent_ref.serve"
    chosen: dict[str, str | None] = {"in-process": None, "stdio reference": reference}
    node = shutil.which("node")
    if with_js and node and (JS.parent.parent / "node_modules").exists():
        chosen["stdio crescent-js"] = f"{node} {JS}"
    elif with_js:
        print("crescent-js left out: node or implementations/crescent-js/node_modules missing (npm ci)")
    return chosen


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="rounds (each plays every subject once)")
    parser.add_argument("--no-js", action="store_true", help="leave crescent-js out")
    parser.add_argument("--full-state", action="store_true", help="state on demand off: whole state every reply")
    parser.add_argument("--as-set", action="store_true", help="keep PYTHONDONTWRITEBYTECODE if the environment sets it")
    parser.add_argument("--ahead", default="", help="scenario counts sent ahead (1,4,16), a subject each")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    args = parser.parse_args()
    aheads = [int(n) for n in args.ahead.split(",") if n.strip()]
    if not args.as_set and os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        print("PYTHONDONTWRITEBYTECODE unset for the child processes (bytecode cached as installed; --as-set keeps it)")
    if args.instructions:
        return count_instructions()
    began = time.perf_counter()
    pairs = plan(load_corpus())
    print(f"corpus: {len(pairs)} scenario-profile runs, loaded and validated in {time.perf_counter() - began:.3f}s")
    chosen = subjects(not args.no_js)
    runs: dict[str, list[Run]] = {name: [] for name in chosen}
    jobs: dict[str, list[Run]] = {name: [] for name in chosen}
    runs.update({f"reference ahead {n}": [] for n in aheads})
    for round_number in range(1, args.repeat + 1):
        for name, command in chosen.items():
            runs[name].append(run_all(pairs, command, args.full_state))
            if not args.full_state:
                jobs[name].append(whole_job(command))
        for n in aheads:
            runs[f"reference ahead {n}"].append(run_all(pairs, chosen["stdio reference"], args.full_state, n))
        print(f"round {round_number}/{args.repeat}: " + ", ".join(f"{n} {r[-1].cpu:.2f}s" for n, r in runs.items()),
              flush=True)
    if not args.full_state:
        print("whole job (crescent-conformance run -q, start-up and adapter included):")
        _print(jobs)
    print("the corpus's runs alone (in this process; adapter start and stop included):")
    _print(runs)
    print(f"load average: {_load()} at the start, {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in LOAD_AT_START)


LOAD_AT_START = os.getloadavg()


def _print(runs: dict[str, list[Run]]) -> None:
    """Per subject: median CPU and wall, the ratio of medians to in-process, and the median of the rounds'
    own ratios (each round's subjects ran back to back: the steadier figure when the load moves)."""
    base = statistics.median(r.cpu for r in runs["in-process"])
    for name, done in runs.items():
        cpu, wall = statistics.median(r.cpu for r in done), statistics.median(r.wall for r in done)
        paired = statistics.median(r.cpu / b.cpu for r, b in zip(done, runs["in-process"], strict=True))
        requests = done[-1].requests
        per = f", {cpu / requests * 1e6:.0f} us CPU a request ({requests} requests)" if requests else ""
        print(f"  {name:<20} CPU {cpu:.3f}s  wall {wall:.3f}s  {cpu / base:.2f}x in-process CPU"
              f" (rounds' median {paired:.2f}x)  ({done[-1].passed} passed){per}")


if __name__ == "__main__":
    raise SystemExit(main())
