"""``crescent-ref perft``: count the action sequences of a depth from a position (spec/perft.md)."""

from __future__ import annotations

import argparse

from crescent_ref.arguments import positive
from crescent_ref.commands.common import OK, load_game
from crescent_ref.perft import MAX_DEPTH, actions, divide_items, perft
from crescent_ref.progress import progress


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``perft``."""
    parser.add_argument("--profile", default="app", help="rule profile")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--code", help="a game code (dealt, with the profile's autoplay)")
    given.add_argument("--position", help="a position text")
    parser.add_argument("--depth", type=depth, default=3, help=f"sequence length (0 to {MAX_DEPTH})")
    parser.add_argument("--divide", action="store_true", help="split the count by first action")


def depth(text: str) -> int:
    """An argparse type: a perft depth, 0 to MAX_DEPTH (a deeper count never finishes)."""
    number = int(positive(int, zero=True)(text))
    if number > MAX_DEPTH:
        wanted = f"a depth of 0 to {MAX_DEPTH} (counts grow tenfold a level)"
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
    return number


def run(args: argparse.Namespace) -> int:
    """Print the count (and the divide), with a progress bar over the first actions on a terminal."""
    game = load_game(args.profile, args.code, args.position)
    if args.depth < 1:
        print(perft(game, args.depth))
        return OK
    first = len(actions(game))
    split = dict(progress(divide_items(game, args.depth), "first actions", total=first, unit="action"))
    if args.divide:
        for action, count in split.items():
            print(f"{action}: {count}")
        print(f"total: {sum(split.values())}")
    else:
        print(sum(split.values()))
    return OK
