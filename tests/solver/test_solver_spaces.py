"""The scan for small starts (benchmarks/small_spaces.py): its finding about CR1-N-LPZEZLQ holds, and
the first phase it counts is the engine's own (no move at all: the only step is the reshuffle). The
proof by phases (benchmarks/exhaust.py) gives the brute force's verdict on small positions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from crescent_ref.game import Game
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast
from crescent_ref.solver.search import Budget
from tests.solver.small import brute_force, small_position

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import exhaust  # noqa: E402  (a benchmark script, imported from its folder)

CANDIDATE = "CR1-N-LPZEZLQ"  # code 34,258 of the win-rate list
needs_core = pytest.mark.skipif(bool(fast.refusal(get_profile("app"))), reason="the compiled core is not built")


def test_the_candidate_has_no_move_at_the_start() -> None:
    game = Game.deal("app", CANDIDATE)
    assert game.legal_moves() == [] and game.status() not in ("won", "lost")


@pytest.mark.skipif(bool(fast.refusal(Game.deal("app", CANDIDATE).profile)), reason="the compiled core is not built")
def test_the_scan_finds_the_candidate_small_before_its_second_reshuffle() -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / "small_spaces.py"), "--first", "34257", "--count", "3",
                           "--caps", "60", "20000", "2000"], capture_output=True, text=True, timeout=300, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == f"{CANDIDATE} R>=3:[0, 0, 0, 1]:dry R>=2:[0, 0, 36, 1]:dry R>=1:[0, 1999, 1, 1]:cap"
    assert lines[-1].startswith("app: 3 codes") and lines[-1].endswith("every stage ran dry for 0: -")


@needs_core
@pytest.mark.parametrize("profile", ["app", "open"])
def test_the_phases_and_their_roots_give_the_brute_forces_verdict(profile: str) -> None:
    rules = get_profile(profile)
    core = fast.core_for(rules, fast.COMPILED)
    assert core is not None
    seen = set()
    for seed in range(40):
        pos = small_position(seed, most=7)._replace(reshuffles=2)
        phases = exhaust.enumerate_phases(rules, core, pos, 1, 100_000)
        roots = list(phases.roots.values())
        answers = [] if phases.won else exhaust.solve_roots(rules, core, roots, Budget(10**9, 60, 10**6), False)
        found = exhaust.verdict(phases, answers, len(roots))
        assert found == ("winnable" if brute_force(profile, pos) else "not winnable"), pos.to_text()
        seen.add(found)
    assert seen == {"winnable", "not winnable"}


@needs_core
def test_the_candidate_has_seven_roots_with_one_reshuffle_left_in_open() -> None:
    game = Game.deal("open", CANDIDATE)
    core = fast.core_for(game.profile, fast.COMPILED)
    assert core is not None
    phases = exhaust.enumerate_phases(game.profile, core, game.position, 2, 1_000)
    assert (phases.counted, phases.won, phases.dry, len(phases.roots)) == (8, False, True, 7)


@needs_core
def test_the_scan_skips_starts_with_more_moves_than_asked_before_any_census() -> None:
    command = [sys.executable, str(BENCHMARKS / "small_spaces.py"), "--first", "34257", "--count", "3",
               "--caps", "60", "1", "--most-moves", "0"]
    lines = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [CANDIDATE]  # the one start without a move
    assert lines[-1].startswith("app: 3 codes (2 skipped by --most-moves)")
