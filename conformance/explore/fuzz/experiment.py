"""Targeted questions to both sides: the same card moved from a position where only one rule differs.

A ``Scene`` is where a difference showed: the reference's game just before the differing action,
how to get there (the case's given and actions), and ``ask``, which plays actions on the
implementation from there (or from another given position) and returns its last reply. The
experiments build variant positions by swapping one card onto the moving pile's top, so that the
move breaks exactly one rule (or none), and compare the two verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from conformance.adapter import Reply
from crescent_ref import movegen, rules
from crescent_ref.actions import DOWN, HOLD, PILES, UP, Action, place_text
from crescent_ref.cards import CARD_TEXT
from crescent_ref.errors import CrescentError
from crescent_ref.game import Game
from crescent_ref.position import Position

# the implementation's last reply after ``actions`` from ``given`` (None: from the scene), or None when it failed
Ask = Callable[[dict[str, str] | None, tuple[str, ...]], Reply | None]
MOST_PROBES = 160  # moves tried on the implementation when looking for the one it thinks is legal


@dataclass(frozen=True, slots=True)
class Scene:
    """The reference just before the differing action, and a way to question the implementation there."""

    game: Game
    ask: Ask
    since_reshuffle: int = -1  # moves played since the last reshuffle (-1: no reshuffle in the case)

    def verdict(self, action: str, at: Position | None = None) -> tuple[bool, str | None]:
        """The reference's verdict on ``action`` here (or at ``at``)."""
        game = self.game if at is None else Game(self.game.profile, at)
        out = game.apply(action, dry_run=True)
        return out.accepted, out.reason

    def impl(self, action: str, at: Position | None = None) -> Reply | None:
        """The implementation's reply to ``action`` here (or at ``at``)."""
        return self.ask(None if at is None else {"position": at.to_text()}, (action,))


def moved_card(before: Position, act: Action, state: object) -> str | None:
    """The card the implementation took off pile ``act.src`` (from its state after the move), when
    that is not the pile's top card; None when it took the top card or the state does not say."""
    if act.kind != "move" or act.src >= PILES or not isinstance(state, dict):
        return None
    try:
        after = list(state["piles"][act.src])
    except (KeyError, IndexError, TypeError):
        return None
    pile = [CARD_TEXT[c] for c in before.piles[act.src]]
    if len(after) != len(pile) - 1 or after == pile[:-1]:
        return None
    gone = list(pile)
    for text in after:
        if text in gone:
            gone.remove(text)
    return gone[0] if len(gone) == 1 else "a card below the top"


def with_top(pos: Position, src: int, card: int, dst: int) -> Position | None:
    """``pos`` with ``card`` swapped onto the top of pile ``src`` from a face-up place on another pile
    (not ``dst``'s top), or None when no copy of the card can be swapped."""
    piles = [list(p) for p in pos.piles]
    if not piles[src] or piles[src][-1] == card:
        return pos if piles[src] else None
    for index, pile in enumerate(piles):
        for depth in range(len(pile) - 1, pos.hidden[index] - 1, -1):
            if pile[depth] != card or index == src or (index == dst and depth == len(pile) - 1):
                continue
            pile[depth], piles[src][-1] = piles[src][-1], card
            return pos._replace(piles=tuple(tuple(p) for p in piles))
    return None


def fitting_cards(scene: Scene, dst: int) -> list[int]:
    """Cards the reference would take at ``dst`` by suit and rank (a pile top's neighbours, the ranks a
    foundation takes)."""
    pos, profile = scene.game.position, scene.game.profile
    if dst < PILES:
        if not pos.piles[dst]:
            return []
        suit, rank = divmod(pos.piles[dst][-1], 13)
        return [suit * 13 + r - 1 for r in rules.neighbours(rank + 1, profile.pile_wrap)]
    if dst < HOLD:
        suit = (dst - UP) % 4
        return [suit * 13 + r - 1 for r in rules.foundation_takes(pos, dst)]
    return []


def neighbour_of_other_suit(scene: Scene, dst: int) -> list[int]:
    """Cards one rank from pile ``dst``'s top, of another suit (a move breaking only the suit rule)."""
    pos = scene.game.position
    if dst >= PILES or not pos.piles[dst]:
        return []
    suit, rank = divmod(pos.piles[dst][-1], 13)
    ranks = rules.neighbours(rank + 1, scene.game.profile.pile_wrap)
    return [s * 13 + r - 1 for s in range(4) if s != suit for r in ranks]


@dataclass(frozen=True, slots=True)
class Trial:
    """One question asked of both sides at a variant position."""

    position: Position
    action: str
    reference: tuple[bool, str | None]
    implementation: tuple[bool, str | None]

    def __str__(self) -> str:
        card = CARD_TEXT[rules.source_card(self.position, Action.from_text(self.action).src)]
        return (f"{card} moved {self.action} from a position where only that card differs: "
                f"the reference {_said(self.reference)}, the implementation {_said(self.implementation)}")


def _said(verdict: tuple[bool, str | None]) -> str:
    return "accepts" if verdict[0] else f"refuses ({verdict[1]})"


def trials(scene: Scene, act: Action, cards: list[int]) -> Iterator[Trial]:
    """The move ``act`` asked of both sides with each of ``cards`` swapped onto its source pile's top."""
    for card in cards:
        at = with_top(scene.game.position, act.src, card, act.dst)
        if at is None:
            continue
        try:
            Game(scene.game.profile, at)
        except CrescentError:
            continue
        reply = scene.impl(str(act), at)
        if reply is not None:
            yield Trial(at, str(act), scene.verdict(str(act), at), (reply.accepted, reply.reason))


def refused_moves(scene: Scene, source: int | None = None) -> Iterator[str]:
    """Moves the reference refuses here (from ``source`` only, when given), those most likely to be
    wrongly allowed first: moves off a foundation, onto the hold, onto foundations, then pile to pile."""
    pos, profile = scene.game.position, scene.game.profile
    sources = [p for p in range(PILES) if pos.piles[p] and source in (None, p)]
    foundations = [s for s in range(UP, HOLD) if source in (None, s)]
    suit = [(s, f) for s in sources for f in (UP + pos.piles[s][-1] // 13, DOWN + pos.piles[s][-1] // 13)]
    pairs = [(s, d) for s in sources for d in range(PILES) if d != s]
    same_suit = [(s, d) for s, d in pairs if pos.piles[d] and pos.piles[d][-1] // 13 == pos.piles[s][-1] // 13]
    groups = (
        [(s, rules.partner(s)) for s in foundations],
        [(s, HOLD) for s in sources],
        suit,
        same_suit,
        [(s, d) for s, d in pairs if not pos.piles[d]],
        [(s, d) for s in foundations for d in range(PILES)],
        [(s, d) for s, d in pairs if pos.piles[d] and (s, d) not in same_suit],
        [(s, d) for s in sources for d in range(UP, HOLD) if (s, d) not in suit],
    )
    for group in groups:
        for src, dst in group:
            if movegen.reason(profile, pos, src, dst) is not None:
                yield f"{place_text(src)}-{place_text(dst)}"


def allowed_by_implementation(scene: Scene, source: int | None = None) -> tuple[str, Reply] | None:
    """A move the reference refuses here (from ``source``, when given) and the implementation accepts
    (at most MOST_PROBES asked)."""
    for k, move in enumerate(refused_moves(scene, source)):
        if k >= MOST_PROBES:
            return None
        reply = scene.impl(move)
        if reply is not None and reply.accepted:
            return move, reply
    return None


def finished_foundation(pos: Position, dst: int) -> bool:
    """The foundation at ``dst`` is complete (an Ace foundation at its King, a King foundation at its Ace)."""
    if dst < DOWN:
        return pos.up[dst - UP] == 13
    return pos.down[dst - DOWN] == 1
