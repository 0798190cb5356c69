"""Check onesuit.c against the general one-suit search on collected positions (collect.py's file):
never a disagreement where both decide, every winnable line replayed to won; and the questions
decided and CPU per question, new against old. Usage: check.py FILE BUDGET [OLD_BUDGET [DUMP]]
(OLD_BUDGET: re-run the general search at that budget on the positions the old run left unknown)."""

from __future__ import annotations

import ast
import statistics
import sys
import time
from collections import Counter

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast
from crescent_ref.solver.search import Budget, Search

PROFILE = get_profile("hoffmann-1892")
core = fast.core_for(PROFILE, "compiled")
assert core is not None
path, budget = sys.argv[1], int(sys.argv[2])
old_budget = int(sys.argv[3]) if len(sys.argv) > 3 else 0
pairs: Counter[tuple[str, str]] = Counter()
old_cpu: list[float] = []
new_cpu: list[float] = []
new_nodes: list[int] = []
disagree = replayed = 0
dump_path = sys.argv[4] if len(sys.argv) > 4 else ""  # per question: old, its nodes and CPU, new, its nodes and CPU
dumped: list[str] = []
recheck: Counter[tuple[str, str]] = Counter()
with open(path) as rows:
    lines = rows.read().splitlines()
for row in lines:
    code, old, made, spent, text = row.split("\t")
    pos = Position.from_text(ast.literal_eval(text))
    began = time.process_time()
    new, nodes, line = core.onesuit(pos, budget)
    new_cpu.append(time.process_time() - began)
    old_cpu.append(float(spent))
    new_nodes.append(nodes)
    pairs[old, new] += 1
    dumped.append(f"{old}\t{made}\t{spent}\t{new}\t{nodes}\t{new_cpu[-1]:.6f}\n")
    if {old, new} == {"winnable", "not winnable"}:
        disagree += 1
        print("DISAGREE", code, old, new, text)
    if line is not None:
        game = Game(PROFILE, pos)
        for action in line:
            game.play(action)
        assert game.status() == "won", text
        replayed += 1
    if old == "unknown" and old_budget and new != "unknown":
        search = Search(PROFILE, Budget(nodes=old_budget, seconds=60), relax=False, core=core, reasons=False)
        again: str = search.run(pos).verdict
        recheck[again, new] += 1
        if {again, new} == {"winnable", "not winnable"}:
            disagree += 1
            print("DISAGREE-RECHECK", code, again, new, text)
total = sum(pairs.values())
print(f"{path}: {total} one-suit questions; new budget {budget:,} positions")
for (old, new), n in sorted(pairs.items()):
    print(f"  old {old:13} new {new:13} {n:7,}")
print(f"  disagreements where both decided: {disagree}; winning lines replayed to won: {replayed}")
if recheck:
    print(f"  old-unknown rechecked by the general search at {old_budget:,} nodes (its verdict, new):")
    for (again, new), n in sorted(recheck.items()):
        print(f"    general {again:13} new {new:13} {n:7,}")
dec_old = sum(n for (o, _), n in pairs.items() if o != "unknown")
dec_new = sum(n for (_, w), n in pairs.items() if w != "unknown")
print(f"  decided: old {dec_old:,} ({100 * dec_old / total:.2f} %), "
      f"new {dec_new:,} ({100 * dec_new / total:.2f} %)")
print(f"  CPU per question: old mean {1e3 * statistics.mean(old_cpu):.3f} ms, "
      f"median {1e3 * statistics.median(old_cpu):.3f} ms,"
      f" total {sum(old_cpu):.2f} s; new mean {1e3 * statistics.mean(new_cpu):.3f} ms, median"
      f" {1e3 * statistics.median(new_cpu):.3f} ms, total {sum(new_cpu):.2f} s, max {max(new_cpu):.3f} s")
print(f"  new positions generated: total {sum(new_nodes):,}, max {max(new_nodes):,}; "
      f"{sum(new_nodes) / max(sum(new_cpu), 1e-9):,.0f} a CPU second")
if dump_path:
    with open(dump_path, "w") as out:
        out.writelines(dumped)
