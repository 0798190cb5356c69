"""``fuzz``: differential play against the reference; a scenario file for each distinct difference."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from conformance.adapter import Adapter
from conformance.cli.common import (
    Command,
    adapter_options,
    check_expectations,
    nothing_judged,
    open_adapter,
    positive,
    profile_name,
)
from conformance.contract.expectations import fuzz_rules

EPILOG = """\
Games start from generated corner positions (full piles, finished foundations, long undo
histories, ...; see docs/fuzzing.md) and play a seeded mix of legal moves and probes. Each
distinct difference is shrunk (fewest steps, then a simpler position), diagnosed and written to
--out as a scenario file; run it again with `crescent-conformance run --scenarios OUT`.

--ignore KIND:VALUE looks past a known difference (repeatable):
  reason:CODE    a reply where either side gives this reason code (e.g. reason:pile-full)
  status:NAME    a status difference where either side says NAME (e.g. status:waiting)
  field:NAME     a state field left out of the comparison (e.g. field:undo, field:moves)
  action:KIND    an action kind never played (undo, tap, drop, reshuffle)
  rule:ID        a rule a finding names (its "rule ID" line), e.g. rule:pile-wrap, rule:undo-after-loss
  field:legal-moves  the legal-move lists are not compared
The game plays on from before an ignored difference, without a finding. Each rule is reported once,
with the count of differences it explains. --expectations FILE adds the file's keys of the form
fuzz/KIND:VALUE (the same file run and perft read) to the --ignore rules.

Exit codes: 0 no difference, 1 differences found, 2 bad arguments.
"""


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``fuzz``."""
    adapter_options(p)
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EPILOG
    p.add_argument("--profile", type=profile_name, default="app", help="the profile to play (base or base+variants)")
    p.add_argument("--games", type=positive(int),
                   help="most games to play (default 300; no limit with --seconds alone)")  # fmt: skip
    p.add_argument("--examples", dest="games", type=positive(int), help=argparse.SUPPRESS)  # the old name of --games
    p.add_argument("--seconds", type=positive(float), help="most seconds to play (with --games, whichever ends first)")
    p.add_argument("--steps", type=positive(int, zero=True), default=40,
                   help="most actions a game after its corner's script")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed plays the same games")
    p.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="folder for the scenario files")
    p.add_argument("--max-findings", type=positive(int), default=20,
                   help="stop after this many findings (one per rule)")  # fmt: skip
    p.add_argument("--shrink-seconds", type=positive(float), default=10.0,
                   help="time cap for shrinking one finding, all passes together")
    p.add_argument("--no-shrink", action="store_true", help="report findings as found, unshrunk")
    p.add_argument("--ignore", action="append", default=[], metavar="KIND:VALUE", help="a difference to look past")
    p.add_argument("--expectations", type=Path, help="expectations file; its fuzz/KIND:VALUE keys are --ignore rules")
    p.add_argument("--corner", action="append", default=[], help="only these position generators (names)")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _fuzz(args: argparse.Namespace) -> int:
    """Differential play; exit 1 when differences are found."""
    from conformance.explore.fuzz import CORNERS, FuzzConfig, Ignore, fuzz
    from crescent_ref.errors import NotationError

    ignore = Ignore.parse(args.ignore + fuzz_rules(check_expectations(args)))
    unknown = sorted(set(args.corner) - {c.name for c in CORNERS})
    if unknown:
        known = ", ".join(dict.fromkeys(c.name for c in CORNERS))
        raise NotationError("corner", ", ".join(unknown), f"known: {known}")
    config = FuzzConfig(
        profile=args.profile, games=args.games, seconds=args.seconds, steps=args.steps, seed=args.seed, out=args.out,
        shrink=not args.no_shrink, shrink_seconds=args.shrink_seconds, max_findings=args.max_findings,
        ignore=ignore, corners=tuple(args.corner), quiet=args.quiet,
    )
    print(f"fuzz {args.profile}: seed {args.seed} (replay with --seed {args.seed})", flush=True)
    undeclared: list[str] = []
    try:
        report = fuzz(_declared_adapter(args, undeclared), config)
    except _Undeclared:
        return nothing_judged("fuzz", f"--profile {args.profile}: {undeclared[0]}")
    ignored = f", {sum(report.ignored.values())} ignored" if report.ignored else ""
    print(f"{report.games} games, {report.actions} actions in {report.seconds:.1f}s "
          f"({report.rate:,.0f} actions/s), {len(report.findings)} finding(s), {report.folded} difference(s) "
          f"folded into them{ignored}")
    if report.given_up:
        print(f"stopped after {report.games} games: the implementation was {report.given_up}")
    for number, finding in enumerate(report.findings, 1):
        print(f"DIFFERENCE {number}: {finding}")
    if not report.findings and not report.actions:
        return nothing_judged("fuzz", f"no game was played in {report.games} tried (every start skipped)")
    return 1 if report.findings else 0


class _Undeclared(Exception):
    """The implementation does not declare the profile fuzz is asked to play."""


def _declared_adapter(args: argparse.Namespace, why: list[str]) -> Callable[[], Adapter]:
    """A factory of adapters whose first adapter is checked to declare ``--profile`` (the handshake is kept,
    so fuzz asks it again for free); a failed handshake is left to fuzz, which reports it."""
    made = [0]

    def make() -> Adapter:
        adapter = _adapter(args)
        made[0] += 1
        if made[0] == 1:
            try:
                found = adapter.info().supports(args.profile)
            except Exception:  # an adapter fault: fuzz meets it again and reports it as a finding
                return adapter
            if found is not None:
                adapter.close()
                why.append(found)
                raise _Undeclared(found)
        return adapter

    return make


def _adapter(args: argparse.Namespace) -> Adapter:
    """A new adapter as the options say (fuzz restarts one after an engine fault)."""
    return open_adapter(args)


COMMAND = Command(
    "fuzz", "differential play against the reference; writes a scenario for each distinct difference", configure, _fuzz
)
