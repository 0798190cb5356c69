"""``crescent-conformance``: run the corpus against an implementation, explore beyond it, report.

Each subcommand is a module of this package holding a ``Command`` (name, help, arguments, run);
``COMMANDS`` lists them in the order ``--help`` shows. Adding a subcommand is a module and a line
here. Exit codes: 0 all good, 1 the implementation deviates (or the check failed, or nothing was
judged), 2 bad input; 130 interrupted, 70 a bug of the kit (crescent_ref.exits).
"""

from __future__ import annotations

import argparse

from conformance.adapter import AdapterError
from conformance.cli import (
    badge,
    check_log,
    compare,
    corpus,
    docs,
    fuzz,
    impact,
    matrix,
    perft,
    report,
    run,
    smoke,
    trace,
    winnable,
)
from conformance.cli.common import Command
from crescent_ref.exits import BAD_INPUT, FAILED, Parser, guarded

COMMANDS: list[Command] = [
    run.COMMAND,
    smoke.COMMAND,
    fuzz.COMMAND,
    perft.COMMAND,
    check_log.COMMAND,
    winnable.COMMAND,
    report.COMMAND,
    report.HTML_COMMAND,
    compare.COMMAND,
    matrix.COMMAND,
    badge.COMMAND,
    docs.COMMAND,
    trace.COMMAND,
    corpus.LIST_COMMAND,
    corpus.LINT_COMMAND,
    impact.COMMAND,
]


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="crescent-conformance", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.configure(sub.add_parser(command.name, help=command.help))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a bad argument (one line, exit 2)
        return stop.code if isinstance(stop.code, int) else BAD_INPUT
    chosen = next(c for c in COMMANDS if c.name == args.command)
    return guarded("crescent-conformance", lambda: chosen.run(args), {AdapterError: FAILED})


if __name__ == "__main__":
    raise SystemExit(main())
