"""Win rates of Crescent: the exact solver on a fixed list of game codes, per profile.

Each code is dealt in each profile (closed deals are solved with every card known: "thoughtful")
and solved within a budget; the answer is winnable, not winnable (the search space exhausted) or
unknown (budget spent). Unknowns are counted and reported, never dropped. For each profile the
script prints the shares with a 95% Wilson interval, the median and largest CPU seconds per solve
(the budget counts CPU seconds too, so other processes on the machine do not shrink it),
the node rate, the budget, the machine (nproc, load average) and the elapsed time.

The codes: ``CR1-N-`` plus the seed ``i * 104729 mod 26**7`` for i = 1, 2, ... (a fixed list,
the same on every machine); ``--codes`` names other codes.

The solves run through Dask (``crescent_ref.solver.campaign``): a local cluster of ``--jobs N``
worker processes, one solve each at a time, or the workers of a running scheduler given with
``--scheduler tcp://host:8786``. Results go to a JSON file (default benchmarks/results/winrate.json;
a name ending ``.gz`` is gzipped), rewritten after every answer through a temporary file; running
again with the same file resumes: solved (profile, code) pairs are kept, and only the missing ones
are solved.

    nice -n 19 python benchmarks/winrate.py --count 1000 --seconds 10 --profiles app open
    python benchmarks/winrate.py --report              # print the tables of the JSON file
    python benchmarks/winrate.py --markdown A.json.gz B.json.gz   # the docs' table
    python benchmarks/winrate.py --svg docs/solver-budget.svg A.json.gz B.json.gz   # the docs' plot
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import budget_plot

from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.solver import Budget
from crescent_ref.solver.campaign import CampaignUnavailable, Cluster, SolveTask, results, solve_record

DEFAULT_PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949", "app+four", "app+closed")
DEFAULT_OUT = Path(__file__).parent / "results" / "winrate.json"
STEP = 104729


def codes(count: int) -> list[str]:
    """The fixed list: seeds ``i * STEP mod 26**7`` for i = 1..count."""
    return [str(GameCode(i * STEP % (MAX_SEED + 1))) for i in range(1, count + 1)]


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``hits / n``, in percent."""
    if n == 0:
        return 0.0, 100.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, 100 * (centre - half)), min(100.0, 100 * (centre + half))


def load(path: Path) -> dict[str, Any]:
    """The results so far (a ``.gz`` name is read through gzip), or none."""
    if path.exists():
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        data: dict[str, Any] = json.loads(raw)
        return data
    return {"results": []}


def save(path: Path, data: dict[str, Any]) -> None:
    """Write through a temporary file (gzip for a ``.gz`` name), so a stop never leaves half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode()
    temp = path.with_name(path.name + ".tmp")
    temp.write_bytes(gzip.compress(raw, mtime=0) if path.suffix == ".gz" else raw)
    temp.replace(path)


def save_text(path: Path, text: str) -> None:
    """Write a text file through a temporary file."""
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of at least 1: {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Solve the missing (profile, code) pairs on the cluster, saving each answer as it comes."""
    data = load(args.out)
    data["budget"] = {"seconds": args.seconds, "nodes": args.nodes}
    done = {(r["profile"], r["code"]) for r in data["results"]}
    todo = [SolveTask(p, c, args.seconds, args.nodes) for c in (args.codes or codes(args.count))
            for p in args.profiles if (p, c) not in done]
    cluster = Cluster(args.scheduler, args.jobs)
    for result in results(solve_record, todo, cluster, what="solving", unit="deal"):
        data["results"].append(result)
        data["machine"] = machine() | {"cluster": cluster.where()}
        save(args.out, data)
    return data


def machine() -> dict[str, Any]:
    """The machine at a save: cores, load, time, and the commit solving (when this is a git checkout)."""
    return {"nproc": os.cpu_count(), "load": [round(x, 2) for x in os.getloadavg()],
            "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "commit": commit()}


def commit() -> str:
    """The checkout's commit, or "" outside a git checkout."""
    try:
        done = subprocess.run(["git", "-C", str(Path(__file__).parent), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def table(data: dict[str, Any]) -> list[str]:
    """One line per profile: n, the three shares with intervals, seconds and node rate."""
    lines = [f"budget per deal: {data.get('budget')}; machine at last save: {data.get('machine')}",
             "profile          n   winnable % [95%]       not winnable % [95%]   unknown %  "
             "median s  (decided)  max s  nodes/s  peak MiB"]
    for profile, rows in by_profile(data).items():
        lines.append(row(profile, rows))
    return lines


def row(profile: str, rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("winnable", "not winnable", "unknown")}
    shares = []
    for verdict in ("winnable", "not winnable"):
        low, high = wilson(count[verdict], n)
        shares.append(f"{100 * count[verdict] / n:5.1f} [{low:4.1f}, {high:5.1f}]")
    secs = [r["seconds"] for r in rows]
    rate = sum(r["nodes"] for r in rows) / max(sum(secs), 1e-9)
    peak = max(r.get("maxrss_mib", 0) for r in rows)
    decided = [s for r, s in zip(rows, secs, strict=True) if r["verdict"] != "unknown"]
    median_decided = f"{statistics.median(decided):7.2f}" if decided else "      -"
    return (f"{profile:14} {n:5}  {shares[0]:22} {shares[1]:22} {100 * count['unknown'] / n:6.1f}   "
            f"{statistics.median(secs):7.2f} {median_decided}  {max(secs):6.1f} {rate:8.0f} {peak:8}")


def by_profile(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    by: dict[str, list[dict[str, Any]]] = {}
    for r in data["results"]:
        by.setdefault(r["profile"], []).append(r)
    return by


def markdown(files: list[Path]) -> list[str]:
    """The docs' table: one row per (file, profile), each share with its 95% Wilson interval."""
    lines = ["| profile | budget (CPU s) | deals | won % [95%] | not winnable % [95%] | unknown % [95%] | "
             "median s | median s (decided) | machine, date |", "|---|---|---|---|---|---|---|---|---|"]
    for path in files:
        data = load(path)
        for profile, rows in by_profile(data).items():
            lines.append(markdown_row(profile, data["budget"]["seconds"], rows, data.get("machine", {})))
    return lines


def markdown_row(profile: str, seconds: float, rows: list[dict[str, Any]], where: dict[str, Any]) -> str:
    n = len(rows)
    shares = []
    for verdict in ("winnable", "not winnable", "unknown"):
        hits = sum(r["verdict"] == verdict for r in rows)
        low, high = wilson(hits, n)
        shares.append(f"{100 * hits / n:.1f} [{low:.1f}, {high:.1f}]")
    secs = [r["seconds"] for r in rows]
    decided = [r["seconds"] for r in rows if r["verdict"] != "unknown"]
    machine = f"{where.get('nproc', '?')} cores, load {where.get('load', ['?'])[0]}, {where.get('at', '?')[:10]}"
    return (f"| `{profile}` | {seconds:g} | {n} | {' | '.join(shares)} | {statistics.median(secs):.2f} | "
            f"{statistics.median(decided) if decided else 0:.2f} | {machine} |")


def plot(files: list[Path]) -> str:
    """The SVG of decided % against the budget, one curve per (file, profile)."""
    curves = []
    for path in files:
        data = load(path)
        for profile, rows in by_profile(data).items():
            label = f"{profile} ({len(rows)})"
            curves.append(budget_plot.curve(label, data["budget"]["seconds"], rows))
    return budget_plot.svg(curves, "Crescent deals decided by the exact solver, against the time budget")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", nargs="+", default=list(DEFAULT_PROFILES))
    parser.add_argument("--count", type=int, default=100, help="codes from the fixed list")
    parser.add_argument("--codes", nargs="*", help="solve these codes instead of the fixed list")
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per deal")
    parser.add_argument("--nodes", type=int, default=Budget().nodes,
        help=f"node budget per deal (default {Budget().nodes:,}: with the compiled core the seconds run out first)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="resumable JSON results")
    parser.add_argument("--jobs", type=positive, default=1,
                        help="local cluster: solves at once, one worker process (one core) each")
    parser.add_argument("--scheduler", default="", metavar="ADDRESS",
                        help="a running Dask scheduler (tcp://host:8786) instead of a local cluster")
    parser.add_argument("--report", action="store_true", help="only print the tables of --out")
    parser.add_argument("--markdown", nargs="+", type=Path, help="print the docs' table of these result files")
    parser.add_argument("--svg", nargs="+", type=Path, metavar=("OUT", "FILE"),
                        help="write to OUT the plot of decided %% against the budget of these result files")
    args = parser.parse_args()
    if args.markdown:
        print("\n".join(markdown(args.markdown)))
        return
    if args.svg:
        if len(args.svg) < 2:
            parser.error("--svg needs an output file and at least one result file")
        save_text(args.svg[0], plot(args.svg[1:]))
        return
    started = time.monotonic()
    data = load(args.out) if args.report else run(args)
    print("\n".join(table(data)))
    if not args.report:
        print(f"elapsed {time.monotonic() - started:.0f} s; nproc {os.cpu_count()}; load {os.getloadavg()}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit("interrupted: the solves finished so far are saved; run again to resume") from None
    except CampaignUnavailable as error:
        raise SystemExit(str(error)) from None
