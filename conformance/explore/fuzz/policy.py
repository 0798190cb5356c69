"""Which action to play next: the corner's script first, then a seeded mix of legal play and probes.

Most actions are legal moves (half of them towards the foundations, so games get deep); some are
the corner's focus actions (the moves its rule judges); some are the optional actions the
implementation offers (undo, tap, drop) and the reshuffle; a few are moves between random places,
mostly refused, to compare reasons.
"""

from __future__ import annotations

import random

from conformance.explore.fuzz.corners import Start
from crescent_ref.actions import HOLD, PILES, PLACES, place_text
from crescent_ref.game import Game

OPTIONAL = ("undo", "tap", "drop")


def optional_actions(capabilities: frozenset[str], ignored: frozenset[str]) -> tuple[str, ...]:
    """The optional action kinds the implementation offers and the user did not ask to ignore."""
    return tuple(k for k in (*OPTIONAL, "reshuffle") if (k == "reshuffle" or k in capabilities) and k not in ignored)


class Policy:
    """Chooses the actions of one game (reproducible from the rng)."""

    def __init__(self, rng: random.Random, start: Start, kinds: tuple[str, ...]) -> None:
        self.rng, self.start, self.kinds = rng, start, kinds
        self.focus = tuple(a for a in start.focus if self.offered(a))
        self.script = tuple(a for a in start.script if self.offered(a))

    def later(self, played: int) -> Policy:
        """This policy playing on after ``played`` actions (from the position they reached): the rest of
        the script, the same rng."""
        later = Policy(self.rng, self.start, self.kinds)
        later.script = self.script[played:]
        return later

    def offered(self, action: str) -> bool:
        """A move, or an action kind the implementation offers (and the user did not ignore)."""
        return "-" in action or action.split()[0] in self.kinds

    def next(self, game: Game, played: int) -> str:
        """The action after ``played`` actions."""
        if played < len(self.script):
            return self.script[played]
        if game.selected is not None and "tap" in self.kinds and self.rng.random() < 0.7:
            return f"tap {place_text(self.rng.randrange(HOLD))}"
        roll = self.rng.random()
        if roll < 0.3 and self.focus:
            return self.rng.choice(self.focus)
        if roll < 0.42:
            return self._optional(game)
        if roll < 0.48:
            return self._probe()
        return self._legal(game)

    def _legal(self, game: Game) -> str:
        moves = game.legal_moves()
        if not moves:
            wanted = "reshuffle" in self.kinds and (game.position.reshuffles or self.rng.random() < 0.3)
            return "reshuffle" if wanted else self._probe()
        homeward = [m for m in moves if m.src < PILES <= m.dst]
        pick = homeward if homeward and self.rng.random() < 0.5 else moves
        return str(self.rng.choice(pick))

    def _optional(self, game: Game) -> str:
        if not self.kinds:
            return self._legal(game)
        kind = self.rng.choice(self.kinds)
        if kind == "tap":
            return f"tap {place_text(self.rng.randrange(HOLD))}"
        if kind == "drop":  # mostly piles; sometimes a foundation's card (to its partner, I-DROP)
            return f"drop {place_text(self.rng.randrange(PILES if self.rng.random() < 0.8 else HOLD))}"
        if kind == "reshuffle" and self.rng.random() < 0.7:
            return self._legal(game)  # a reshuffle in every other optional pick would end games early
        return kind

    def _probe(self) -> str:
        src = self.rng.randrange(HOLD)
        return f"{place_text(src)}-{place_text(self.rng.randrange(PLACES))}"
