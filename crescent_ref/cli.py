"""The ``crescent-ref`` command: draw a table, play actions on it, list the rule profiles.

    crescent-ref show CR1-N-AAAAAAB --profile morehead-1949
    crescent-ref play --profile app --code CR1-N-AAAAAAB p8-A♠ "tap p5" reshuffle
    crescent-ref profiles [NAME]
    crescent-ref solve CR1-N-AAAAAAB --profile app+nine --seconds 10

Subcommands live in ``COMMANDS``: a name maps to a ``Command`` (help text, a function that adds
its arguments to an argparse parser, and a function that runs it and returns the exit code).
Adding one is an entry in that dict. Exit codes: 0 done, 1 an action was refused, 2 bad input.

Start-up is kept to what the subcommand asked for needs: each built-in subcommand is a module of
crescent_ref.commands, imported when it is named; the parser configures only the subparsers named
on the command line (the others keep their help line); and a subcommand that takes no arguments
(``serve``), given alone, runs without argparse at all. ``--help`` and every error read as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from crescent_ref.exits import guarded

if TYPE_CHECKING:
    import argparse

OK, REFUSED, BAD_INPUT = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: its help, how it adds its arguments, and what it runs (``bare``: it takes none)."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    bare: bool = False


def lazy(module: str, help: str) -> Command:
    """A subcommand whose ``configure(parser)`` and ``run(args)`` live in ``module``, imported on first use."""

    def configure(parser: argparse.ArgumentParser) -> None:
        import_module(module).configure(parser)

    def run(args: argparse.Namespace) -> int:
        return cast(int, import_module(module).run(args))

    return Command(help, configure, run)


def run_serve(args: argparse.Namespace) -> int:
    """``crescent-ref serve``: JSON lines on stdin and stdout until ``stop``."""
    from crescent_ref.serve import main as serve_main

    return serve_main()


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """A subcommand without arguments of its own (``--help`` only)."""


COMMANDS: dict[str, Command] = {
    "show": lazy("crescent_ref.commands.show", "draw the table of a game code or a position"),
    "play": lazy("crescent_ref.commands.play", "apply actions one by one and report each outcome"),
    "profiles": lazy(
        "crescent_ref.commands.profiles", "list the rule profiles and variants with their parameters"
    ),
    "perft": lazy(
        "crescent_ref.commands.perft", "count action sequences of a depth from a position (spec/perft.md)"
    ),
    "solve": lazy(
        "crescent_ref.commands.solve",
        "solve a game code or position exactly: winnable (with the line), not winnable, or unknown",
    ),
    "serve": Command(
        "serve the engine over the stdio adapter protocol (spec/protocol.md)", no_arguments, run_serve, bare=True
    ),
}


def build_parser(words: list[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser, one subparser per entry of COMMANDS; with ``words`` (the command line), only
    the subparsers of the subcommands named in it get their arguments (argparse uses no other)."""
    from crescent_ref.arguments import Parser

    parser = Parser(prog="crescent-ref", description="Crescent reference engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        subparser = sub.add_parser(name, help=command.help, description=command.help)
        if words is None or name in words:
            command.configure(subparser)
    return parser


def parse(words: list[str]) -> argparse.Namespace | int:
    """The parsed command line, or the exit code argparse chose (``--help``: 0; an error: 2)."""
    if len(words) == 1 and words[0] in COMMANDS and COMMANDS[words[0]].bare:
        return cast("argparse.Namespace", SimpleNamespace(command=words[0]))  # what argparse would give
    try:
        return build_parser(words).parse_args(words)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else BAD_INPUT


def main(argv: list[str] | None = None) -> int:
    """Run ``crescent-ref``; returns the exit code (0 done, 1 an action refused, 2 bad input; crescent_ref.exits)."""
    args = parse(sys.argv[1:] if argv is None else list(argv))
    if isinstance(args, int):
        return args
    return guarded("crescent-ref", lambda: COMMANDS[args.command].run(args))


if __name__ == "__main__":
    sys.exit(main())
