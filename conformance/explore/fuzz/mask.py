"""Looking past differences already explained, so a game plays on to the next bug.

A legal-move difference leaves both sides in the same position, so the game can go on past it once
each of its moves is explained. ``Mask`` keeps, for every legal move a finding (or an ignored rule)
explained, a *kind of move*: which side lists it, the reference's reason, where it comes from and
what kind of place it goes to (an empty pile, a full one, a King onto an Ace, ...). Later
legal-move differences lose the moves of known kinds (``sift``); one with nothing left is no
difference. The rules named with ``--ignore rule:ID`` are never reported.
"""

from __future__ import annotations

import dataclasses

from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.observe import Ignore
from crescent_ref import movegen
from crescent_ref.actions import HOLD, PILES, Action
from crescent_ref.cards import ACE, KING
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile

MoveKind = tuple[str, str | None, str, str]


class Mask:
    """The kinds of legal move explained so far (by rule), and the rules the user ignores."""

    def __init__(self, reference: Profile, ignore: Ignore) -> None:
        self.reference, self.ignore = reference, ignore
        self.ignored: set[str] = set(ignore.rules)
        self.kinds: dict[MoveKind, str] = {}

    def kind(self, pos: Position, move: str, side: str) -> MoveKind | None:
        """The kind of a listed move: side, the reference's reason, source and destination kinds."""
        try:
            act = Action.from_text(move)
        except ValueError:
            return None
        if act.kind != "move":
            return (side, None, act.kind, "")
        reason = movegen.reason(self.reference, pos, act.src, act.dst)
        source = "pile" if act.src < PILES else "hold" if act.src == HOLD else "foundation"
        return (side, reason, source, self._place(pos, act))

    def _place(self, pos: Position, act: Action) -> str:
        if act.dst >= PILES:
            return "hold" if act.dst == HOLD else "foundation"
        pile = pos.piles[act.dst]
        if not pile:
            return "empty pile"
        limit = self.reference.pile_limit or 13
        if len(pile) >= limit - 1:
            return f"pile of {len(pile)}"
        card = pos.piles[act.src][-1] if act.src < PILES and pos.piles[act.src] else -1
        if card >= 0 and {card % 13 + 1, pile[-1] % 13 + 1} == {ACE, KING}:
            return "King and Ace"
        return "pile"

    def learn(self, found: Difference, game: Game, rule: str) -> None:
        """Remember the kinds of the moves of a legal-move difference as explained by ``rule``."""
        if found.kind != "legal-moves":
            return
        for side, moves in (("missing", found.missing), ("extra", found.extra)):
            for move in moves:
                kind = self.kind(game.position, move, side)
                if kind is not None:
                    self.kinds.setdefault(kind, rule)

    def sift(self, found: Difference, pos: Position) -> Difference | None:
        """``found`` without the moves already explained (or of an ignored reason); None when none is left."""
        if found.kind != "legal-moves":
            return found
        missing = tuple(m for m in found.missing if self._open(pos, m, "missing"))
        extra = tuple(m for m in found.extra if self._open(pos, m, "extra"))
        if not missing and not extra:
            return None
        return dataclasses.replace(found, missing=missing, extra=extra)

    def _open(self, pos: Position, move: str, side: str) -> bool:
        kind = self.kind(pos, move, side)
        return kind is None or (kind not in self.kinds and kind[1] not in self.ignore.reasons)
