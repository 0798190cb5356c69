"""Speed of the solver: nodes per CPU second of two ways to run it, and the deals decided in time.

Each deal is solved by the portfolio (``crescent_ref.solver.solve``) within a fixed node budget and
no time limit, once each way, the two one after the other in the same process (a pair), for
``--rounds`` rounds. The ways (``--before``, ``--after``): ``python`` (the pure-Python core),
``python-loop`` (the compiled core's primitives under search.py's Python loop) and ``compiled``
(the compiled core with its own loop, ``Core.search``). The two runs of a pair must agree on the
verdict, the nodes, the searches and the line (the script fails otherwise: every way expands the
same positions). Per deal it prints the median nodes per CPU second of each and the median of the
pairs' ratios; the last line is the median ratio over every pair, with the load average, since
other processes share the machine (CPU seconds do not count their time, but they share caches and
memory bandwidth).

``--before-tree DIR`` runs the first way from another checkout of the kit instead (a child process
with DIR first on the path, its compiled core built there: ``git archive COMMIT | tar -x -C DIR``),
to compare against an earlier commit; the pairs then need not expand the same positions, and the
rates are of each run's own nodes.

``--decided FILE`` measures instead the share of deals decided: the first ``--deals`` codes that
the win-rate run FILE (benchmarks/results/winrate-*.json.gz) left unknown, solved again at
``--seconds`` CPU seconds each in this process, the way ``--after`` (the verdicts recorded in FILE
are the "before").

    python benchmarks/bench_solver.py                      # 4 base profiles x 3 deals, 30,000 nodes
    python benchmarks/bench_solver.py --nodes 100000 --rounds 3 --profile app --before python
    python benchmarks/bench_solver.py --decided benchmarks/results/winrate-app-10s-compiled.json.gz --deals 40
    python benchmarks/bench_solver.py --control 100 --against benchmarks/results/winrate-app-10s-loop.json.gz

``--control N`` solves the first N codes of the win-rate list instead (the easy deals must stay won),
against the verdicts and CPU seconds of an earlier run. Both modes replay every winning line.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from crescent_ref.game import Game
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast, orders, search
from crescent_ref.solver.search import Answer, Budget, replay, solve

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949")
CODES = ("CR1-N-BAAAAAA", "CR1-N-AAEJFOT", "CR1-N-AADXHSR")  # an easy win and two hard deals


WAYS = ("python", "python-loop", "compiled")


def solve_on(way: str, profile: str, code: str, nodes: int, seconds: float = 1e9) -> Answer:
    """One solve the way ``way`` (WAYS)."""
    loop, fast.LOOP = fast.LOOP, way == fast.COMPILED
    try:
        return solve(Game.deal(profile, code), Budget(nodes=nodes, seconds=seconds),
                     core=fast.PYTHON if way == fast.PYTHON else fast.COMPILED)
    finally:
        fast.LOOP = loop


def checked(profile: str, code: str, answer: Answer) -> Answer:
    """``answer``, once its winning line (if any) has replayed to ``won`` on a fresh game (else exit 1)."""
    if answer.verdict == "winnable" and replay(Game.deal(profile, code), answer.line) != "won":
        raise SystemExit(f"bench_solver: {profile} {code}: the winning line does not replay to won")
    return answer


def rate(answer: Answer) -> float:
    return answer.nodes / max(answer.seconds, 1e-9)


def same(a: Answer, b: Answer) -> bool:
    return (a.verdict, a.nodes, a.searches, a.line) == (b.verdict, b.nodes, b.searches, b.line)


CHILD = """
import json, sys
from crescent_ref.game import Game
from crescent_ref.solver.search import Budget, solve
a = solve(Game.deal(sys.argv[1], sys.argv[2]), Budget(nodes=int(sys.argv[3]), seconds=1e9), core=sys.argv[4])
print(json.dumps([a.verdict, a.nodes, a.seconds, a.searches]))
"""


def solve_in(tree: Path, way: str, profile: str, code: str, nodes: int) -> Answer:
    """One solve by the kit in ``tree``, in a child process (``python-loop`` there: its compiled core)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    core = fast.PYTHON if way == fast.PYTHON else fast.COMPILED
    out = subprocess.run([sys.executable, "-c", CHILD, profile, code, str(nodes), core], env=env, cwd=tree,
                         capture_output=True, text=True, check=True).stdout
    verdict, made, seconds, searches = json.loads(out)
    return Answer(verdict, nodes=made, seconds=seconds, searches=searches)


def pairs(ways: tuple[str, str], profile: str, code: str, nodes: int, rounds: int,
          tree: Path | None = None) -> Iterator[tuple[Answer, Answer]]:
    """``rounds`` pairs (before, after), the order inside a pair alternating; the before way from
    ``tree`` when given."""
    def first() -> Answer:
        if tree is None:
            return solve_on(ways[0], profile, code, nodes)
        return solve_in(tree, ways[0], profile, code, nodes)

    for i in range(rounds):
        if i % 2:
            after = solve_on(ways[1], profile, code, nodes)
            before = first()
        else:
            before = first()
            after = solve_on(ways[1], profile, code, nodes)
        yield before, after


HALVES = ("all", "train", "held")  # every unknown; the even places (0, 2, ...); the odd ones (bench_orders.py)


def unknowns(path: Path, count: int, half: str = "all") -> list[tuple[str, str]]:
    """The first ``count`` (profile, code) pairs that the win-rate run at ``path`` left unknown, of
    ``half`` of them (HALVES: the training half chooses a schedule, the held-out half reports it)."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as f:
        entries = json.load(f)["results"]
    found = [(e["profile"], e["code"]) for e in entries if e["verdict"] == "unknown"]
    return (found if half == "all" else found[HALVES.index(half) - 1::2])[:count]


def recorded(path: Path) -> dict[tuple[str, str], int]:
    """The nodes the win-rate run at ``path`` spent on each (profile, code) it left unknown."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as f:
        entries = json.load(f)["results"]
    return {(e["profile"], e["code"]): e["nodes"] for e in entries if e["verdict"] == "unknown"}


_SEEN: dict[str, tuple[int, int, int, int, int]] = {}


def decider(profile: str) -> str:
    """What onesuit.c did since the last call (questions, decided, positions; those that ran out of their budget
    and their positions), when it is on."""
    core = fast.core_for(get_profile(profile), fast.COMPILED)
    if not search.SUIT_DECIDE_NODES or core is None:
        return ""
    now = core.onesuit_counts()
    before = _SEEN.get(profile, (0, 0, 0, 0, 0))
    _SEEN[profile] = now
    calls, done, made, spent, wasted = (a - b for a, b in zip(now, before, strict=True))
    return f"  onesuit {calls:,} asked, {done:,} decided, {made:,} positions ({spent:,} ran out, in {wasted:,})"


def decided(path: Path, count: int, seconds: float, way: str, half: str = "all", skip: int = 0) -> int:
    """Solve the unknowns of ``path`` (``half`` of them, the first ``skip`` left out) again at
    ``seconds`` each; print each answer and the share decided."""
    found = unknowns(path, skip + count, half)[skip:]
    if not found:
        print(f"bench_solver: {path} has no unknown deals", file=sys.stderr)
        return 2
    won = proved = 0
    spent, began = 0.0, time.monotonic()
    for n, (profile, code) in enumerate(found, 1):
        answer = checked(profile, code, solve_on(way, profile, code, 50_000_000, seconds))
        won += answer.verdict == "winnable"
        proved += answer.verdict == "not winnable"
        spent += answer.seconds
        print(f"{n:>3} {profile:<15} {code:<14} {answer.verdict:<13} {answer.nodes:>10,} nodes "
              f"{answer.seconds:>6.2f} s {rate(answer):>10,.0f} n/s  stored {answer.stored:,}{decider(profile)}",
              flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"suit decide nodes {search.SUIT_DECIDE_NODES:,}, counted {search.SUIT_DECIDE_COUNTED},"
          f" with the wrap {search.SUIT_DECIDE_WRAP}")
    print(f"{path.name}: {len(found)} deals unknown there, decided now {won + proved} ({won} won, {proved} proved "
          f"not winnable) = {100 * (won + proved) / len(found):.1f} %, at {seconds:g} CPU s each, way {way}; "
          f"{spent:.0f} CPU s in {time.monotonic() - began:.0f} s; half {half}; spread {orders.SPREAD}; "
          f"load average {load}")
    return 0


def control(profile: str, count: int, seconds: float, way: str, against: Path | None, late: bool = False) -> int:
    """Solve the first ``count`` codes of the win-rate list (winrate.py's seed) at ``seconds`` each:
    the easy deals must stay won. With ``against`` (a win-rate run), count the codes won there and
    not now, and the other way round, and that run's CPU seconds for the same codes; with ``late``,
    the codes are instead the first ``count`` that ``against`` won after its first round of
    restarts (the wins a change of the later rounds could lose)."""
    from winrate import codes

    earlier: dict[str, tuple[str, float]] = {}  # code: (verdict, CPU seconds) in ``against``
    chosen = codes(count)
    if against is not None:
        with gzip.open(against, "rt", encoding="utf-8") as f:
            entries = [e for e in json.load(f)["results"] if e["profile"] == profile]
        earlier = {e["code"]: (e["verdict"], e["seconds"]) for e in entries}
        if late:
            chosen = [e["code"] for e in entries
                      if e["verdict"] == "winnable" and e["searches"] > len(orders.PORTFOLIO)][:count]
    won, spent, before = 0, 0.0, 0.0
    lost_now: list[str] = []
    new_now: list[str] = []
    for n, code in enumerate(chosen, 1):
        answer = checked(profile, code, solve_on(way, profile, code, 50_000_000, seconds))
        won += answer.verdict == "winnable"
        spent += answer.seconds
        verdict, then = earlier.get(code, ("-", 0.0))
        before += then
        if verdict == "winnable" and answer.verdict != "winnable":
            lost_now.append(code)
        if verdict not in ("winnable", "-") and answer.verdict == "winnable":
            new_now.append(code)
        print(f"{n:>3} {profile:<15} {code:<14} {answer.verdict:<13} {answer.nodes:>10,} nodes "
              f"{answer.seconds:>6.2f} s (then {verdict}, {then:.2f} s)", flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    which = "codes won late then" if late else "codes"
    print(f"suit decide nodes {search.SUIT_DECIDE_NODES:,}, counted {search.SUIT_DECIDE_COUNTED},"
          f" with the wrap {search.SUIT_DECIDE_WRAP}")
    print(f"control: {len(chosen)} {which} in {profile} at {seconds:g} CPU s: {won} won, {spent:.1f} CPU s "
          f"(then {before:.1f} s); won then and not now: {lost_now or 'none'}; won now only: {new_now or 'none'}; "
          f"spread {orders.SPREAD}; load average {load}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="append", help=f"profile (repeatable; default {', '.join(PROFILES)})")
    parser.add_argument("--code", action="append", help=f"deal (repeatable; default {', '.join(CODES)})")
    parser.add_argument("--nodes", type=int, default=30_000, help="node budget of each solve (default 30,000)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs per deal (default 3)")
    parser.add_argument("--before", choices=WAYS, default="python-loop", help="the first way (default python-loop)")
    parser.add_argument("--after", choices=WAYS, default="compiled", help="the second way (default compiled)")
    parser.add_argument("--before-tree", type=Path, metavar="DIR", help="the first way from the kit in DIR")
    parser.add_argument("--decided", type=Path, metavar="FILE", help="a win-rate run's results: its unknowns again")
    parser.add_argument("--deals", type=int, default=40, help="with --decided: how many unknowns (default 40)")
    parser.add_argument("--seconds", type=float, default=10.0, help="with --decided: CPU s a deal (default 10)")
    parser.add_argument("--half", choices=HALVES, default="all", help="with --decided: which unknowns (default all)")
    parser.add_argument("--skip", type=int, default=0, help="with --decided: leave out the first N of them")
    parser.add_argument("--suit-decide", type=int, metavar="N", help="search.SUIT_DECIDE_NODES: one-suit "
                        "positions decided by onesuit.c within N positions, in every profile (0: the general search)")
    parser.add_argument("--suit-counted", action="store_true", help="with --suit-decide: onesuit.c's "
                        "positions count as the solve's nodes (the restarts' slices; search.SUIT_DECIDE_COUNTED)")
    parser.add_argument("--spread", type=int, help="the restarts' tie-break spread (default orders.SPREAD)")
    parser.add_argument("--control", type=int, metavar="N", help="the first N codes of the win-rate list instead "
                        "(the first --profile, default app), compared with --against FILE's verdicts")
    parser.add_argument("--against", type=Path, metavar="FILE", help="with --control: a win-rate run's results")
    parser.add_argument("--late", action="store_true", help="with --control and --against: the codes it won after "
                        "its first round of restarts instead")
    args = parser.parse_args(argv)
    why = fast.refusal(get_profile("app"))
    if why:
        print(f"bench_solver: {why}", file=sys.stderr)
        return 2
    if args.spread is not None:
        orders.SPREAD = args.spread
    if args.suit_decide is not None:
        search.SUIT_DECIDE_NODES, search.SUIT_DECIDE_COUNTED = args.suit_decide, args.suit_counted
        search.SUIT_DECIDE_WRAP = True  # in every profile, the wrap's too
    if args.control is not None:
        return control((args.profile or ["app"])[0], args.control, args.seconds, args.after, args.against, args.late)
    if args.decided is not None:
        return decided(args.decided, args.deals, args.seconds, args.after, args.half, args.skip)
    ways = (args.before, args.after)
    label = args.before if args.before_tree is None else f"{args.before_tree.name}:{args.before}"
    ratios: list[float] = []
    print(f"{'profile':<15} {'deal':<14} {'verdict':<9} {'nodes':>8} {label + ' n/s':>16} "
          f"{args.after + ' n/s':>16} {'ratio':>6}")
    for profile in args.profile or PROFILES:
        for code in args.code or CODES:
            found = list(pairs(ways, profile, code, args.nodes, args.rounds, args.before_tree))
            if args.before_tree is None and not all(same(p, c) for p, c in found):
                print(f"bench_solver: {profile} {code}: {ways[0]} and {ways[1]} disagree", file=sys.stderr)
                return 1
            mine = [rate(c) / rate(p) for p, c in found]
            ratios += mine
            first, nodes = found[0][1], f"{found[0][0].nodes}/{found[0][1].nodes}" if args.before_tree else ""
            print(f"{profile:<15} {code:<14} {first.verdict:<9} {nodes or first.nodes:>8} "
                  f"{statistics.median(rate(p) for p, _ in found):>16,.0f} "
                  f"{statistics.median(rate(c) for _, c in found):>16,.0f} {statistics.median(mine):>6.2f}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median ratio {args.after}/{label} over {len(ratios)} pairs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}); load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
