"""Deals proved not winnable at the start: the solver's dead rule (crescent_ref/solver/dead.py)
read off each fresh deal of a fixed list of game codes, per profile.

A deal is proved not winnable here when a card on a pile is locked from the deal on: every card
it could go onto lies under it, out of reach of the reshuffles, and no foundation can take it
before they come up. Without the wrap (``hoffmann-1892``) that happens when a pile ends with both
copies of a Two (or Queen) under the loose Ace (or King) of their suit. With the wrap a loose Ace
or King has three neighbour copies and only two places lie out of reach under a pile's top card,
so no fresh deal is dead by this rule: there a proof would have to exhaust the search.

The codes are those of benchmarks/winrate.py (``CR1-N-`` plus ``i * 104729 mod 26**7``). Prints,
per profile, how many deals are proved, the share with a 95% Wilson interval (a lower bound on the
not-winnable share: other deals may be unwinnable for reasons this rule does not see), and the codes.

    python benchmarks/proved_deals.py --count 20000 --profiles hoffmann-1892 app
"""

from __future__ import annotations

import argparse

from winrate import codes, wilson

from crescent_ref.game import Game
from crescent_ref.progress import progress
from crescent_ref.solver.dead import explain

PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949")


def proved(profile: str, count: int) -> list[tuple[str, str]]:
    """The codes among the first ``count`` whose deal is dead at the start, with the reason."""
    found = []
    for code in progress(codes(count), profile, unit="deal"):
        game = Game.deal(profile, code)
        why = explain(game.profile, game.position)
        if why:
            found.append((code, why))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="codes from the fixed list")
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    args = parser.parse_args()
    for profile in args.profiles:
        found = proved(profile, args.count)
        low, high = wilson(len(found), args.count)
        print(f"{profile}: {len(found)} of {args.count} deals proved not winnable at the start "
              f"({100 * len(found) / args.count:.3f} %, 95% interval [{low:.3f}, {high:.3f}])")
        for code, why in found:
            print(f"  {code}: {why}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
