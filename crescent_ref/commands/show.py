"""``crescent-ref show``: draw the table of a game code or a position."""

from __future__ import annotations

import argparse

from crescent_ref.commands.common import OK, game_of, table
from crescent_ref.render import pile_lines


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``show``: a code or position, the profile, what to add under the table."""
    parser.add_argument(
        "game", metavar="CODE|POSITION", help="a game code (CR1-N-AAAAAAB) or a position in its text form (quoted)"
    )
    parser.add_argument("--profile", default="app", help="rule profile, e.g. app, open+closed (default: app)")
    parser.add_argument("--piles", action="store_true", help="also list every pile's cards, bottom to top")
    parser.add_argument("--text", action="store_true", help="also print the position's text form")


def run(args: argparse.Namespace) -> int:
    """Draw the table; a text with a colon is a position, anything else a game code."""
    game = game_of(args.profile, args.game)
    print(table(game))
    if args.piles:
        print("\n" + "\n".join(pile_lines(game.position)))
    if args.text:
        print("\n" + game.position.to_text())
    return OK
