"""The ``crescent-ref`` command: draw a table, play actions on it, list the rule profiles.

    crescent-ref show CR1-N-AAAAAAB --profile morehead-1949
    crescent-ref play --profile app --code CR1-N-AAAAAAB p8-A♠ "tap p5" reshuffle
    crescent-ref profiles [NAME]
    crescent-ref solve CR1-N-AAAAAAB --profile app+nine --seconds 10

Subcommands live in ``COMMANDS``: a name maps to a ``Command`` (help text, a function that adds
its arguments to an argparse parser, and a function that runs it and returns the exit code).
Adding one is an entry in that dict. Exit codes: 0 done, 1 an action was refused, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crescent_ref.actions import Action, place_text
from crescent_ref.errors import NotationError
from crescent_ref.exits import Parser, guarded, positive
from crescent_ref.game import Game, Outcome
from crescent_ref.messages import LANGUAGES, message
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, base_names, get_profile, variant_names
from crescent_ref.render import pile_lines, render, status_line
from crescent_ref.spec_files import load_yaml

OK, REFUSED, BAD_INPUT = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: its help, how it adds its arguments, and what it runs."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def load_game(
    profile: str, code: str | None = None, position: str | None = None, deviations: str | None = None
) -> Game:
    """A game dealt from ``code`` or set up from a ``position`` text, under ``profile`` with the
    ``deviations`` declared for its base (JSON, as a handshake declares them); NotationError on bad text."""
    rules = Profile.declared(profile, parse_deviations(deviations).get(profile.split("+")[0], {}))
    if code is not None:
        return Game.deal(rules, code)
    return Game(rules, Position.from_text(position or ""))


def parse_deviations(text: str | None) -> dict[str, dict[str, Any]]:
    """``{"app": {"pile_limit": null}}``: base profile to parameters (NotationError quoting the text)."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError as err:
        raise NotationError("deviations", text, f"not JSON: {err}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise NotationError("deviations", text, 'expected {"<base profile>": {"<parameter>": value}}')
    for base, changes in data.items():
        if base not in base_names():
            raise NotationError("deviations", text, f"unknown base profile {base!r}; known: {', '.join(base_names())}")
        get_profile(base).changed(changes)
    return data


def table(game: Game) -> str:
    """The drawn table and its status line."""
    selected = place_text(game.selected) if game.selected is not None else None
    return render(game.position) + "\n\n" + status_line(game.profile, game.position, selected)


# --- show -------------------------------------------------------------------------------------


def configure_show(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``show``: a code or position, the profile, what to add under the table."""
    parser.add_argument(
        "game", metavar="CODE|POSITION", help="a game code (CR1-N-AAAAAAB) or a position in its text form (quoted)"
    )
    parser.add_argument("--profile", default="app", help="rule profile, e.g. app, open+closed (default: app)")
    parser.add_argument("--piles", action="store_true", help="also list every pile's cards, bottom to top")
    parser.add_argument("--text", action="store_true", help="also print the position's text form")


def run_show(args: argparse.Namespace) -> int:
    """Draw the table; a text with a colon is a position, anything else a game code."""
    is_position = ":" in args.game
    game = load_game(args.profile, None if is_position else args.game, args.game if is_position else None)
    print(table(game))
    if args.piles:
        print("\n" + "\n".join(pile_lines(game.position)))
    if args.text:
        print("\n" + game.position.to_text())
    return OK


# --- play -------------------------------------------------------------------------------------


def configure_play(parser: argparse.ArgumentParser) -> None:
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
    parser.epilog = "exit status: 0 when every action was accepted, 1 when the engine refused one (the rest " \
                    "are still applied), 2 on bad input (an unknown profile, a position, code or action " \
                    "that does not parse)"


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


def run_play(args: argparse.Namespace) -> int:
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


# --- profiles ---------------------------------------------------------------------------------


def configure_profiles(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``profiles``: an optional profile name."""
    parser.add_argument("name", nargs="?", help="show this one profile, variants included (e.g. open+four)")


def yaml_value(value: Any) -> str:
    """A parameter value written as in profiles.yaml."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def entry_lines(name: str, summary: str, values: dict[str, Any]) -> list[str]:
    """A profile or variant: name and summary, then its parameters wrapped and indented."""
    params = " ".join(f"{key}={yaml_value(value)}" for key, value in values.items())
    indent = " " * 4
    return [f"  {name:15} {summary}", *textwrap.wrap(params, 100, initial_indent=indent, subsequent_indent=indent)]


def profile_listing() -> list[str]:
    """Every base profile and every variant with the parameters it sets."""
    data = load_yaml("profiles.yaml")
    lines = ["Base profiles:"]
    for name in base_names():
        lines += entry_lines(name, data["profiles"][name]["summary"], get_profile(name).parameters())
    lines += ["", "Variants (add to a base profile with '+', e.g. open+four+closed):"]
    for name in variant_names():
        entry = data["variants"][name]
        lines += entry_lines(name, entry["summary"], {k: v["value"] for k, v in entry["parameters"].items()})
    return lines


def run_profiles(args: argparse.Namespace) -> int:
    """List every profile and variant, or the parameters of one named profile."""
    if args.name:
        profile = get_profile(args.name)
        print(profile.name)
        print("\n".join(f"  {key} = {yaml_value(value)}" for key, value in profile.parameters().items()))
    else:
        print("\n".join(profile_listing()))
    return OK


# --- entry point ------------------------------------------------------------------------------

COMMANDS: dict[str, Command] = {
    "show": Command("draw the table of a game code or a position", configure_show, run_show),
    "play": Command("apply actions one by one and report each outcome", configure_play, run_play),
    "profiles": Command("list the rule profiles and variants with their parameters", configure_profiles, run_profiles),
    "perft": Command(
        "count action sequences of a depth from a position (spec/perft.md)",
        lambda p: configure_perft(p),
        lambda a: run_perft(a),
    ),
    "solve": Command(
        "solve a game code or position exactly: winnable (with the line), not winnable, or unknown",
        lambda p: configure_solve(p),
        lambda a: run_solve(a),
    ),
    "serve": Command(
        "serve the engine over the stdio adapter protocol (spec/protocol.md)", lambda p: None, lambda a: run_serve()
    ),
}


def configure_perft(parser: argparse.ArgumentParser) -> None:
    """Options of ``perft``."""
    parser.add_argument("--profile", default="app", help="rule profile")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--code", help="a game code (dealt, with the profile's autoplay)")
    given.add_argument("--position", help="a position text")
    parser.add_argument("--depth", type=int, default=3, help="sequence length")
    parser.add_argument("--divide", action="store_true", help="split the count by first action")


def run_perft(args: argparse.Namespace) -> int:
    """Print the count (and the divide), with a progress bar over the first actions on a terminal."""
    from crescent_ref.perft import actions, divide_items, perft
    from crescent_ref.progress import progress

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


def configure_solve(parser: argparse.ArgumentParser) -> None:
    """Options of ``solve``: the game, the profile and the budget."""
    parser.add_argument("game", metavar="CODE|POSITION", help="a game code or a position text (quoted)")
    parser.add_argument("--profile", default="app", help="rule profile (default: app)")
    parser.add_argument("--nodes", type=positive(int), default=50_000_000,
        help="most positions to generate (default 50,000,000: the seconds run out first)")
    parser.add_argument("--seconds", type=positive(float), default=60.0, help="most CPU seconds to search")
    parser.add_argument("--order", choices=("portfolio", "depth-first"), default="portfolio",
                        help="portfolio: restarts with several search orders; depth-first: one search "
                             "(the answer does not depend on it)")
    parser.add_argument("--core", choices=("auto", "python", "compiled"), default=None,
                        help="the solver core: compiled where built (auto), or the pure-Python one, to re-prove an "
                             "answer another way (default: $CRESCENT_SOLVER_CORE, else auto)")


def run_solve(args: argparse.Namespace) -> int:
    """Print the answer, the cost and the line, with the ``play`` command that replays it."""
    from crescent_ref.progress import counter
    from crescent_ref.solver import Budget, solve

    is_position = ":" in args.game
    game = load_game(args.profile, None if is_position else args.game, args.game if is_position else None)
    bar = counter("solving", unit="node")
    answer = solve(game, Budget(nodes=args.nodes, seconds=args.seconds), order=args.order,
                   tick=lambda n: bar.update(n - bar.n), core=args.core)
    bar.close()
    for line in solve_report(args, answer):
        print(line)
    return OK


def solve_report(args: argparse.Namespace, answer: Any) -> list[str]:
    """The lines ``solve`` prints (see run_solve)."""
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


def run_serve() -> int:
    """``crescent-ref serve``: JSON lines on stdin and stdout until ``stop``."""
    from crescent_ref.serve import main as serve_main

    return serve_main()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subparser per entry of COMMANDS."""
    parser = Parser(prog="crescent-ref", description="Crescent reference engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(name, help=command.help, description=command.help))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``crescent-ref``; returns the exit code (0 done, 1 an action refused, 2 bad input; crescent_ref.exits)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else BAD_INPUT
    return guarded("crescent-ref", lambda: COMMANDS[args.command].run(args))


if __name__ == "__main__":
    sys.exit(main())
