"""The scan for small starts (benchmarks/small_spaces.py): its finding about CR1-N-LPZEZLQ holds, and
the first phase it counts is the engine's own (no move at all: the only step is the reshuffle)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from crescent_ref.game import Game
from crescent_ref.solver import fast

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"
CANDIDATE = "CR1-N-LPZEZLQ"  # code 34,258 of the win-rate list


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
