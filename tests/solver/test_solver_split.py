"""The proof split at the last reshuffle (benchmarks/split.py) gives the brute force's verdict on
small positions with one reshuffle left: the walk of the positions before it, each last root
solved on its own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast
from crescent_ref.solver.search import Budget
from tests.solver.small import brute_force, small_position

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import split  # noqa: E402  (a benchmark script, imported from its folder)

needs_core = pytest.mark.skipif(bool(fast.refusal(get_profile("app"))), reason="the compiled core is not built")


def walked(profile: str, seed: int) -> tuple[str, bool, split.Split]:
    rules = get_profile(profile)
    core = fast.core_for(rules, fast.COMPILED)
    assert core is not None
    pos = small_position(seed, most=8)._replace(reshuffles=1)
    found = split.Split(rules, core, Budget(10**9, 60, 10**6), pairs=seed % 2 == 1)
    return found.walk(pos, 60, 10**9), brute_force(profile, pos), found


@needs_core
@pytest.mark.parametrize("profile", ["app", "open", "morehead-1949"])
def test_the_split_proof_gives_the_brute_forces_verdict(profile: str) -> None:
    verdicts = set()
    for seed in range(40):
        verdict, won, _ = walked(profile, seed)
        assert verdict == ("winnable" if won else "not winnable"), (profile, seed)
        verdicts.add(verdict)
    assert verdicts == {"winnable", "not winnable"}


@needs_core
def test_a_proof_solves_each_last_root_once_and_counts_how() -> None:
    for seed in range(40):
        verdict, _, found = walked("app", seed)
        if verdict == "not winnable" and found.last_roots:
            solved = sum(n for what, n in found.counts.items() if what.startswith("not winnable"))
            assert solved == len(found.last_roots) and found.counts["unknown"] == 0
            return
    pytest.fail("no small position with a last root was proved not winnable")


@needs_core
def test_a_second_run_on_the_record_solves_no_proved_last_root_again(tmp_path: Path) -> None:
    rules = get_profile("app")
    core = fast.core_for(rules, fast.COMPILED)
    assert core is not None
    for seed in range(40):
        record = tmp_path / f"record-{seed}.txt"
        pos = small_position(seed, most=8)._replace(reshuffles=1)
        first = split.Split(rules, core, Budget(10**9, 60, 10**6), pairs=False)
        with split.resumed(first, record):
            verdict = first.walk(pos, 60, 10**9)
        if verdict == "not winnable" and len(first.last_roots) > 1:
            break
    else:
        pytest.fail("no small position with two last roots proved")
    again = split.Split(rules, core, Budget(10**9, 60, 10**6), pairs=False)
    with split.resumed(again, record):
        assert again.walk(pos, 60, 10**9) == "not winnable"
    assert again.counts["not winnable in the record"] == len(again.last_roots) and again.nodes == 0
    assert len(record.read_text().splitlines()) == len(first.last_roots)


@needs_core
def test_a_damaged_record_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    rules = get_profile("app")
    core = fast.core_for(rules, fast.COMPILED)
    assert core is not None
    record = tmp_path / "record.txt"
    record.write_text("00" * 16 + "\nnot hex\n")
    found = split.Split(rules, core, Budget(), pairs=False)
    with (pytest.raises(SystemExit, match=r"record.txt:2: not a last root's digest: 'not hex'"),
          split.resumed(found, record)):
        pass
    assert record.read_text() == "00" * 16 + "\nnot hex\n"  # nothing written
