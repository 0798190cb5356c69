"""What the one-suit questions that run out of the decider's budget really are: each distinct question of
collect.py's file is asked at the solve's budget (30,000 positions), and those left unknown are asked again
at a far larger one. Prints how many are winnable, not winnable or still unknown, with the positions each
took and its cards. Usage: classify.py FILE [BIG_BUDGET]  (default 3,000,000)."""

from __future__ import annotations

import ast
import sys
import time
from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast

if TYPE_CHECKING:
    from crescent_ref.solver._core import Core

SOLVE_BUDGET = 30_000  # search.SUIT_DECIDE_NODES, the decider's budget in a solve


def unknown_at_solve_budget(core: Core, texts: list[str]) -> list[Position]:
    """The distinct questions the decider leaves unknown at SOLVE_BUDGET (each in a table of its own)."""
    found = []
    for text in dict.fromkeys(texts):
        pos = Position.from_text(ast.literal_eval(text))
        if core.onesuit(pos, SOLVE_BUDGET, True, object())[0] == "unknown":
            found.append(pos)
    return found


def main(path: str, big: int) -> None:
    core = fast.core_for(get_profile("hoffmann-1892"), "compiled")
    assert core is not None, "the compiled core is not built"
    with open(path, encoding="utf-8") as rows:
        texts = [row.split("\t")[4] for row in rows.read().splitlines()]
    began = time.process_time()
    unknown = unknown_at_solve_budget(core, texts)
    print(f"{len(set(texts))} distinct questions, {len(unknown)} unknown at {SOLVE_BUDGET:,} "
          f"({time.process_time() - began:.1f} CPU s)", flush=True)
    verdicts: Counter[str] = Counter()
    spent: defaultdict[str, list[tuple[int, int]]] = defaultdict(list)
    for pos in unknown:
        verdict, made, _ = core.onesuit(pos, big, True, object())
        verdicts[verdict] += 1
        spent[verdict].append((made, sum(len(pile) for pile in pos.piles)))
    print(f"at {big:,}: {dict(verdicts)}")
    for verdict, pairs in spent.items():
        nodes = sorted(n for n, _ in pairs)
        cards = sorted(Counter(c for _, c in pairs).items())
        print(f"  {verdict}: positions median {nodes[len(nodes) // 2]:,}, max {nodes[-1]:,}; cards {cards}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3_000_000)
