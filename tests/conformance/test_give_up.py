"""An implementation that faults on every game is given up after a few fresh processes, not started for
each scenario; one that faults only on some games is never given up (conformance.adapters.stdio)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import HERE, PYTHON, Pair, cli, key, passing_pairs, run_pairs
from plugin_runs import prepared, run

from conformance.adapter import GIVEN_UP, NOT_SENT, RESTART_LIMIT
from conformance.adapters.session import make_adapter
from conformance.adapters.stdio import StdioAdapter
from conformance.wording import spoiled

DOOMED = HERE / "fakes" / "doomed_engine.py"
LENIENT = 30.0  # seconds for a request that should succeed (a loaded machine starts Python slowly)


def doomed(mode: str, starts: Path, timeout: float = LENIENT, limit: int = RESTART_LIMIT) -> StdioAdapter:
    """The adapter of doomed_engine.py in MODE, each start logged to ``starts``."""
    return StdioAdapter(f"{PYTHON} {DOOMED} {mode} {starts}", timeout=timeout, restart_limit=limit)


def started(starts: Path) -> int:
    """How many processes the fake saw started."""
    return len(starts.read_text().split()) if starts.exists() else 0


def positions(n: int) -> list[Pair]:
    """``n`` passing pairs that start from a position text."""
    return [p for p in passing_pairs() if not p[0].code][:n]


def codes(n: int) -> list[Pair]:
    """``n`` passing pairs that start from a game code."""
    return [p for p in passing_pairs() if p[0].code][:n]


def test_a_crash_on_every_game_is_given_up_after_the_limit_and_a_probe(tmp_path: Path) -> None:
    results = run_pairs(doomed("crash", tmp_path / "starts"), positions(10))
    details = [r.detail for r in results.values()]
    assert all(r.verdict == "errored" for r in results.values())
    # the first game's crash is placed by playing it again alone, which faults too: three faults in two games
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1, "three faulted processes, then one plain game, then none"
    own = RESTART_LIMIT - 1
    assert not any(d.startswith(GIVEN_UP) for d in details[:own]), details[:own]
    assert details[0].startswith("at the game's start: "), details[0]
    assert all(d.startswith(GIVEN_UP) for d in details[own:]), details[own:]
    assert "exited (crash)" in details[-1] and f"after {RESTART_LIMIT + 1} fresh processes" in details[-1]


def test_a_hang_on_every_game_costs_a_few_timeouts_not_one_a_scenario(tmp_path: Path) -> None:
    results = run_pairs(doomed("hang", tmp_path / "starts", timeout=2.0), positions(8))
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1
    last = list(results.values())[-1]
    assert last.detail.startswith(GIVEN_UP) and "(hang)" in last.detail, last.detail


def test_an_implementation_that_starts_games_but_hangs_on_every_action_is_given_up(tmp_path: Path) -> None:
    chosen = [p for p in positions(40) if p[0].steps][:8]
    results = run_pairs(doomed("acts", tmp_path / "starts", timeout=2.0), chosen)
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1
    last = results[key(chosen[-1])]
    assert last.detail.startswith(GIVEN_UP) and "(hang)" in last.detail, last.detail


def test_faults_on_some_games_only_are_not_given_up(tmp_path: Path) -> None:
    """Crashes on every position text, but a game code's deal plays: the plain game answers, play goes on."""
    chosen = positions(RESTART_LIMIT + 2) + codes(3)
    results = run_pairs(doomed("positions", tmp_path / "starts"), chosen)
    assert [results[key(p)].verdict for p in chosen[-3:]] == ["passed"] * 3, [r.detail for r in results.values()]
    assert not any(r.detail.startswith(GIVEN_UP) for r in results.values())


def test_a_refused_plain_game_is_an_answer_and_no_later_scenario_is_told_of_it(tmp_path: Path) -> None:
    chosen = positions(RESTART_LIMIT + 3)
    results = run_pairs(doomed("refusing", tmp_path / "starts"), chosen)
    details = [results[key(p)].detail for p in chosen]
    assert all("exited (crash)" in d and "deals no codes" not in d for d in details), details
    assert not any(spoiled("errored", d) and GIVEN_UP in d for d in details), "the refusal was an answer"
    lost = [d for d in details if d.startswith(f"games given by position text {NOT_SENT}")]
    # three faults in two games (the first played again alone to place its crash), then the position texts lost
    assert details[-len(lost) :] == lost and len(lost) == len(chosen) - (RESTART_LIMIT - 1), details


def test_a_limit_of_zero_starts_it_again_for_every_game(tmp_path: Path) -> None:
    results = run_pairs(doomed("crash", tmp_path / "starts", limit=0), positions(6))
    # the first game is played again alone, to place its crash; it crashes at the start again, so the games
    # after it (faulting too) are not: no more than one process a game from then on
    assert started(tmp_path / "starts") == 6 + 1
    assert not any(r.detail.startswith(GIVEN_UP) for r in results.values())


def test_make_adapter_passes_the_limit_on(tmp_path: Path) -> None:
    adapter = make_adapter(cmd=f"{PYTHON} {DOOMED} crash {tmp_path / 's'}", restart_limit=7)
    assert isinstance(adapter, StdioAdapter) and adapter.restart_limit == 7


def test_run_and_report_fold_the_runs_after_giving_up_into_one_block(tmp_path: Path) -> None:
    command, saved = f"{PYTHON} {DOOMED} crash {tmp_path / 'starts'}", str(tmp_path / "report.json")
    for done in (cli("run", "--cmd", command, "--profile", "app", "--report", saved), cli("report", saved)):
        assert done.returncode == (1 if "--cmd" in done.args else 0), done.stderr
        assert done.stdout.count("GIVEN UP from ") == 1, done.stdout[-3000:]
        # the runs before it in full (the first faulted twice: played, then played alone), the rest in the block
        assert done.stdout.count("ERRORED") == RESTART_LIMIT - 1, done.stdout[-3000:]
        assert "--restart-limit 0" in done.stdout
    page = tmp_path / "report.html"
    assert cli("html-report", saved, "--out", str(page)).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert html.count("GIVEN UP from ") == 1 and html.count('<span class="badge errored">') == RESTART_LIMIT - 1


@pytest.mark.parametrize("value", ["-1", "x", "1.5"])
def test_a_bad_limit_is_a_usage_error(value: str) -> None:
    done = cli("smoke", "--cmd", "true", "--restart-limit", value)
    assert done.returncode == 2 and "--restart-limit" in done.stderr, done.stderr


@pytest.fixture
def kit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return prepared(pytester, monkeypatch)


def test_pytest_stops_the_session_once_the_implementation_is_given_up(kit: pytest.Pytester, tmp_path: Path) -> None:
    result = run(kit, f"--crescent-cmd={PYTHON} {DOOMED} crash {tmp_path / 'starts'}", "-q")
    assert result.ret == 1
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1
    outcomes = result.parseoutcomes()  # two items' own faults (the first's played again alone), then given up
    assert outcomes.get("errors") == RESTART_LIMIT and "passed" not in outcomes, outcomes
    assert "crescent: given up after" in result.stdout.str()


def test_pytest_takes_the_limit_and_refuses_a_bad_one(kit: pytest.Pytester, tmp_path: Path) -> None:
    command = f"--crescent-cmd={PYTHON} {DOOMED} crash {tmp_path / 'starts'}"
    limited = run(kit, command, "-q", "--crescent-restart-limit=1")
    assert limited.ret == 1 and started(tmp_path / "starts") == 2
    bad = run(kit, "--crescent-cmd=true", "--crescent-restart-limit=-1")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--crescent-restart-limit '-1'" in bad.stderr.str()


CODES = ("CR1-N-BAAAAAA", "CR1-N-BAAAAAB", "CR1-N-BAAAAAC", "CR1-N-BAAAAAD", "CR1-N-BAAAAAE", "CR1-N-BAAAAAF")
DOORS: dict[str, tuple[str, ...]] = {  # every command that plays, with more games than the limit
    "run": ("run",),
    "smoke": ("smoke",),
    "perft": ("perft", "--max-depth", "1"),
    "fuzz": ("fuzz", "--games", "8", "--steps", "4", "--no-shrink", "--quiet", "--out", "{tmp}/found"),
    "winnable": ("winnable", "--codes", *CODES, "--seconds", "5"),
}


@pytest.mark.parametrize("door", list(DOORS))
def test_every_command_gives_up_alike(door: str, tmp_path: Path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in DOORS[door]]
    done = cli(*argv, "--cmd", f"{PYTHON} {DOOMED} crash {tmp_path / 'starts'}")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1, done.stdout[-2000:]
    assert GIVEN_UP in done.stdout + done.stderr, done.stdout[-2000:]


def test_fuzz_plays_no_more_games_once_the_implementation_is_given_up(tmp_path: Path) -> None:
    command = f"{PYTHON} {DOOMED} crash {tmp_path / 'starts'}"
    done = cli("fuzz", "--games", "500", "--steps", "4", "--quiet", "--out", str(tmp_path), "--cmd", command)
    assert done.returncode == 1, done.stderr[-2000:]
    played = re.search(r"stopped after (\d+) games: the implementation was given up", done.stdout)
    assert played is not None and int(played[1]) <= RESTART_LIMIT + 1, done.stdout
    assert started(tmp_path / "starts") == RESTART_LIMIT + 1


def test_pytest_stops_the_session_at_a_failed_handshake(kit: pytest.Pytester, tmp_path: Path) -> None:
    """No item can play without a handshake: one error and the reason, not one error per item."""
    banner = tmp_path / "banner.sh"
    banner.write_text(f"echo 'My Crescent 1.0 starting...'\nexec {PYTHON} -m crescent_ref.serve\n", encoding="utf-8")
    result = run(kit, f"--crescent-cmd=sh {banner}", "-q")
    assert result.ret == 1 and result.parseoutcomes().get("errors") == 1, result.stdout.str()[-2000:]
    assert "crescent: handshake failed" in result.stdout.str() and "banners and logs to stderr" in result.stdout.str()
