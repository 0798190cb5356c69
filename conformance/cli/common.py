"""What every subcommand shares: the Command record and the common options."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conformance.adapter import RESTART_LIMIT, Adapter, Info
from conformance.adapters.pipes import MAX_LINE
from conformance.adapters.session import make_adapter
from conformance.contract import Contract, Expectations, load_expectations
from conformance.contract.expectations import OTHER_KINDS
from crescent_ref.arguments import non_blank, positive
from crescent_ref.errors import CrescentError, NotationError
from crescent_ref.exits import FAILED
from crescent_ref.profiles import get_profile

__all__ = ["positive"]  # kept importable from here


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its help, how it adds its arguments, and what it runs (the exit code)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def scenario_files_option(p: argparse.ArgumentParser) -> None:
    """--scenarios: extra scenario files beside the corpus (a command that reads the whole corpus: lint)."""
    p.add_argument("--scenarios", action="append", type=Path, default=[], help="extra scenario folder or file")


def profile_name(text: str) -> str:
    """An argparse type: a profile's name (base, or base+variants) that exists; the same words as ``run``'s
    for one that does not, read before anything is started. Whether the implementation declares it is
    another question, answered by its contract."""
    try:
        get_profile(text)
    except NotationError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def selection_options(p: argparse.ArgumentParser) -> None:
    """--scenarios, --profile, --id: which scenarios a command takes (read alike by every command that
    offers them: conformance.adapters.session.check_selection and plan)."""
    scenario_files_option(p)
    p.add_argument(
        "--profile",
        action="append",
        default=[],
        help="only these profiles (repeatable): a base name (app) takes the base and every variant of it "
        "(app, app+four, app+closed, ...); a full name (app+four) takes only that one",
    )
    p.add_argument("--id", action="append", default=[], help="only these scenario ids")


def adapter_options(p: argparse.ArgumentParser) -> None:
    """--impl, --cmd, --timeout: which implementation a command talks to."""
    p.add_argument("--impl", default="reference", help="'reference' or module:factory (in-process)")
    p.add_argument("--cmd", type=non_blank, help="command line of a stdio implementation (not empty)")
    p.add_argument("--timeout", type=positive(float), default=10.0, help="seconds per request (stdio)")
    p.add_argument(
        "--max-line", type=positive(int), default=MAX_LINE, help="longest reply line in bytes (stdio; default 8 MiB)"
    )
    p.add_argument(
        "--validate-protocol",
        action="store_true",
        help="check every stdio message in full against spec/schema/protocol.schema.json (for adapter authors)",
    )
    p.add_argument(
        "--restart-limit",
        type=positive(int, zero=True),
        default=RESTART_LIMIT,
        metavar="N",
        help=f"after N processes in a row fault before answering, one plain game decides: if it faults too, the "
        f"implementation is not started again (stdio; default {RESTART_LIMIT}; 0: start it again for every game)",
    )


def open_adapter(args: argparse.Namespace) -> Adapter:
    """The adapter that ``adapter_options`` name (what every command that plays connects to)."""
    validate, limit = args.validate_protocol, args.restart_limit
    return make_adapter(args.impl, args.cmd, args.timeout, args.max_line, validate, limit)


def contract_options(p: argparse.ArgumentParser, expectations: str = "") -> None:
    """--expectations, --label: the parts of the contract the user gives (the rest comes from the handshake)."""
    p.add_argument(
        "--expectations",
        type=Path,
        help=expectations
        or "file of known differences by scenario id (expected failures; one that passes fails the command)",
    )
    p.add_argument("--label", default="", help="a name for this run of the implementation (reports, matrix columns)")


def check_expectations(args: argparse.Namespace) -> Expectations:
    """The expectations file (none given: no deviations), its keys that name a scenario or a perft case checked
    against the corpus (with ``--scenarios``) and spec/perft/, the same in every command that reads the file: a
    key naming nothing is bad input (the file, its line, the key), said before any implementation is started.
    Keys of logs, codes and fuzz rules may name another run's and are not checked. The corpus and the perft
    cases are read only when some key is of their kind.

    Raises:
        ScenarioError: the file cannot be read, or the first key that names nothing.
    """
    expectations = load_expectations(getattr(args, "expectations", None))
    keys = expectations.deviations
    errors = []
    if any(not key.startswith(OTHER_KINDS) for key in keys):
        from conformance.corpus.load import load_corpus

        errors += expectations.unknown(load_corpus(getattr(args, "scenarios", None) or []))
    if any(key.startswith("perft/") for key in keys):
        from conformance.explore.perft import cases

        errors += expectations.unknown_perft((case.name, case.profile) for case in cases())
    if errors:
        raise errors[0]
    return expectations


def contract_of(args: argparse.Namespace, info: Info, expectations: Expectations | None = None) -> Contract:
    """The contract of this command: the handshake's declarations, the expectations file (``expectations``:
    as read already), label and command.

    Raises:
        ScenarioError: the expectations file cannot be read.
    """
    if expectations is None:
        expectations = load_expectations(getattr(args, "expectations", None))
    return Contract(info, expectations, getattr(args, "label", "") or "", replay_name(args))


def replay_name(args: argparse.Namespace) -> str:
    """How replay commands name the implementation of this run, quoted so that it runs as written."""
    return f"--cmd {shell_word(args.cmd)}" if args.cmd else f"--impl {shlex.quote(args.impl)}"


def shell_word(text: str) -> str:
    """``text`` as one POSIX shell word: in double quotes when nothing inside them is special, else quoted
    by shlex (single quotes)."""
    return f'"{text}"' if not set(text) & set('"$`\\!') else shlex.quote(text)


class OutputError(CrescentError):
    """An output file or folder that cannot be written; names it and says why."""


def make_folder(path: Path) -> None:
    """Create an output folder (and its parents); OutputError when it cannot be."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot make the folder {path}: {err.strerror or err}") from None


def nothing_judged(command: str, why: str) -> int:
    """Say on stderr that ``command`` judged nothing, and why; the exit code (1: never green)."""
    print(f"crescent-conformance {command}: nothing was judged: {why}", file=sys.stderr)
    return FAILED
