"""A one-suit or two-suit position decided at its start costs no more than the question: its search
asks only whether its start is dead, not why (``Search.reasons``: the same verdicts, nodes and
searches as when the sentence is written, and the sentence-writing functions are never called by
it), and on the compiled loop suits.c answers it without calling into Python."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, get_profile
from crescent_ref.solver import Budget, dead, fast, orders, solve, waits
from crescent_ref.solver import search as searching
from crescent_ref.solver.search import Search
from tests.solver.small import DISTINCT, small_position

CORES = ("python", "compiled")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("profile", DISTINCT)
def test_the_rule_at_the_start_is_the_reason_at_the_start(profile: str, core: str) -> None:
    rules = get_profile(profile)
    compiled = fast.core_for(rules, core)
    plain = Search(rules, Budget(), core=compiled)
    quiet = Search(rules, Budget(), core=compiled, reasons=False)
    found = [small_position(seed, most=9) for seed in range(300)]
    said = [bool(plain.dead_at_start(pos)) for pos in found]
    assert said == [bool(quiet.dead_at_start(pos)) for pos in found]
    assert 0 < sum(said) < len(said)  # both answers occur


# each past the first round of restarts, where last.py's one-suit searches run (hoffmann-1892's first
# round is 8 searches of 32,000 nodes: only on the compiled core, for time)
SOLVES = [("app", "CR1-N-AAEJFOT", 80_000, "python"), ("app", "CR1-N-AAEJFOT", 80_000, "compiled"),
          ("hoffmann-1892", "CR1-N-AGUYBTS", 300_000, "compiled")]


@pytest.fixture(autouse=True)
def general_one_suit_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests watch the general one-suit searches: onesuit.c (search.SUIT_DECIDE_NODES) stays off."""
    monkeypatch.setattr(searching, "SUIT_DECIDE_NODES", 0)


@pytest.mark.parametrize("profile, code, nodes, core", SOLVES)
def test_inner_searches_write_no_reasons(monkeypatch: pytest.MonkeyPatch, profile: str, code: str, nodes: int,
                                         core: str) -> None:
    budget = Budget(nodes=nodes, seconds=1e9)
    before = solve(Game.deal(profile, code), budget, core=core)
    inner: list[bool] = []  # per start judged: whether the search was a one-suit (or two-suit) one
    written: list[bool] = []  # per sentence written: whether a one-suit search's start asked for it
    original = Search.dead_at_start

    def judged(self: Search, start: Position) -> str:
        inner.append(self.keep_met)  # only the one-suit and two-suit searches keep what they met
        return original(self, start)

    def counted(write: Callable[[Profile, Position], str]) -> Callable[[Profile, Position], str]:
        def sentence(rules: Profile, pos: Position) -> str:
            written.append(inner[-1])
            return write(rules, pos)
        return sentence

    monkeypatch.setattr(Search, "dead_at_start", judged)
    monkeypatch.setattr(searching, "explain", counted(dead.explain))
    monkeypatch.setattr(waits, "explain", counted(waits.explain))
    after = solve(Game.deal(profile, code), budget, core=core)
    assert (after.verdict, after.nodes, after.searches, after.line) == (
        before.verdict, before.nodes, before.searches, before.line)
    assert any(inner) and not any(written)  # one-suit searches ran, and none of them wrote a sentence


def test_one_suit_positions_decided_at_their_start_stay_in_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """suits.c answers a one-suit position that is won, lost or dead at its start itself (what
    Search.run would answer with no node made); only the others are searched by Python. Both loops
    learn the same one-suit answers, and solve alike."""
    monkeypatch.setattr(orders, "NO_WRAP_FIRST", orders.FIRST_SLICE)  # to the later rounds sooner, where
    # last.py's sweeps meet one-suit positions dead at their start (1,993 of 2,833 asked of Python before)
    game, budget = Game.deal("hoffmann-1892", "CR1-N-AGUYBTS"), Budget(nodes=400_000, seconds=1e9)
    compiled = fast.core_for(game.profile, "compiled")
    assert compiled is not None
    decided: list[bool] = []  # per one-suit position searched by Python: decided at its start?
    original = Search.suit_verdict

    def counted(self: Search, part: Position) -> tuple[str, int]:
        decided.append(compiled.status(part) in ("won", "lost") or compiled.dead(part) or bool(compiled.waits(part)))
        return original(self, part)

    monkeypatch.setattr(Search, "suit_verdict", counted)
    memos = []
    for loop in (True, False):
        monkeypatch.setattr(fast, "LOOP", loop)
        restarts = searching.Restarts(game.profile, budget, True, None, compiled,
                                      first=orders.first_slice(game.profile))
        memos.append((restarts.run(game.position), restarts.memo))
    (answer, memo), (python_answer, python_memo) = memos
    assert (answer.verdict, answer.nodes, answer.searches) == (
        python_answer.verdict, python_answer.nodes, python_answer.searches)
    assert memo == python_memo and "not winnable" in memo.values()
    assert decided and not any(decided)  # Python searched one-suit positions, none decided at its start
