"""Fresh deals dead by cards that wait on each other (waits.py), read on the compiled core.

``proved_deals.py`` reads the locked-card rule and ``waits.py`` off each fresh deal in Python
(about a millisecond a deal, through Dask). This scan asks only ``Core.waits`` (the compiled
restatement of ``waits.stuck``, which contains the locked-card rule), about 0.08 ms a deal, so that
millions of codes of the win-rate list (benchmarks/winrate.py) can be read in the wrap profiles,
where no fresh deal can be dead by a lock inside one pile and a proof at the start needs a lock
across piles. It also counts, on every ``--sample``-th code, the pile cards with no *open* pile
route at the start (every copy of their pile neighbours is pinned under another card, waits.py's
``closed`` cards): a lock across piles needs several such cards at once, so their rate says how
far the deals are from one.

    python benchmarks/start_waits.py --first 1 --count 1000000 --profiles app open morehead-1949
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from winrate import STEP

from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.game import Game
from crescent_ref.movegen import tables
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast
from crescent_ref.solver.waits import _open


def closed_cards(profile: Profile, pos: Position) -> int:
    """How many pile cards have no pile route open at once (waits.py's first filter)."""
    reached = [0] * 53
    for p, pile in enumerate(pos.piles):
        for card in pile[:pos.reshuffles]:
            reached[card] |= 1 << p
        if pile:
            reached[pile[-1]] |= 1 << p
    near = tables(profile).near
    return sum(not _open(reached, near[card], p) for p, pile in enumerate(pos.piles) for card in pile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1, help="index of the first code in the fixed list")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--profiles", nargs="+", default=["app", "open", "morehead-1949"])
    parser.add_argument("--sample", type=int, default=100, help="count closed cards on every N-th code")
    args = parser.parse_args()
    began = time.process_time()
    cores: dict[str, fast.Core] = {}
    found: dict[str, list[str]] = {p: [] for p in args.profiles}
    closed: dict[str, Counter[int]] = {p: Counter() for p in args.profiles}
    for i in range(args.first, args.first + args.count):
        code = str(GameCode(i * STEP % (MAX_SEED + 1)))
        for name in args.profiles:
            game = Game.deal(name, code)
            core = cores.get(name) or fast.core_for(game.profile, fast.COMPILED)
            assert core is not None, "start_waits.py needs the compiled core"
            cores[name] = core
            if core.waits(game.position):
                found[name].append(code)
                print(f"{name} {code} (list index {i}): dead at the start", flush=True)
            if i % args.sample == 0:
                closed[name][closed_cards(game.profile, game.position)] += 1
        if (i - args.first + 1) % 200_000 == 0:
            print(f"[{i - args.first + 1}/{args.count}] {time.process_time() - began:.0f} CPU s",
                  file=sys.stderr, flush=True)
    spent = time.process_time() - began
    for name in args.profiles:
        print(f"{name}: codes {args.first}-{args.first + args.count - 1}, {len(found[name])} dead at the "
              f"start ({' '.join(found[name]) or '-'}); closed cards per sampled start: "
              f"{dict(sorted(closed[name].items()))}")
    print(f"{spent:.0f} CPU s")


if __name__ == "__main__":
    main()
