"""Write spec/scenarios/whole-games.yaml: whole games, played from a game code to the end.

Two kinds, per base profile:

- **Won games.** A line that the solver (crescent_ref.solver) found, for each golden deal of
  spec/deals/golden.yaml it wins within the budget, and for codes whose lines a win-rate run kept
  (``--lines benchmarks/results/winrate-app-10s.json.gz``). Every action is a step; the counters are
  checked at each reshuffle, and status ``won`` with 104 foundation cards at the end.
- **Lost games.** Each golden deal played by a fixed greedy rule (below) until the game is lost;
  the last step checks status ``lost`` and the count of cards on the foundations (what 001's game
  shows at the end). A lost game says nothing about whether the deal can be won, except for the
  deals of ``PROVED``: the solver proves each not winnable (its proof goes in the scenario's
  comment, and the title says so), and its greedy game is added last. ``--append-proved`` adds
  the ``PROVED`` games missing from the file after its last scenario, leaving the others as they are.

The greedy rule: a pile card to a foundation if any (first by pile, then place), else a pile card
onto another pile that leads to a position not seen before, else a reshuffle; a game that cannot
go on that way without ending is left out. Every game is replayed on the engine before it is
written. The corpus is data: running it needs neither this script nor the solver.

    python benchmarks/whole_games.py --seconds 60 --lines benchmarks/results/winrate-app-10s.json.gz
    python benchmarks/whole_games.py --append-proved
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path
from typing import Any

from crescent_ref import movegen
from crescent_ref.actions import PILES, RESHUFFLE, Action
from crescent_ref.game import Game
from crescent_ref.solver import Budget, solve
from crescent_ref.solver.canon import key
from crescent_ref.spec_files import load_yaml

BASES = ("app", "open", "hoffmann-1892", "morehead-1949")
OUT = Path(__file__).resolve().parent.parent / "spec" / "scenarios" / "whole-games.yaml"
DOC_000, DOC_001 = "{doc: 000_3303cbcae4869e02.txt, section: ", "{doc: 001_4c22be3416010ba5.txt, section: "
WIN_SOURCES = [
    DOC_000 + 'Akhir permainan, quote: "Permainan menang saat masing-masing dari 8 fondasi berisi 13 kartu"}',
    DOC_001 + 'Winning and Losing, quote: "You win when all 104 cards are on the foundations"}',
]
LOSS_SOURCES = [
    DOC_001 + 'Winning and Losing, quote: "You lose when no top card can go to a foundation or onto another pile"}',
    DOC_001 + 'Winning and Losing, quote: "shows how many cards reached the foundations"}',
]
# Deals the solver proves not winnable (benchmarks/proved_deals.py finds them): profile, code.
# The three wrap deals: dead at the start by waits.py (docs/solver.md, "Wrap deals dead at the start"),
# one in each base profile with the wrap.
PROVED = (("hoffmann-1892", "CR1-N-AUVOGSX"), ("hoffmann-1892", "CR1-N-EPHYDWP"),
          ("hoffmann-1892", "CR1-N-DAUKHRU"), ("app", "CR1-N-SNJSSDU"), ("open", "CR1-N-YFTTZIP"),
          ("morehead-1949", "CR1-N-JXAWKCP"))
WIN_STATEMENTS = "[000-end-01, 003-end-01, 001-end-01, 001-end-02, 000-reshuffle-06, 003-reshuffle-06]"
LOSS_STATEMENTS = "[000-end-02, 003-end-02, 001-end-03, 001-end-05, 000-reshuffle-06]"


def greedy_loss(profile: str, code: str, cap: int = 2000) -> list[Action] | None:
    """The greedy rule's game (module doc), if it ends ``lost``."""
    game, line, seen = Game.deal(profile, code), list[Action](), set[bytes]()
    while game.status() not in ("won", "lost") and len(line) < cap:
        seen.add(key(game.profile, game.position))
        action = next_greedy(game, seen)
        if action is None:
            return None
        game.play(action)
        line.append(action)
    return line if game.status() == "lost" else None


def next_greedy(game: Game, seen: set[bytes]) -> Action | None:
    moves = movegen.pile_moves(game.profile, game.position)
    home = [m for m in moves if m.dst >= PILES]
    if home:
        return home[0]
    for move in moves:
        probe = Game(game.profile, game.position)
        probe.play(move)
        if key(probe.profile, probe.position) not in seen:
            return move
    return RESHUFFLE if game.position.reshuffles else None


def steps(profile: str, code: str, line: list[Action], end: str) -> list[str]:
    """The YAML lines of a game's steps: counters at each reshuffle, the verdict at the end."""
    game, out = Game.deal(profile, code), []
    for number, action in enumerate(line, 1):
        game.play(action)
        pos = game.position
        if number == len(line):
            home = pos.foundation_count()
            out.append(f"      - action: {action}\n        outcome: accepted\n        state: {{status: {end}, "
                       f"moves: {pos.moves}, reshuffles: {pos.reshuffles}, foundation_cards: {home}}}")
        elif action is RESHUFFLE:
            out.append(f"      - action: reshuffle\n        outcome: accepted\n        state: {{moves: {pos.moves}, "
                       f"reshuffles: {pos.reshuffles}, status: {game.status()}}}")
        else:
            out.append(f"      - {{action: {action}, outcome: accepted}}")
    if game.status() != end:
        raise AssertionError(f"{profile} {code}: the game ends {game.status()}, not {end}")
    return out


def scenario(number: int, profile: str, code: str, line: list[Action], end: str, origin: str,
             proved: bool = False) -> str:
    game = Game.deal(profile, code)
    for action in line:
        game.play(action)
    pos = game.position
    what = (f"a whole won game, {pos.moves} moves and {game.profile.reshuffles - pos.reshuffles} reshuffles"
            if end == "won" else f"a whole lost game, {pos.foundation_count()} cards on the foundations")
    what = f"proved not winnable; {what}" if proved else what
    sources = WIN_SOURCES if end == "won" else LOSS_SOURCES
    head = [f"  - id: whole-games-{number:03d}",
            f'    title: "{code} in {profile}: {what}"',
            "    source:", *(f"      - {s}" for s in sources),
            f"    statements: {WIN_STATEMENTS if end == 'won' else LOSS_STATEMENTS}",
            f"    profiles: [{profile}]", "    features: [game-codes]",
            "    interpretation: [I-DEAL, I-STUCK]",
            f"    # {origin}",
            f"    given:\n      code: {code}", "    steps:"]
    return "\n".join(head + steps(profile, code, line, end))


def won_lines(args: argparse.Namespace, golden: list[str]) -> list[tuple[str, str, list[Action], str]]:
    found = []
    for profile in BASES:
        for code in golden:
            answer = solve(Game.deal(profile, code), Budget(nodes=args.nodes, seconds=args.seconds))
            print(profile, code, answer.verdict, f"{answer.seconds:.1f}s", flush=True)
            if answer.verdict == "winnable":
                found.append((profile, code, list(answer.line), f"solver, {answer.nodes} nodes"))
    for path in args.lines:
        rows = [r for r in results(Path(path)) if r.get("winning_line")]
        for profile in BASES:
            picked = [r for r in rows if r["profile"] == profile][: args.more]
            found += [(profile, r["code"], [Action.from_text(a) for a in r["winning_line"].split()],
                       f"solver line kept by {Path(path).name}") for r in picked]
    return found


def proved_games(first: int, pairs: tuple[tuple[str, str], ...] = PROVED) -> list[str]:
    """The scenarios of ``pairs`` (profile, code), numbered from ``first``: each deal proved not
    winnable by the solver, and the greedy rule's lost game."""
    body = []
    for number, (profile, code) in enumerate(pairs, first):
        answer = solve(Game.deal(profile, code), Budget(seconds=60))
        lost = greedy_loss(profile, code)
        if answer.verdict != "not winnable" or lost is None:
            raise SystemExit(f"{profile} {code}: {answer.verdict}, greedy game {'lost' if lost else 'not lost'}")
        origin = f"line: greedy rule; proved not winnable by the solver, {answer.proof}"
        body.append(scenario(number, profile, code, lost, "lost", origin, proved=True))
    return body


def append_proved() -> None:
    """Add the ``PROVED`` games missing from the file after its last scenario."""
    text = OUT.read_text()
    missing = tuple(pair for pair in PROVED if f'"{pair[1]} in {pair[0]}: proved' not in text)
    if not missing:
        print("every proved deal is in the file already")
        return
    last = max(int(n) for n in re.findall(r"id: whole-games-(\d+)", text))
    body = proved_games(last + 1, missing)
    new = {f"whole-games-{n:03d}" for n in range(last + 1, last + 1 + len(body))}
    write(tag_choices(text.rstrip("\n") + "\n\n" + "\n\n".join(body) + "\n", new))
    print(f"added {len(body)} proved games to {OUT}")


def tag_choices(text: str, ids: set[str]) -> str:
    """``text`` with each scenario of ``ids`` naming in ``interpretation`` every choice its verdict
    depends on, as lint computes them (conformance.corpus.lint.missing_choices)."""
    from conformance.corpus.lint import missing_choices
    from conformance.corpus.load import read_file

    temp = OUT.with_name("whole-games.tagging.yaml")
    temp.write_text(text)
    try:
        scenarios = [sc for sc in read_file(temp) if sc.id in ids]
    finally:
        temp.unlink()
    needed: dict[str, list[str]] = {}
    for sid, choice in missing_choices(scenarios):
        needed.setdefault(sid, []).append(choice)
    for sid, names in needed.items():
        head, _, rest = text.partition(f"id: {sid}\n")
        line = re.search(r"    interpretation: \[(.*)\]\n", rest)
        if line is None:
            raise SystemExit(f"{sid}: no interpretation line")
        tags = ", ".join([line.group(1), *names])
        rest = rest[: line.start()] + f"    interpretation: [{tags}]\n" + rest[line.end():]
        text = f"{head}id: {sid}\n{rest}"
    return text


def write(text: str) -> None:
    temp = OUT.with_suffix(".tmp")
    temp.write_text(text)
    temp.replace(OUT)


def results(path: Path) -> list[dict[str, Any]]:
    """The records of a win-rate results file (gzipped when its name ends ``.gz``)."""
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    records: list[dict[str, Any]] = json.loads(raw)["results"]
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="solver budget per golden deal")
    parser.add_argument("--nodes", type=int, default=3_000_000)
    parser.add_argument("--lines", nargs="*", default=[], help="win-rate JSON files whose lines to add")
    parser.add_argument("--more", type=int, default=2, help="codes taken from each --lines file per profile")
    parser.add_argument("--append-proved", action="store_true", help="only add the missing PROVED games")
    args = parser.parse_args()
    if args.append_proved:
        append_proved()
        return
    golden = [d["code"] for d in load_yaml("deals/golden.yaml")["deals"]]
    games = [(p, c, line, o, "won") for p, c, line, o in won_lines(args, golden)]
    for profile in BASES:
        for code in golden:
            lost = greedy_loss(profile, code)
            if lost is not None:
                games.append((profile, code, lost, "greedy rule of benchmarks/whole_games.py", "lost"))
    body = [scenario(n, p, c, line, end, f"line: {origin}") for n, (p, c, line, origin, end) in enumerate(games, 1)]
    body += proved_games(len(games) + 1)
    write(HEADER + "\n\n".join(body) + "\n")
    print(f"wrote {OUT} ({len(body)} games)")


HEADER = """# yaml-language-server: $schema=../schema/scenario.schema.json
#
# Whole games, from the deal of a game code to the end, every action a step.
# Generated by benchmarks/whole_games.py (its docstring tells how: won games replay lines found by
# the solver, crescent_ref/solver; lost games follow a fixed greedy rule), then kept as data: the
# runner needs neither the script nor the solver. Counters are checked at every reshuffle and at
# the end; a won game ends with 104 cards home, a lost one with the count 001's game shows.
# A lost game does not mean its deal cannot be won, unless its title says "proved not winnable"
# (the proof is in its comment; docs/solver.md has the method and the odds).
area: whole-games
title: Whole games, won and lost
scenarios:
"""


if __name__ == "__main__":
    main()
