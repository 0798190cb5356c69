"""Deals proved not winnable at the start: the solver's dead rule (crescent_ref/solver/dead.py)
read off each fresh deal of a fixed list of game codes, per profile.

A deal is proved not winnable here when a card on a pile is locked from the deal on: every card
it could go onto lies under it, out of reach of the reshuffles, and no foundation can take it
before they come up (dead.py); or, across piles, when some cards wait on each other (waits.py:
20,000 codes per profile read with it on 1 December 2026 found the same nine 1892 deals and
nothing more). Without the wrap (``hoffmann-1892``) that happens when a pile ends with both
copies of a Two (or Queen) under the loose Ace (or King) of their suit. With the wrap a loose Ace
or King has three neighbour copies and only two places lie out of reach under a pile's top card,
so no fresh deal is dead by the locked-card rule; a lock across two piles is about one deal in
750,000 (``start_waits.py``, the compiled ``waits`` alone, reads millions of codes).

The deals are read in runs of 500 codes through Dask (``crescent_ref.solver.campaign``: a local
cluster of ``--jobs`` processes, or ``--scheduler ADDRESS``); each run's finds are saved as they
come (default benchmarks/results/proved-deals.json.gz), and a rerun reads only the missing runs.

The codes are those of benchmarks/winrate.py (``CR1-N-`` plus ``i * 104729 mod 26**7``). Prints,
per profile, how many deals are proved, the share with a 95% Wilson interval (a lower bound on the
not-winnable share: other deals may be unwinnable for reasons this rule does not see), and the codes.

    python benchmarks/proved_deals.py --count 20000 --profiles hoffmann-1892 app
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from winrate import codes, load, positive, save, wilson

from crescent_ref.solver.campaign import CampaignUnavailable, Cluster, ScanTask, results, scan_record

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949")
DEFAULT_OUT = Path(__file__).parent / "results" / "proved-deals.json.gz"
CHUNK = 500  # codes per task: a deal is read in about a millisecond, a task should take longer


def scan(args: argparse.Namespace) -> dict[str, Any]:
    """Read the missing runs of codes on the cluster, saving each run's finds as they come."""
    data = load(args.out)
    done = {(r["profile"], r["first"], r["count"]) for r in data["results"]}
    listed = codes(args.count)
    todo = [ScanTask(p, i, tuple(listed[i:i + CHUNK])) for p in args.profiles for i in range(0, args.count, CHUNK)
            if (p, i, len(listed[i:i + CHUNK])) not in done]
    for result in results(scan_record, todo, Cluster(args.scheduler, args.jobs), what="reading", unit="run"):
        data["results"].append(result)
        save(args.out, data)
    return data


def report(data: dict[str, Any], profiles: list[str], count: int) -> list[str]:
    """Per profile: the deals proved among the first ``count`` codes, the share and the codes."""
    lines = []
    for profile in profiles:
        runs = [r for r in data["results"] if r["profile"] == profile and r["first"] + r["count"] <= count]
        found = [f for r in sorted(runs, key=lambda r: r["first"]) for f in r["found"]]
        seen = sum(r["count"] for r in runs)
        low, high = wilson(len(found), seen)
        lines.append(f"{profile}: {len(found)} of {seen} deals proved not winnable at the start "
                     f"({100 * len(found) / max(seen, 1):.3f} %, 95% interval [{low:.3f}, {high:.3f}])")
        lines += [f"  {code}: {why}" for code, why in found]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="codes from the fixed list")
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="resumable JSON results")
    parser.add_argument("--jobs", type=positive, default=1, help="local cluster: worker processes")
    parser.add_argument("--scheduler", default="", metavar="ADDRESS",
                        help="a running Dask scheduler (tcp://host:8786) instead of a local cluster")
    args = parser.parse_args()
    print("\n".join(report(scan(args), args.profiles, args.count)))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit("interrupted: the runs read so far are saved; run again to resume") from None
    except CampaignUnavailable as error:
        raise SystemExit(str(error)) from None
