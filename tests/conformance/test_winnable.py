"""``winnable``: a claimed-winnable code is won by replaying the solver's line on the implementation."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from harness import SPY

from conformance.adapter import AdapterError, Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main
from conformance.explore.winnable import CodeCheck, check_code, exit_code
from crescent_ref import __version__
from crescent_ref.solver import Budget
from crescent_ref.state_json import game_state

EASY = "CR1-N-BAAAAAA"  # the solver wins it in app within a few thousand positions
BUDGET = Budget(nodes=40_000, seconds=60)


class RefusesSpadesUp(ReferenceAdapter):
    """A faulty implementation: it refuses every card onto the Ace foundation of spades (every
    winning line has twelve such moves)."""

    def act(self, action: str) -> Reply:
        if action.endswith("-A♠"):
            return Reply(False, "out-of-sequence", None, ())
        return super().act(action)


def test_the_reference_wins_a_code_the_solver_wins() -> None:
    check = check_code(ReferenceAdapter(), "app", EASY, BUDGET)
    assert (check.finding, exit_code([check])) == ("won", 0)


def test_an_implementation_that_refuses_a_step_of_the_line_does_not_win() -> None:
    check = check_code(RefusesSpadesUp(), "app", EASY, BUDGET)
    assert check.finding == "not-won" and "-A♠ refused (out-of-sequence)" in check.detail
    assert exit_code([check]) == 1


def test_an_undecided_code_is_unknown_and_the_check_does_not_pass() -> None:
    check = check_code(ReferenceAdapter(), "app", "CR1-N-AAAAAAA", Budget(nodes=200))
    assert check.finding == "unknown" and exit_code([check]) == 1
    assert exit_code([CodeCheck("x", "app", "not-winnable", "proved")]) == 1


def test_a_claim_on_a_deal_proved_not_winnable_is_false_and_says_why() -> None:
    check = check_code(ReferenceAdapter(), "hoffmann-1892", "CR1-N-AUVOGSX", BUDGET)  # docs/solver.md
    assert check.finding == "not-winnable" and exit_code([check]) == 1
    assert check.detail.startswith("proved: dead at the start: A♥ on pile 6 is locked")


def test_the_subcommand_reports_each_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winnable", "--profile", "app", "--codes", EASY, "--nodes", "40000"]) == 0
    out = capsys.readouterr().out
    assert f"{EASY} app: won" in out and f"winnable check of crescent_ref {__version__}: 1 won, 0 not-won" in out


def test_the_label_names_the_run_and_a_listed_code_is_worded_as_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--label names the run in the summary (it was taken and never shown); a listed code that wins is an
    unexpected pass, one that does not an expected failure (the words of run, smoke and perft)."""
    known = tmp_path / "known.yaml"
    known.write_text(f"deviations:\n  winnable/{EASY}: said to differ\n", encoding="utf-8")
    argv = ["winnable", "--codes", EASY, "--nodes", "40000", "--label", "my-game 2.4"]
    assert main([*argv, "--expectations", str(known)]) == 1
    out = capsys.readouterr().out
    assert f"UNEXPECTED PASS: {EASY} app: won" in out and "winnable check of my-game 2.4: 1 won" in out


class SaysWonMovesNothing(ReferenceAdapter):
    """Accepts every action, moves no card, and reports the status ``won`` (the adapter's word only)."""

    def act(self, action: str) -> Reply:
        return Reply(True, None, "move", (), {**game_state(self._game()), "status": "won"})


class HidesTheFoundations(ReferenceAdapter):
    """Plays the line for real but reports no foundations: the win cannot be seen on its table."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        return Reply(reply.accepted, reply.reason, reply.effect, reply.moves,
                     {k: v for k, v in reply.state.items() if k != "foundations"})  # fmt: skip


def test_a_won_status_without_the_cards_home_is_not_a_win() -> None:
    check = check_code(SaysWonMovesNothing(), "app", EASY, BUDGET)
    assert check.finding == "not-won" and "foundation" in check.detail
    assert exit_code([check]) == 1


class EmptiesTheFoundations(ReferenceAdapter):
    """Plays the line for real but reports every foundation empty (an empty mapping)."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        return Reply(reply.accepted, reply.reason, reply.effect, reply.moves, {**reply.state, "foundations": {}})


def test_a_foundation_the_state_leaves_out_is_said_missing() -> None:
    check = check_code(EmptiesTheFoundations(), "app", EASY, BUDGET)
    assert check.finding == "not-won" and "8 foundation(s) are not finished (A♠ missing" in check.detail
    assert "None" not in check.detail


def test_a_state_without_foundations_is_not_taken_as_a_win() -> None:
    check = check_code(HidesTheFoundations(), "app", EASY, BUDGET)
    assert check.finding == "not-won" and "no foundations" in check.detail


def test_winnable_in_a_profile_not_declared_judges_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winnable", "--impl", "tests.hostile.hostile_impls:skipper", "--codes", EASY]) == 1
    assert "nothing was judged" in capsys.readouterr().err


class CrashesMidway(ReferenceAdapter):
    """Fails like a crashed process at the fifth action."""

    acts = 0

    def act(self, action: str) -> Reply:
        self.acts += 1
        if self.acts == 5:
            raise AdapterError("the implementation exited (crash)")
        return super().act(action)


def test_an_adapter_fault_is_the_codes_result() -> None:
    check = check_code(CrashesMidway(), "app", EASY, BUDGET)
    assert check.finding == "not-won" and "the adapter failed: at action " in check.detail, check.detail
    assert "): the implementation exited (crash)" in check.detail, check.detail


def test_over_stdio_the_line_goes_in_one_write(tmp_path: Path) -> None:
    # the start and the solver's line are announced: the reference's serve gets them as one batch line
    serve = [sys.executable, "-m", "crescent_ref.serve"]
    adapter = StdioAdapter(shlex.join([sys.executable, str(SPY), str(tmp_path), *serve]))
    try:
        check = check_code(adapter, "app", EASY, BUDGET)
        calls = adapter.calls
    finally:
        adapter.close()
    assert check.finding == "won" and calls > 50
    sent = (tmp_path / "sent").read_bytes().splitlines()
    assert len(sent) == 3 and b'"cmd":"batch"' in sent[1]  # the handshake, the batch, stop
