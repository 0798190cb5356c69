"""``crescent-conformance``: run the corpus against an implementation, explore beyond it, report.

Each subcommand is a module of this package holding a ``Command`` (name, help, arguments, run);
``COMMANDS`` lists them in the order ``--help`` shows. Adding a subcommand is a module and a line
here. Exit codes: 0 all good, 1 the implementation deviates (or the check failed, or nothing was
judged), 2 bad input; 130 interrupted, 70 a bug of the kit (crescent_ref.exits).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from conformance.adapter import AdapterError
from conformance.cli.common import Command
from crescent_ref.arguments import Parser
from crescent_ref.exits import BAD_INPUT, FAILED, guarded

# name -> (module of this package, attribute holding its Command), in the order --help shows them.
# A command's module is imported only when that command runs (or for --help): start-up stays small.
WHERE: dict[str, tuple[str, str]] = {
    "run": ("run", "COMMAND"),
    "smoke": ("smoke", "COMMAND"),
    "fuzz": ("fuzz", "COMMAND"),
    "perft": ("perft", "COMMAND"),
    "check-log": ("check_log", "COMMAND"),
    "winnable": ("winnable", "COMMAND"),
    "report": ("report", "COMMAND"),
    "html-report": ("report", "HTML_COMMAND"),
    "compare": ("compare", "COMMAND"),
    "matrix": ("matrix", "COMMAND"),
    "badge": ("badge", "COMMAND"),
    "docs": ("docs", "COMMAND"),
    "trace": ("trace", "COMMAND"),
    "list": ("corpus", "LIST_COMMAND"),
    "lint": ("corpus", "LINT_COMMAND"),
    "impact": ("impact", "COMMAND"),
}


def command(name: str) -> Command:
    """The subcommand called ``name`` (its module imported now)."""
    module, attribute = WHERE[name]
    found: Command = getattr(importlib.import_module(f"conformance.cli.{module}"), attribute)
    return found


def commands() -> list[Command]:
    """Every subcommand, in the order ``--help`` shows them."""
    return [command(name) for name in WHERE]


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word that names one), if any."""
    return next((word for word in argv if word in WHERE), None)


def _parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser; only the chosen subcommand's arguments are configured (all of them when none is named)."""
    parser = Parser(prog="crescent-conformance", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = _chosen(argv)
    for name in WHERE:
        if chosen in (None, name):
            found = command(name)
            found.configure(sub.add_parser(name, help=found.help))
        else:
            sub.add_parser(name, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    words = sys.argv[1:] if argv is None else argv
    try:
        args = _parser(words).parse_args(words)
    except SystemExit as stop:  # --help, or a bad argument (one line, exit 2)
        return stop.code if isinstance(stop.code, int) else BAD_INPUT
    chosen = command(args.command)
    from conformance.adapters.pipes import end_children_on_exit

    end_children_on_exit()  # SIGTERM and SIGHUP end the adapters, then the command, as Ctrl-C does
    return guarded("crescent-conformance", lambda: chosen.run(args), {AdapterError: FAILED})


if __name__ == "__main__":
    raise SystemExit(main())
