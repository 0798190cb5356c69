"""onesuit.c, a one-suit position with no reshuffle left decided by its own search (Core.onesuit):
never a verdict the exhaustive brute force contradicts, every "winnable" with a line that replays to
won, and the same verdicts as the general one-suit search (Search.solve_suit) wherever both decide."""

from __future__ import annotations

import random

import pytest

from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast, search, suits
from crescent_ref.solver.search import Budget, Search, solve
from tests.solver.small import DISTINCT, brute_force, out_cards, small_position, spread

# the profiles it covers (no autoplay, no give-backs), one per distinct set of rules
COVERED = [p for p in DISTINCT if not get_profile(p).autoplay and not get_profile(p).give_backs]

pytestmark = pytest.mark.skipif(bool(fast.refusal(get_profile("hoffmann-1892"))), reason="no compiled core")


def one_suit_position(seed: int, profile: str, most: int) -> Position:
    """A one-suit position with no reshuffle left: one suit's foundations somewhere (a held card in
    profiles with the hold, when they are two apart, half the time), its other cards on one to eight
    piles, at most ``most`` of them; the other suits home."""
    rng, rules = random.Random(seed), get_profile(profile)
    suit = rng.randrange(4)
    while True:
        up, down = rng.randint(1, 13), rng.randint(1, 13)
        cards = out_cards(suit, up, down)
        if 0 < len(cards) <= most:
            break
    ups, downs, held = [13] * 4, [1] * 4, [0] * 4
    ups[suit], downs[suit] = up, down
    if rules.hold_double_fit and down - up == 2 and rng.random() < 0.5:
        held[suit] = up + 1
        cards.remove(suit * 13 + up)
    rng.shuffle(cards)
    piles = spread(rng, cards, rng.randint(1, 8), rules.pile_limit)
    return Position(piles, (0,) * 16, tuple(ups), tuple(downs), tuple(held), 0)


def core_of(profile: str) -> fast.Core:
    core = fast.core_for(get_profile(profile), fast.COMPILED)
    assert core is not None
    return core


def decided(profile: str, pos: Position, nodes: int = 1_000_000, prune: bool = True) -> str:
    """Core.onesuit's verdict, its winning line replayed to won on the engine."""
    verdict, _, line = core_of(profile).onesuit(pos, nodes, prune)
    if verdict == "winnable" and not pos.won():
        assert line, pos.to_text()
        game = Game(get_profile(profile), pos)
        for action in line:
            game.play(action)
        assert game.status() == "won", pos.to_text()
    return verdict


@pytest.mark.parametrize("prune", [True, False])
@pytest.mark.parametrize("profile", COVERED)
def test_the_decider_agrees_with_the_brute_force(profile: str, prune: bool) -> None:
    counts = {"winnable": 0, "not winnable": 0}
    for seed in range(150):
        pos = one_suit_position(seed, profile, most=9)
        verdict = decided(profile, pos, prune=prune)
        assert verdict == ("winnable" if brute_force(profile, pos) else "not winnable"), (seed, pos.to_text())
        counts[verdict] += 1
    assert min(counts.values()) >= 30  # both verdicts are met


@pytest.mark.parametrize("profile", COVERED)
def test_the_decider_agrees_with_the_general_one_suit_search(profile: str) -> None:
    rules = get_profile(profile)
    both = 0
    for seed in range(120):
        pos = one_suit_position(1_000 + seed, profile, most=18)
        general = Search(rules, Budget(nodes=30_000), relax=False, core=core_of(profile), reasons=False).run(pos)
        mine = decided(profile, pos)
        if general.verdict != "unknown" and mine != "unknown":
            assert mine == general.verdict, (seed, pos.to_text())
            both += 1
    assert both >= 100


def test_the_decider_refuses_what_it_does_not_cover() -> None:
    two_suits = small_position(0, most=10)._replace(reshuffles=0)
    assert len(core_of("hoffmann-1892").suits(two_suits)) == 2
    with pytest.raises(ValueError, match="one-suit"):
        core_of("hoffmann-1892").onesuit(two_suits, 1_000)
    with pytest.raises(ValueError, match="one-suit"):
        core_of("hoffmann-1892").onesuit(one_suit_position(5, "hoffmann-1892", 9)._replace(reshuffles=1), 1_000)
    with pytest.raises(ValueError, match="one-suit"):
        core_of("app+give-backs").onesuit(one_suit_position(5, "app", 9), 1_000)


def test_a_spent_budget_answers_unknown() -> None:
    """A question out of its budget is ``unknown``, and onesuit_counts counts it and its positions apart."""
    core = core_of("hoffmann-1892")
    for seed in range(200):
        pos = one_suit_position(seed, "hoffmann-1892", most=20)
        before = core.onesuit_counts()
        verdict, made, _ = core.onesuit(pos, 5, False)
        after = core.onesuit_counts()
        assert made <= 6 and after[0] == before[0] + 1 and after[2] == before[2] + made
        assert after[3:] == ((before[3] + 1, before[4] + made) if verdict == "unknown" else before[3:])
        if verdict == "unknown":
            return
    raise AssertionError("no position of 20 cards needs more than 5 positions")


def reachable(profile: str, pos: Position, most: int = 4_000) -> dict[Position, list[Position]] | None:
    """Every position reachable from ``pos`` with its children (None past ``most`` positions)."""
    rules, graph, todo = get_profile(profile), {}, [pos]
    while todo:
        here = todo.pop()
        if here in graph:
            continue
        game, children = Game(rules, here), []
        for action in game.legal_moves() if game.status() != "won" else []:
            child = Game(rules, here)
            child.play(action)
            children.append(child.position._replace(moves=0))
        graph[here] = children
        todo += children
        if len(graph) > most:
            return None
    return graph


def winnable_in(profile: str, graph: dict[Position, list[Position]]) -> set[Position]:
    """The positions of ``graph`` from which a won one is reachable (a fixed point, backwards)."""
    winnable = {pos for pos in graph if Game(get_profile(profile), pos).status() == "won"}
    grew = True
    while grew:
        before = len(winnable)
        winnable |= {pos for pos, children in graph.items() if any(child in winnable for child in children)}
        grew = len(winnable) > before
    return winnable


@pytest.mark.parametrize("profile", COVERED)
def test_every_position_of_a_reachable_graph_gets_its_verdict(profile: str) -> None:
    """Every position reachable from a small one-suit start, asked one after another on one core (what an
    exhausted search proves stays in the table for the questions after it, and a child's key is made from
    its parent's sorted piles), gets the verdict of the whole graph: won reachable or not."""
    core, asked, verdicts = core_of(profile), 0, set[str]()
    for seed in range(40):
        graph = reachable(profile, one_suit_position(5_000 + seed, profile, most=16), most=1_500)
        if graph is None:
            continue
        winnable = winnable_in(profile, graph)
        for here in sorted(graph, key=Position.to_text):
            if any(here.piles):  # not all home: a one-suit position
                truth = "winnable" if here in winnable else "not winnable"
                assert core.onesuit(here, 200_000)[0] == truth, (seed, here.to_text())
                asked, verdicts = asked + 1, verdicts | {truth}
    assert asked >= 1_000 and len(verdicts) == 2


def kept_as(pos: Position) -> tuple[object, ...]:
    """What onesuit.c's key keeps of a position: its non-empty piles as a sorted list, foundations, hold."""
    return (sorted(pile for pile in pos.piles if pile), pos.up, pos.down, pos.held)


@pytest.mark.parametrize("profile", COVERED)
def test_an_exhausted_search_expands_each_kept_position_once(profile: str) -> None:
    """A search that proves its start not winnable (no pruning) generates exactly one child per move of each
    position reachable as onesuit.c keeps it (piles sorted): a key that told two such positions apart, or took
    two for one, would generate more or fewer."""
    core, checked = core_of(profile), 0
    for seed in range(60):
        pos = one_suit_position(7_000 + seed, profile, most=14)
        graph = reachable(profile, pos)
        if graph is None or pos in winnable_in(profile, graph):
            continue
        moves = {repr(kept_as(here)): len(children) for here, children in graph.items()}
        verdict, made, _ = core.onesuit(pos, 1_000_000, False, object())  # a table of its own: nothing proved before
        assert (verdict, made) == ("not winnable", sum(moves.values())), (seed, pos.to_text())
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("profile", COVERED)
def test_the_compiled_loop_with_the_decider_stays_sound(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "SUIT_DECIDE_NODES", 100_000)
    monkeypatch.setattr(search, "SUIT_DECIDE_WRAP", True)  # the wrap's profiles too
    rules = get_profile(profile)
    proved = 0
    for seed in range(60):
        pos = small_position(seed, most=10)._replace(reshuffles=0)
        if not suits.applies(rules, pos):
            continue
        answer = solve(Game(rules, pos), Budget(nodes=200_000), core=fast.COMPILED)
        truth = brute_force(profile, pos)
        assert answer.verdict == ("winnable" if truth else "not winnable"), (seed, pos.to_text())
        proved += answer.verdict == "not winnable"
    assert proved >= 10


def test_a_solve_does_not_lean_on_the_solves_before_it() -> None:
    """The proofs onesuit.c keeps are the solve's own (its table starts a new epoch with a new memo):
    the same solve twice makes the same nodes and searches."""
    assert search.SUIT_DECIDE_NODES > 0
    game = Game.deal("hoffmann-1892", "CR1-N-AGUYBTS")
    first, second = (solve(game, Budget(nodes=300_000, seconds=1e9), core=fast.COMPILED) for _ in range(2))
    assert (first.verdict, first.nodes, first.searches) == (second.verdict, second.nodes, second.searches)
    assert core_of("hoffmann-1892").onesuit_counts()[0] > 0


def test_the_decider_is_asked_only_without_the_wrap_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured only in hoffmann-1892 (no pile wrap): the profiles with the wrap keep the general search."""
    assert fast._decide_nodes(get_profile("hoffmann-1892")) == search.SUIT_DECIDE_NODES > 0
    assert fast._decide_nodes(get_profile("hoffmann-1892+reversal")) > 0
    assert fast._decide_nodes(get_profile("app")) == fast._decide_nodes(get_profile("morehead-1949")) == 0
    monkeypatch.setattr(search, "SUIT_DECIDE_WRAP", True)
    assert fast._decide_nodes(get_profile("app")) == search.SUIT_DECIDE_NODES
