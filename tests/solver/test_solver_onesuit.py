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
    for seed in range(200):
        pos = one_suit_position(seed, "hoffmann-1892", most=20)
        verdict, made, _ = core_of("hoffmann-1892").onesuit(pos, 5, False)
        assert made <= 6
        if verdict == "unknown":
            return
    raise AssertionError("no position of 20 cards needs more than 5 positions")


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
