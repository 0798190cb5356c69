"""Properties of the engine on generated positions and random play (hypothesis, derandomized)."""

from __future__ import annotations

import os
import random
import re

from engine_helpers import PROFILES, expect
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from crescent_ref import Action, Game, GameCode, NotationError, Position, deal_position
from crescent_ref.actions import PILES, PLACES, RESHUFFLE, UNDO
from crescent_ref.cards import CARD_TEXT, KING, SUIT_SYMBOLS
from crescent_ref.deal import MAX_SEED
from crescent_ref.errors import quoted
from crescent_ref.movegen import legal_moves, reason
from crescent_ref.rules import faults
from crescent_ref.spec_files import load_yaml
from crescent_ref.transitions import reshuffle

ORDER = {r["code"]: i for i, r in enumerate(load_yaml("reasons.yaml")["reasons"])}
SCALE = float(os.environ.get("CRESCENT_HYPOTHESIS_SCALE", "1"))


def examples(n: int) -> settings:
    """Stable settings for CI: derandomized, no deadline, no example database, ``n`` examples
    (times CRESCENT_HYPOTHESIS_SCALE)."""
    return settings(max_examples=max(1, int(n * SCALE)), derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def foundations(draw: st.DrawFn, hold: bool) -> tuple[int, int, int]:
    """One suit's Ace foundation top, King foundation top and held rank (0 = none)."""
    up = draw(st.integers(1, 13))
    down = min(KING, up + draw(st.sampled_from([-3, 0, 1, 1, 2, 2, 3, 6, 12])))
    down = max(1, down)
    held = up + 1 if hold and down == up + 2 and draw(st.booleans()) else 0
    return up, down, held


@st.composite
def positions(draw: st.DrawFn, profile: str) -> Position:
    """Any position the profile could meet: its pile limit, face-down cards, hold and reshuffles."""
    want = expect(profile)
    suits = [draw(foundations(want.hold)) for _ in range(4)]
    rest = []
    for suit, (up, down, held) in enumerate(suits):
        for rank in range(1, KING + 1):
            copies = 2 - (rank <= up) - (rank >= down) - (rank == held)
            rest += [suit * 13 + rank - 1] * copies
    cards = draw(st.permutations(rest))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=15, max_size=15)))
    piles = [list(cards[a:b]) for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    while want.limit and max(map(len, piles)) > want.limit:
        big, small = max(piles, key=len), min(piles, key=len)
        small.insert(0, big.pop(0))
    hidden = [draw(st.integers(0, max(0, len(p) - 1))) if want.closed else 0 for p in piles]
    return Position(piles=tuple(map(tuple, piles)), hidden=tuple(hidden), up=tuple(s[0] for s in suits),
                    down=tuple(s[1] for s in suits), held=tuple(s[2] for s in suits),
                    reshuffles=draw(st.integers(0, want.reshuffles)), moves=draw(st.integers(0, 999)))


profile_and_position = st.sampled_from(PROFILES).flatmap(lambda p: st.tuples(st.just(p), positions(p)))


@examples(150)
@given(profile_and_position)
def test_position_text_reads_back(case: tuple[str, Position]) -> None:
    _, pos = case
    assert Position.from_text(pos.to_text()) == pos
    assert pos.card_count() == 104


@examples(60)
@given(profile_and_position)
def test_legal_moves_are_exactly_the_moves_without_fault(case: tuple[str, Position]) -> None:
    profile, pos = case
    g = Game(profile, pos)
    moves = legal_moves(g.profile, pos)
    assert moves == sorted(set(moves), key=lambda m: (m.src, m.dst))
    legal = {(m.src, m.dst) for m in moves}
    for src in range(PLACES):
        for dst in range(PLACES):
            found = list(faults(g.profile, pos, src, dst))
            assert reason(g.profile, pos, src, dst) == (found[0] if found else None)
            assert ((src, dst) in legal) == (not found)
            assert [ORDER[f] for f in found] == sorted({ORDER[f] for f in found})


@examples(60)
@given(profile_and_position)
def test_the_game_accepts_its_legal_moves_and_refuses_the_rest(case: tuple[str, Position]) -> None:
    profile, pos = case
    g = Game(profile, pos)
    legal = set(g.legal_moves())
    for src in range(PLACES):
        for dst in range(PLACES):
            outcome = g.apply(Action.move(src, dst), dry_run=True)
            assert outcome.accepted == (Action.move(src, dst) in legal)
            assert outcome.accepted or outcome.reason in ORDER
    assert g.position is pos


def refused(text: str) -> str:
    """The message of the NotationError that ``Position.from_text(text)`` raises."""
    try:
        Position.from_text(text)
    except NotationError as err:
        return str(err)
    raise AssertionError(f"accepted: {text}")


def with_field(text: str, name: str, value: str) -> str:
    """The position text with field ``name`` set to ``value``."""
    return " ".join(f"{name}:{value}" if part.startswith(name + ":") else part for part in text.split())


def with_card(piles: str, k: int, new: str) -> str:
    """The ``piles:`` value with its ``k``-th card (in reading order) replaced by ``new``."""
    parts = re.split(r"([,/\[\]])", piles)
    where = [i for i, part in enumerate(parts) if part not in ("", "-", ",", "/", "[", "]")]
    parts[where[k]] = new
    return "".join(parts)


@examples(60)
@given(profile_and_position, st.data())
def test_validation_errors_quote_the_offending_part(case: tuple[str, Position], data: st.DataObject) -> None:
    _, pos = case
    assume(any(pos.piles))
    text, piles = pos.to_text(), pos.to_text().split("piles:")[1].split()[0]
    k = data.draw(st.integers(0, sum(map(len, pos.piles)) - 1))
    card = [c for p in pos.piles for c in p][k]
    assert "'1Z♠'" in refused(with_field(text, "piles", with_card(piles, k, "1Z♠")))
    other = (card + 1) % 52
    message = refused(with_field(text, "piles", with_card(piles, k, CARD_TEXT[other])))
    assert f"{CARD_TEXT[other]}×3" in message and f"{CARD_TEXT[card]}×1" in message
    fifteen = piles.split("/", 1)[1]
    message = refused(with_field(text, "piles", fifteen))
    assert quoted(f"piles:{fifteen}") in message and "got 15" in message
    suit = data.draw(st.integers(0, 3))
    tops = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.up)]
    tops[suit] = CARD_TEXT[(suit + 1) % 4 * 13 + pos.up[suit] - 1]
    assert f"{tops[suit]} cannot top the up foundation of {SUIT_SYMBOLS[suit]}" in refused(
        with_field(text, "up", ",".join(tops)))


@examples(100)
@given(profile_and_position)
def test_reshuffle_rotates_each_pile_of_two_or_more(case: tuple[str, Position]) -> None:
    _, pos = case
    after = reshuffle(pos)
    for before, hidden, now, now_hidden in zip(pos.piles, pos.hidden, after.piles, after.hidden, strict=True):
        assert now == (before[1:] + before[:1] if len(before) > 1 else before)
        assert now_hidden == (hidden - 1 if hidden and len(before) > 1 else hidden)
    assert after.reshuffles == pos.reshuffles - 1


def pick(g: Game, rnd: random.Random) -> Action:
    """A random action: mostly a legal move, sometimes anything else."""
    moves, roll = g.legal_moves(), rnd.random()
    if moves and roll < 0.75:
        return rnd.choice(moves)
    if roll < 0.82:
        return UNDO
    if roll < 0.88:
        return RESHUFFLE
    if roll < 0.94:
        return Action("tap", rnd.randrange(PLACES))
    if roll < 0.97:
        return Action("drop", rnd.randrange(PILES))
    return Action.move(rnd.randrange(PLACES), rnd.randrange(PLACES))


@examples(40)
@given(st.sampled_from(PROFILES), st.integers(0, MAX_SEED), st.randoms(use_true_random=False))
def test_random_play_keeps_all_104_cards(profile: str, seed: int, rnd: random.Random) -> None:
    g = Game.deal(profile, str(GameCode(seed)))
    for _ in range(120):
        before = g.position
        outcome = g.apply(pick(g, rnd))
        assert g.position.card_count() == 104
        assert Position.from_text(g.position.to_text()) == g.position
        if not outcome.accepted:
            assert g.position == before
        if g.status() in ("won", "lost") and not g.profile.undo_limit:
            break


@examples(40)
@given(st.integers(0, MAX_SEED), st.randoms(use_true_random=False))
def test_undo_restores_the_exact_earlier_position(seed: int, rnd: random.Random) -> None:
    g = Game.deal("app", str(GameCode(seed)))
    earlier: list[Position] = []
    for _ in range(150):
        before = g.position
        outcome = g.apply(pick(g, rnd))
        if outcome.accepted and outcome.effect == "move":
            earlier = [*earlier, before][-100:]
        elif outcome.accepted and outcome.effect == "reshuffle":
            earlier = []
        elif outcome.accepted and outcome.effect == "undo":
            assert g.position == earlier.pop()
        assert len(g.history) == len(earlier)
    assert g.history == earlier


@examples(200)
@given(st.integers(0, MAX_SEED))
def test_game_codes_read_back_and_deal_alike(seed: int) -> None:
    code = GameCode(seed)
    assert GameCode.from_text(str(code)) == code
    dealt = deal_position(str(code))
    assert dealt == deal_position(code)
    assert dealt.card_count() == 104
