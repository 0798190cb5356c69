"""Speed of the reference engine: random playouts and legal-move generation.

Two measurements, each on one core, printed as a table:

(a) playouts: random games; each step asks ``game.legal_moves()`` and applies a random legal move
    (sometimes a reshuffle, and an undo where the profile has one). Rate = applied actions per
    second of wall time, legal-move generation included; dealing is done before the clock starts.
    The time is split into rounds; the best and the median round are shown, and the median rate
    per second of this process's CPU time (other processes on the machine slow some rounds down;
    the load average is printed for that reason).
(b) legal_moves: ``movegen.legal_moves(profile, position)`` timed one call at a time with
    ``time.perf_counter_ns`` on freshly dealt positions (several codes, many repetitions each);
    the timer's own cost (an empty timed region, median) is subtracted. The same is done for
    ``Game.legal_moves()`` on a new position object each call (no per-position cache can help),
    and for mid-game positions collected from the playouts.

Targets: (a) >= 50,000 actions/s, (b) median <= 10 µs on fresh deals.

    python benchmarks/bench_engine.py                 # app, open, hoffmann-1892, morehead-1949
    python benchmarks/bench_engine.py --profile app --seconds 5 --codes 50 --reps 400
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from crescent_ref import Game, GameCode, Position, movegen
from crescent_ref.actions import RESHUFFLE, UNDO
from crescent_ref.profiles import Profile, get_profile

DEFAULT_PROFILES = ("app", "open", "hoffmann-1892", "morehead-1949")
GAME_CAP = 400  # actions before a game that cannot end (undo after a loss) is abandoned


def dealt(profile: str, codes: int) -> list[Position]:
    """Positions dealt (with the profile's autoplay) from ``codes`` consecutive game codes."""
    return [Game.deal(profile, str(GameCode(1 + i * 7919))).position for i in range(codes)]


def play_one(game: Game, rng: random.Random, seen: list[Position]) -> int:
    """Play one random game; returns the number of actions applied."""
    undo = game.profile.undo_limit != 0  # None: no limit
    for count in range(1, GAME_CAP + 1):
        moves = game.legal_moves()
        roll = rng.random()
        if undo and roll < 0.08:
            game.apply(UNDO)
        elif moves and roll < 0.96:
            game.apply(moves[rng.randrange(len(moves))])
        elif game.apply(RESHUFFLE).reason == "game-over" and not (undo and game.apply(UNDO).accepted):
            return count
        if roll < 0.01:
            seen.append(game.position)
    return GAME_CAP


def playouts(profile: str, starts: list[Position], seconds: float, rng: random.Random,
             seen: list[Position]) -> tuple[float, float, int]:
    """Random games for about ``seconds``; returns (actions per second, per CPU second, actions)."""
    actions, games = 0, 0
    begin, cpu = time.perf_counter_ns(), time.process_time_ns()
    deadline = begin + int(seconds * 1e9)
    while time.perf_counter_ns() < deadline:
        actions += play_one(Game(profile, starts[games % len(starts)]), rng, seen)
        games += 1
    elapsed, cpu = time.perf_counter_ns() - begin, time.process_time_ns() - cpu
    return actions * 1e9 / elapsed, actions * 1e9 / max(cpu, 1), actions


def timer_cost(reps: int) -> int:
    """Median cost in ns of an empty region between two perf_counter_ns calls."""
    clock = time.perf_counter_ns
    samples = []
    for _ in range(reps):
        t0 = clock()
        samples.append(clock() - t0)
    return int(statistics.median(samples))


def per_call(call: Callable[[Position], object], positions: list[Position], reps: int, overhead: int) -> list[int]:
    """ns per call of ``call(p)``, one sample per call, on a fresh copy of each position."""
    clock, samples = time.perf_counter_ns, []
    for _ in range(reps):
        for pos in positions:
            fresh = Position(*pos)
            t0 = clock()
            call(fresh)
            samples.append(clock() - t0 - overhead)
    return samples


def game_call(profile: Profile, start: Position) -> Callable[[Position], object]:
    """``Game.legal_moves()`` on a game whose position is set to the given (new) object."""
    game = Game(profile, start)

    def call(pos: Position) -> object:
        game.position = pos
        return game.legal_moves()

    return call


def row(name: str, samples: list[int]) -> str:
    """One table row: median, 10th and 90th percentile, in µs."""
    deciles = statistics.quantiles(samples, n=10)
    return f"  {name:<34} {statistics.median(samples) / 1000:8.2f} {deciles[0] / 1000:8.2f} {deciles[-1] / 1000:8.2f}"


def bench(profile_name: str, args: argparse.Namespace, overhead: int) -> None:
    """Run and print both measurements for one profile."""
    profile = get_profile(profile_name)
    starts = dealt(profile_name, args.codes)
    rng, seen = random.Random(args.seed), list[Position]()
    rounds = [playouts(profile_name, starts, args.seconds / args.rounds, rng, seen) for _ in range(args.rounds)]
    rates = sorted(rate for rate, _, _ in rounds)
    cpu = statistics.median(rate for _, rate, _ in rounds)
    total = sum(n for *_, n in rounds)
    print(f"\n{profile_name}: playouts {rates[-1]:,.0f} actions/s best round, {statistics.median(rates):,.0f} median, "
          f"{cpu:,.0f} per CPU second ({total:,} actions in {args.rounds} rounds, {args.seconds:g} s)")
    print(f"  {'legal moves, µs per call':<34} {'median':>8} {'p10':>8} {'p90':>8}")
    fresh = per_call(lambda p: movegen.legal_moves(profile, p), starts, args.reps, overhead)
    print(row(f"movegen.legal_moves, {len(starts)} deals", fresh))
    print(row("Game.legal_moves, same deals", per_call(game_call(profile, starts[0]), starts, args.reps, overhead)))
    mid = seen[: args.codes * 4]
    if len(mid) >= 10:
        print(row(f"movegen.legal_moves, {len(mid)} mid-game", per_call(lambda p: movegen.legal_moves(profile, p), mid,
                                                                      max(1, args.reps // 4), overhead)))


def main(argv: list[str] | None = None) -> None:
    """Parse the options, then benchmark each profile."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="append", help="profile name (repeatable); default: the four bases")
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per profile")
    parser.add_argument("--rounds", type=int, default=5, help="playout rounds (the time is split among them)")
    parser.add_argument("--codes", type=int, default=20, help="dealt game codes to use")
    parser.add_argument("--reps", type=int, default=500, help="timed calls per dealt position")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random player")
    args = parser.parse_args(argv)
    overhead = timer_cost(20_000)
    print("crescent_ref engine benchmark: one process, one core, time.perf_counter_ns")
    print(f"timer overhead {overhead} ns (subtracted from every per-call sample); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name in args.profile or DEFAULT_PROFILES:
        bench(name, args, overhead)


if __name__ == "__main__":
    main()
