"""Collect the one-suit positions (no reshuffle left) that real hoffmann-1892 solves ask the general
one-suit search about (the memo misses that reach Search.suit_verdict), with the old verdict and the
nodes and CPU seconds it took. Usage: collect.py OUT.txt SECONDS CODE...  (old search: SUIT_DECIDE_NODES 0)"""

from __future__ import annotations

import sys
import time

from crescent_ref.game import Game
from crescent_ref.solver import search
from crescent_ref.solver.search import Budget, Search, solve

out_path, seconds, codes = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
search.SUIT_DECIDE_NODES = 0
records: list[str] = []
original = Search.suit_verdict


def recording(self: Search, part):  # type: ignore[no-untyped-def]
    began = time.process_time()
    verdict, made = original(self, part)
    spent = time.process_time() - began
    if part.reshuffles == 0:
        records.append(f"{verdict}\t{made}\t{spent:.6f}\t{part.to_text()!r}")
    return verdict, made


Search.suit_verdict = recording  # type: ignore[method-assign]
with open(out_path, "w") as out:
    for code in codes:
        before = len(records)
        answer = solve(Game.deal("hoffmann-1892", code), Budget(seconds=seconds), core="compiled")
        for line in records[before:]:
            out.write(f"{code}\t{line}\n")
        print(code, answer.verdict, answer.nodes, f"{answer.seconds:.2f}", len(records) - before, flush=True)
