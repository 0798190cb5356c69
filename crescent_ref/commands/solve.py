"""``crescent-ref solve``: solve a game code or position exactly (winnable with the line, not, or unknown)."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from crescent_ref.arguments import positive
from crescent_ref.commands.common import OK, game_of
from crescent_ref.progress import counter


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``solve``: the game, the profile and the budget."""
    parser.add_argument("game", metavar="CODE|POSITION", help="a game code or a position text (quoted)")
    parser.add_argument("--profile", default="app", help="rule profile (default: app)")
    parser.add_argument("--nodes", type=positive(int),
        help="most positions to generate (default: the solver's Budget, where the seconds run out first)")
    parser.add_argument("--seconds", type=positive(float), default=60.0, help="most CPU seconds to search")
    parser.add_argument("--order", choices=("portfolio", "depth-first"), default="portfolio",
                        help="portfolio: restarts with several search orders; depth-first: one search "
                             "(the answer does not depend on it)")
    parser.add_argument("--core", choices=("auto", "python", "compiled"), default=None,
                        help="the solver core: compiled where built (auto), or the pure-Python one, to re-prove an "
                             "answer another way (default: $CRESCENT_SOLVER_CORE, else auto)")


def run(args: argparse.Namespace) -> int:
    """Print the answer, the cost and the line, with the ``play`` command that replays it."""
    from crescent_ref.solver import Budget, solve  # the solver loads its core: only when solving

    game = game_of(args.profile, args.game)
    bar = counter("solving", unit="node")
    answer = solve(game, Budget(nodes=args.nodes or Budget().nodes, seconds=args.seconds), order=args.order,
                   tick=lambda n: bar.update(n - bar.n), core=args.core)
    bar.close()
    for line in report(args, answer):
        print(line)
    return OK


def report(args: argparse.Namespace, answer: Any) -> list[str]:
    """The lines ``solve`` prints (see run)."""
    lines = [f"answer: {answer.verdict}" + (f" (budget spent: {answer.limit})" if answer.limit else "")]
    if answer.thoughtful:
        lines.append("thoughtful: the deal is closed, and it was solved with every card known")
    if answer.proof:
        lines.append(f"proof: {answer.proof}")
    lines.append(f"nodes: {answer.nodes}  stored: {answer.stored}  searches: {answer.searches}  "
                 f"cpu seconds: {answer.seconds:.2f}  core: {answer.core}")
    if answer.verdict == "winnable":
        start = f"--position {shlex.quote(args.game)}" if ":" in args.game else f"--code {args.game}"
        lines.append(f"line ({len(answer.line)} actions): {answer.line_text()}")
        lines.append(f"replay: crescent-ref play --profile {args.profile} {start} {answer.line_text()}")
    return lines
