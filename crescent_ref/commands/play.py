"""``crescent-ref play``: apply actions one by one and report each outcome."""

from __future__ import annotations

import argparse

from crescent_ref.actions import Action
from crescent_ref.commands.common import OK, REFUSED, load_game, table
from crescent_ref.game import Outcome
from crescent_ref.messages import LANGUAGES, message

EPILOG = (
    "exit status: 0 when every action was accepted, 1 when the engine refused one (the rest are still "
    "applied), 2 on bad input (an unknown profile, a position, code or action that does not parse)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``play``: profile, starting point, message language, the actions."""
    parser.add_argument("--profile", required=True, help="rule profile, e.g. app, open+closed")
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--code", help="deal this game code, e.g. CR1-N-AAAAAAB")
    start.add_argument("--position", help="start from this position text (quoted)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of refusal messages")
    parser.add_argument(
        "--deviations",
        metavar="JSON",
        help='play the rules as an implementation declares them, e.g. \'{"app": {"pile_limit": null}}\'',
    )
    parser.add_argument(
        "actions",
        nargs="*",
        metavar="ACTION",
        help="actions in order: p10-p14, p5-A♠, reshuffle, undo, 'tap p5', 'drop p5'",
    )
    parser.epilog = EPILOG


def join_words(words: list[str]) -> list[str]:
    """Rejoin ``tap p5`` / ``drop p5`` given as two arguments."""
    joined: list[str] = []
    for word in words:
        if joined and joined[-1].lower() in ("tap", "drop"):
            joined[-1] += " " + word
        else:
            joined.append(word)
    return joined


def outcome_line(number: int, outcome: Outcome, lang: str) -> str:
    """``1. p8-A♠: accepted (move) p8-A♠`` or ``2. p5-A♠: rejected (wrong-suit) Must be the same suit.``"""
    if not outcome.accepted:
        reason = outcome.reason or ""
        return f"{number}. {outcome.action}: rejected ({reason}) {message(reason, lang)}"
    made = " ".join(str(m) for m in outcome.moves)
    return f"{number}. {outcome.action}: accepted ({outcome.effect})" + (f" {made}" if made else "")


def run(args: argparse.Namespace) -> int:
    """Apply every action (all parsed first), one line each, then the final table."""
    game = load_game(args.profile, args.code, args.position, args.deviations)
    actions = [Action.from_text(text) for text in join_words(args.actions)]
    refused = False
    for number, action in enumerate(actions, 1):
        outcome = game.apply(action)
        refused = refused or not outcome.accepted
        print(outcome_line(number, outcome, args.lang))
    print(("\n" if actions else "") + table(game))
    return REFUSED if refused else OK
