"""The compiled core (crescent_ref/solver/csrc/) gives the Python core's answers: every primitive
agrees on positions along random games, whole solves expand the same positions (same verdicts,
node counts, searches and lines), small positions get the brute force's verdict; the choice of
core is visible and can be forced; a failed build leaves the pure-Python kit."""

from __future__ import annotations

import importlib.util
import itertools
import os
import random
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from crescent_ref import movegen
from crescent_ref.actions import RESHUFFLE
from crescent_ref.game import Game, status_of
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import Answer, Budget, canon, dead, fast, last, orders, search, solve, suits, waits
from tests.solver.small import PROFILES, brute_force, small_position

BUILT = not fast.refusal(get_profile("app"))
needs_core = pytest.mark.skipif(not BUILT, reason=fast.MISSING or "the compiled core is not built")
MORE = (*PROFILES, "app+give-backs", "open+closed", "hoffmann-1892+give-backs", "app+nine")
CODES = ("CR1-N-BAAAAAA", "CR1-N-AAEJFOT", "CR1-N-AADXHSR")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def general_one_suit_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both loops ask the general one-suit search here: onesuit.c (search.SUIT_DECIDE_NODES) changes
    what the compiled loop expands; tests/solver/test_solver_onesuit.py holds it to the brute force."""
    monkeypatch.setattr(search, "SUIT_DECIDE_NODES", 0)


def on(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast.ENV, core)


def played(profile: str, seed: int, games: int = 3, steps: int = 120) -> Iterator[Position]:
    """Positions along random games (moves and reshuffles) of random deals."""
    rng = random.Random(seed)
    for _ in range(games):
        game = Game.deal(profile, "CR1-N-" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(7)))
        for _ in range(steps):
            yield game.position
            actions = game.legal_moves()
            if game.position.reshuffles and game.status() not in ("won", "lost"):
                actions.append(RESHUFFLE)
            if not actions:
                break
            game.play(rng.choice(actions))


@needs_core
@pytest.mark.parametrize("profile", MORE)
def test_every_primitive_gives_the_python_answer(profile: str) -> None:
    rules = get_profile(profile)
    core = fast.build(rules)
    for pos in played(profile, 7):
        moves = movegen.pile_moves(rules, pos)
        assert core.pile_moves(pos) == moves, pos
        assert core.foundation_moves(pos) == movegen.foundation_moves(rules, pos), pos
        assert core.status(pos) == status_of(rules, pos, moves), pos
        assert core.key(pos) == canon.key(rules, pos), pos
        assert core.witness(pos) == dead.witness(rules, pos), pos
        assert list(core.waits(pos)) == waits.stuck(rules, pos), pos
        every: list[orders.Order] = [*orders.PORTFOLIO, orders.depth_first]
        for order in every:
            assert core.score(pos, fast.order_params(order)) == order(pos), (pos, order)
        plain = suits.Plain(rules)
        assert core.suits(pos) == tuple(plain.suits(pos)), pos
        for suit in range(4):
            part = core.one_suit(pos, suit)
            assert part == suits.one_suit(pos, suit), (pos, suit)
            assert core.key(part) == plain.key(part), (pos, suit)
            marks = core.rotating(pos, suit)
            assert marks == last.rotating(pos, suit), (pos, suit)
            assert core.marked_key(part, marks) == last.marked_key(part, marks), (pos, suit)
        assert core.children(pos) == [(s, canon.after(rules, pos, s)) for s in canon.steps(rules, pos, moves)], pos
        if status_of(rules, pos, moves) not in ("won", "lost"):
            chosen = search.choices(rules, pos, moves)
            assert [canon.after(rules, pos, s) for s in chosen if s != (RESHUFFLE,)] == [
                c for s, c in core.children(pos) if s in chosen], pos


@needs_core
@pytest.mark.parametrize("profile", ("app", "open", "hoffmann-1892"))
def test_the_compiled_expand_queues_children_with_the_python_tie_break(profile: str) -> None:
    rules = get_profile(profile)
    core = fast.build(rules)
    seeded = orders.Promise(8, 48, 1, 4, seed=5, spread=8)
    ties = set()
    for pos in played(profile, 11, games=2, steps=60):
        if core.status(pos) in ("won", "lost"):
            continue
        frontier: list[tuple[int, int, bytes, Position]] = []
        core.expand(pos, core.key(pos), {}, frontier, itertools.count(), fast.order_params(seeded), True)
        for rank, _, key, child in frontier:
            assert -rank == seeded(child) + orders.noise(seeded, key), (pos, child)
            ties.add(orders.noise(seeded, key))
    assert len(ties) == 8  # the compiled core sees the spread, not only a zero


@needs_core
@pytest.mark.parametrize("profile", MORE)
def test_the_waiting_rule_finds_the_same_stuck_cards_on_small_and_late_positions(profile: str) -> None:
    rules = get_profile(profile)
    core = fast.build(rules)
    fired = 0
    for seed in range(300):
        pos = small_position(seed)
        for reshuffles in range(min(pos.reshuffles, rules.reshuffles) + 1):
            late = pos._replace(reshuffles=reshuffles)
            assert list(core.waits(late)) == waits.stuck(rules, late), (seed, late)
            fired += bool(core.waits(late))
    assert fired or rules.give_backs


@needs_core
def test_moves_and_reshuffles_turn_face_down_cards_as_the_engine_does() -> None:
    rules = get_profile("morehead-1949")
    core = fast.build(rules)
    from crescent_ref import transitions

    for pos in played("morehead-1949", 3):
        assert core.reshuffle(pos) == transitions.reshuffle(pos), pos
        for move in movegen.legal_moves(rules, pos):
            assert core.move(pos, move.src, move.dst, 1) == transitions.move(pos, move.src, move.dst, count=1), pos


def both(game: Game, budget: Budget, monkeypatch: pytest.MonkeyPatch, **options: str) -> tuple[Answer, Answer]:
    on(fast.PYTHON, monkeypatch)
    python = solve(game, budget, **options)  # type: ignore[arg-type]
    on(fast.COMPILED, monkeypatch)
    compiled = solve(game, budget, **options)  # type: ignore[arg-type]
    return python, compiled


def alike(python: Answer, compiled: Answer) -> tuple[object, ...]:
    return python.verdict, python.nodes, python.searches, python.stored, python.line, python.proof


@needs_core
@pytest.mark.parametrize("profile", ["app", "open", "hoffmann-1892", "morehead-1949"])
def test_whole_solves_expand_the_same_positions(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for code in CODES:
        python, compiled = both(Game.deal(profile, code), Budget(nodes=6_000, seconds=60), monkeypatch)
        assert (python.core, compiled.core) == (fast.PYTHON, fast.COMPILED)
        assert alike(compiled, compiled) == alike(python, compiled), code


@needs_core
@pytest.mark.parametrize("profile", ["app", "open", "hoffmann-1892"])
def test_the_compiled_loop_expands_what_the_python_loop_does_on_the_compiled_core(
        profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    on(fast.COMPILED, monkeypatch)
    monkeypatch.setattr(orders, "NO_WRAP_FIRST", orders.FIRST_SLICE)  # past the first round in hoffmann-1892 too
    game, budget = Game.deal(profile, "CR1-N-AAEJFOT"), Budget(nodes=40_000, seconds=120)
    monkeypatch.setattr(fast, "LOOP", False)
    python_loop = solve(game, budget)
    monkeypatch.setattr(fast, "LOOP", True)
    compiled_loop = solve(game, budget)
    assert alike(compiled_loop, compiled_loop) == alike(python_loop, compiled_loop)
    assert python_loop.searches > 1


@needs_core
@pytest.mark.parametrize("profile", ["app", "hoffmann-1892"])
def test_kept_tables_change_no_answer(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search takes the table an earlier one left (csrc/table.c's table_take): a solve repeated after
    other solves on the same core, its tables kept from theirs, expands the same positions."""
    on(fast.COMPILED, monkeypatch)
    budget = Budget(nodes=60_000, seconds=120)
    first = solve(Game.deal(profile, "CR1-N-AAEJFOT"), budget)
    for code in CODES:
        solve(Game.deal(profile, code), Budget(nodes=120_000, seconds=120))
    again = solve(Game.deal(profile, "CR1-N-AAEJFOT"), budget)
    assert first.searches > 1 and first.core == fast.COMPILED
    assert alike(again, again) == alike(first, again)


@needs_core
@pytest.mark.parametrize("budget", [Budget(stored=700, seconds=60), Budget(nodes=3_000, seconds=60)],
                         ids=["stored", "nodes"])
def test_both_loops_stop_on_the_same_budget_at_the_same_node(budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    on(fast.COMPILED, monkeypatch)
    game = Game.deal("hoffmann-1892", "CR1-N-AAEJFOT")
    monkeypatch.setattr(fast, "LOOP", False)
    python_loop = solve(game, budget, order="depth-first")
    monkeypatch.setattr(fast, "LOOP", True)
    compiled_loop = solve(game, budget, order="depth-first")
    assert compiled_loop.verdict == "unknown" and compiled_loop.limit == ("stored" if budget.stored == 700 else "nodes")
    assert (compiled_loop.nodes, compiled_loop.stored, compiled_loop.limit) == (
        python_loop.nodes, python_loop.stored, python_loop.limit)


@needs_core
def test_past_the_first_round_the_last_reshuffle_rule_runs_on_both_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    python, compiled = both(Game.deal("app", "CR1-N-AAEJFOT"), Budget(nodes=80_000, seconds=120), monkeypatch)
    assert python.searches > len(orders.PORTFOLIO)  # the second round: last.py in every search
    assert alike(compiled, compiled) == alike(python, compiled)


@needs_core
@pytest.mark.parametrize("profile", PROFILES)
def test_small_positions_get_the_brute_forces_verdict_and_the_same_nodes(profile: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_profile(profile)
    for seed in range(30):
        pos = small_position(seed)
        game = Game(rules, pos._replace(reshuffles=min(pos.reshuffles, rules.reshuffles)))
        truth = "winnable" if brute_force(profile, game.position) else "not winnable"
        for options in ({}, {"order": "depth-first"}):
            python, compiled = both(game, Budget(nodes=200_000, seconds=30), monkeypatch, **options)
            assert compiled.verdict == truth, (seed, options)
            assert alike(compiled, compiled) == alike(python, compiled), (seed, options)


def test_the_python_core_can_be_forced_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    on(fast.PYTHON, monkeypatch)
    answer = solve(Game.deal("app", "CR1-N-BAAAAAA"), Budget(nodes=5_000))
    assert (answer.verdict, answer.core) == ("winnable", fast.PYTHON)
    on(fast.COMPILED if BUILT else "auto", monkeypatch)
    chosen = solve(Game.deal("app", "CR1-N-BAAAAAA"), Budget(nodes=5_000), core="python")
    assert (chosen.core, chosen.nodes, chosen.line) == (fast.PYTHON, answer.nodes, answer.line)
    with pytest.raises(fast.CoreUnavailable, match="core 'fastest': expected one of"):
        solve(Game.deal("app", "CR1-N-BAAAAAA"), Budget(nodes=5_000), core="fastest")


def test_without_the_compiled_core_auto_falls_back_and_compiled_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "_core", None)
    monkeypatch.setattr(fast, "MISSING", "the compiled core is not built (test)")
    monkeypatch.setattr(fast, "_CORES", {})
    on("auto", monkeypatch)
    assert solve(Game.deal("app", "CR1-N-BAAAAAA"), Budget(nodes=5_000)).core == fast.PYTHON
    on(fast.COMPILED, monkeypatch)
    with pytest.raises(fast.CoreUnavailable, match="not built"):
        solve(Game.deal("app", "CR1-N-BAAAAAA"), Budget(nodes=5_000))
    on("fastest", monkeypatch)
    with pytest.raises(fast.CoreUnavailable, match="expected one of auto, python, compiled"):
        fast.choice()


@needs_core
def test_a_profile_the_compiled_core_cannot_hold_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    tall = get_profile("app").changed({"pile_limit": 200})
    on("auto", monkeypatch)
    assert "pile_limit 200" in fast.refusal(tall)
    assert fast.core_for(tall) is None
    assert fast.core_for(get_profile("app")) is not None


@needs_core
def test_bad_positions_are_refused_with_a_reason() -> None:
    core = fast.build(get_profile("app"))
    start = Game.deal("app", "CR1-N-BAAAAAA").position
    with pytest.raises(ValueError, match="pile 1 holds card index 60"):
        core.key(start._replace(piles=((60,), *start.piles[1:])))
    with pytest.raises(TypeError, match="expected a Position"):
        core.key((1, 2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"None or \(home, kept, buried, tangled\[, seed, spread\]\)"):
        core.score(start, (8, 48, 1))
    for bad in ((8, 48, 1, 4, -1, 8), (8, 48, 1, 4, 2**32, 8), (8, 48, 1, 4, 3, -2)):
        with pytest.raises(ValueError, match=r"seed is 0\.\.2\*\*32-1 and spread at least 0"):
            core.score(start, bad)


def build_hook() -> types.ModuleType:
    """hatch_build.py, loaded with a stand-in for hatchling (installed only inside a build)."""
    interface = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    interface.BuildHookInterface = object  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks",
                                                     "hatchling.builders.hooks.plugin", interface.__name__)}
    for name in saved:
        sys.modules[name] = interface if name == interface.__name__ else types.ModuleType(name)
    try:
        spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        for name, old in saved.items():
            if old is None:
                del sys.modules[name]
            else:
                sys.modules[name] = old


def test_a_failed_build_leaves_the_pure_python_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hook = build_hook()
    monkeypatch.setenv("CC", "/bin/false")
    built, why = hook.try_compile(ROOT, tmp_path)
    assert built is None and "CompileError" in why
    monkeypatch.setenv(hook.SWITCH, "0")
    assert hook.try_compile(ROOT, tmp_path) == (None, f"{hook.SWITCH}=0")
    assert not list(tmp_path.rglob("_core*"))


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only CI promises a compiler and an editable install")
def test_ci_tests_the_compiled_core() -> None:
    """Under CI the compiled core is built where the tests import the kit from, so its holds run
    rather than skip (a plain install would leave the checkout's crescent_ref/ without it)."""
    assert BUILT, fast.MISSING or "the compiled core is not built beside crescent_ref/solver/fast.py"
