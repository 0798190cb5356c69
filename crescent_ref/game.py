"""A game in play: a profile, the position, the undo history, the tap selection, and the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from crescent_ref import movegen, rules, transitions
from crescent_ref.actions import DOWN, HOLD, MOVES, PILES, PLACES, RESHUFFLE, UNDO, UP, Action, place_text
from crescent_ref.errors import IllegalActionError, NotationError
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, get_profile

Status = Literal["playing", "waiting", "lost", "won"]
Effect = Literal["move", "select", "deselect", "reshuffle", "undo"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one action: accepted with its effect and the card moves made, or a reason."""

    action: Action
    accepted: bool
    reason: str | None = None
    effect: Effect | None = None
    moves: tuple[Action, ...] = ()

    def __str__(self) -> str:
        if not self.accepted:
            return f"{self.action}: rejected ({self.reason})"
        made = " ".join(str(m) for m in self.moves)
        return f"{self.action}: {self.effect}" + (f" {made}" if made else "")


def status_of(profile: Profile, pos: Position, pile_moves: list[Action] | None = None) -> Status:
    """``won``; ``playing`` while the game can go on (I-STUCK: by ``profile.stuck_when``); else
    ``waiting`` for a reshuffle, or ``lost``.
    ``pile_moves``: the position's ``movegen.pile_moves`` when the caller has them already."""
    if pos.won():
        return "won"
    if movegen.can_go_on(profile, pos, pile_moves):
        return "playing"
    return "waiting" if pos.reshuffles else "lost"


def check_against(profile: Profile, pos: Position) -> None:
    """Refuse a position the profile could never reach (pile too tall, hidden cards, held cards, ...)."""
    for number, pile in enumerate(pos.piles, 1):
        if profile.pile_limit is not None and len(pile) > profile.pile_limit:
            raise NotationError("position", f"pile {number} ({len(pile)} cards)",
                                f"profile {profile.name} allows at most {profile.pile_limit} cards a pile")
    if any(pos.hidden) and not profile.closed:
        first = next(i for i, h in enumerate(pos.hidden) if h)
        raise NotationError("position", f"pile {first + 1}: {pos.pile_text(first)}",
                            f"profile {profile.name} deals every card face up")
    if any(pos.held) and not profile.hold_double_fit:
        held = pos.to_text().rpartition(" ")[2]
        raise NotationError("position", held, f"profile {profile.name} holds no card between the rows")
    if pos.reshuffles > profile.reshuffles:
        raise NotationError("position", f"reshuffles:{pos.reshuffles}",
                            f"profile {profile.name} allows {profile.reshuffles} reshuffles")


class Game:
    """One game. ``apply`` judges an action; ``play`` does the same but raises when it is refused.

    The pile moves and the status of the current position are computed once and kept (with the
    position and profile they belong to) until ``position`` changes: status, legal moves and the
    next action share them.
    """

    def __init__(self, profile: Profile | str, position: Position) -> None:
        self.profile = get_profile(profile) if isinstance(profile, str) else profile
        check_against(self.profile, position)
        self.position = position
        self.history: list[Position] = []
        self.selected: int | None = None
        self._known: tuple[Position, Profile, list[Action], Status] | None = None

    @classmethod
    def from_text(cls, profile: Profile | str, text: str) -> Game:
        """A game from a position's text form."""
        return cls(profile, Position.from_text(text))

    @classmethod
    def deal(cls, profile: Profile | str, code: str) -> Game:
        """A new game dealt from a game code; the profile's autoplay runs on the fresh deal."""
        from crescent_ref.deal import deal_position

        game = cls(profile, Position(piles=((),) * 16, hidden=(0,) * 16, up=(1,) * 4, down=(13,) * 4, reshuffles=0))
        game.position = deal_position(code, closed=game.profile.closed, reshuffles=game.profile.reshuffles)
        if game.profile.autoplay and game.profile.autoplay_when == "every-action":
            game._deal_autoplay()
        return game

    def _facts(self) -> tuple[Position, Profile, list[Action], Status]:
        """The position and profile with their pile moves and status, computed once for each pair."""
        known = self._known
        if known is None or known[0] is not self.position or known[1] is not self.profile:
            pos, profile = self.position, self.profile
            moves = movegen.pile_moves(profile, pos)
            known = self._known = (pos, profile, moves, status_of(profile, pos, moves))
        return known

    def _pile_moves(self) -> list[Action]:
        return self._facts()[2]

    # The engine's primitives on the current position, one method each, so that another core can stand
    # in for them (crescent_ref.solver.fastgame plays on the solver's compiled core); with ``_facts``.
    def _foundation_moves(self) -> list[Action]:
        return movegen.foundation_moves(self.profile, self.position)

    def _reason(self, src: int, dst: int) -> str | None:
        return movegen.reason(self.profile, self.position, src, dst)

    def _moved(self, src: int, dst: int, count: int) -> Position:
        return transitions.move(self.position, src, dst, count=count)

    def _reshuffled(self) -> Position:
        return transitions.reshuffle(self.position)

    def _deal_autoplay(self) -> None:
        self.position = transitions.autoplay(self.profile, self.position)[0]

    def status(self) -> Status:
        """The verdict on the current position."""
        return self._facts()[3]

    def legal_moves(self) -> list[Action]:
        """Every legal card move, sorted by source then destination (none once the game is over)."""
        if self.status() in ("won", "lost"):
            return []
        moves = list(self._pile_moves())
        if self.profile.between_foundations or self.profile.give_backs:
            moves += self._foundation_moves()
        return moves

    def legal_actions(self) -> list[Action]:
        """Legal card moves plus reshuffle and undo where they would be accepted."""
        extra = [a for a in (RESHUFFLE, UNDO) if self.apply(a, dry_run=True).accepted]
        return self.legal_moves() + extra

    def play(self, action: Action | str) -> Outcome:
        """Apply an action, raising IllegalActionError when the rules refuse it."""
        outcome = self.apply(action)
        if not outcome.accepted:
            raise IllegalActionError(str(outcome.action), outcome.reason or "", self.position.to_text())
        return outcome

    def apply(self, action: Action | str, *, dry_run: bool = False) -> Outcome:
        """Judge and (unless ``dry_run``) carry out one action."""
        act = Action.from_text(action) if isinstance(action, str) else action
        if act.kind != "tap" and not dry_run:
            self.selected = None  # any other action ends a selection, accepted or refused (I-TAP)
        if act.kind == "undo":
            return self._undo(act, dry_run)
        if self.status() in ("won", "lost"):
            return Outcome(act, False, "game-over")
        if act.kind == "reshuffle":
            return self._reshuffle(act, dry_run)
        if act.kind == "move":
            return self._move(act, act.src, act.dst, dry_run)
        if act.kind == "drop":
            return self._drop(act, dry_run)
        return self._tap(act, dry_run)

    def _move(self, act: Action, src: int, dst: int, dry_run: bool) -> Outcome:
        why = self._reason(src, dst)
        if why is not None:
            return Outcome(act, False, why)
        made = [MOVES[src][dst]]
        if not dry_run:
            self._record()
            self.position = self._moved(src, dst, 1)
            if self.profile.autoplay_when == "every-action":
                made += self._autoplay()
        return Outcome(act, True, effect="move", moves=tuple(made))

    def _record(self) -> None:
        if self.profile.undo_limit != 0:  # None: no limit
            self.history.append(self.position)
            if self.profile.undo_limit is not None and len(self.history) > self.profile.undo_limit:
                del self.history[0]

    def _autoplay(self) -> list[Action]:
        """transitions.autoplay, with the pile moves of each position kept for the next question."""
        made: list[Action] = []
        order = transitions.scan_order(self.profile.autoplay_order)
        while self.profile.autoplay and (step := transitions.first_forced(self._pile_moves(), order)) is not None:
            self.position = self._moved(*step, 0)
            made.append(MOVES[step[0]][step[1]])
        return made

    def _reshuffle(self, act: Action, dry_run: bool) -> Outcome:
        if not self.position.reshuffles:
            return Outcome(act, False, "no-reshuffles")
        if dry_run:
            return Outcome(act, True, effect="reshuffle")
        self.position = self._reshuffled()
        if self.profile.undo_cleared_by_reshuffle:
            self.history.clear()
        return Outcome(act, True, effect="reshuffle", moves=tuple(self._autoplay()))

    def _undo(self, act: Action, dry_run: bool) -> Outcome:
        if self.profile.undo_limit == 0:
            return Outcome(act, False, "undo-unavailable")
        if not self.history:
            return Outcome(act, False, "nothing-to-undo")
        if not dry_run:
            self.position = self.history.pop()
        return Outcome(act, True, effect="undo")

    def destinations(self, src: int) -> list[int]:
        """Places the card at ``src`` may legally move to."""
        return [d for d in range(PLACES) if self._reason(src, d) is None]

    def _tap(self, act: Action, dry_run: bool) -> Outcome:
        place, selected = act.src, self.selected
        if selected is not None:
            if not dry_run:
                self.selected = None
            if place == selected:
                return Outcome(act, True, effect="deselect")
            return self._move(act, selected, place, dry_run)
        refusal = self._tap_refusal(place)
        if refusal:
            return Outcome(act, False, refusal)
        targets = self.destinations(place)
        if len(targets) == 1:
            return self._move(act, place, targets[0], dry_run)
        if not dry_run:
            self.selected = place
        return Outcome(act, True, effect="select")

    def _tap_refusal(self, place: int) -> str | None:
        if place == HOLD or rules.source_card(self.position, place) < 0:
            return "empty-source"
        if place >= PILES and rules.is_base(self.position, place):
            return "base-locked"
        if place >= PILES and not (self.profile.between_foundations or self.profile.give_backs):
            return "foundation-final"
        return None

    def _drop(self, act: Action, dry_run: bool) -> Outcome:
        """The card goes to the first place that takes it: the hold, then its suit's two foundations,
        the ``drop_both_fit`` one first (a foundation's card: its partner only). I-DROP."""
        card = rules.source_card(self.position, act.src)
        if card < 0:
            return Outcome(act, False, "empty-source")
        first, second = (UP, DOWN) if self.profile.drop_both_fit == "ace" else (DOWN, UP)
        suit = card // 13
        targets = (HOLD, first + suit, second + suit) if act.src < PILES else (rules.partner(act.src),)
        for dst in targets:
            if self._reason(act.src, dst) is None:
                return self._move(act, act.src, dst, dry_run)
        return Outcome(act, False, self._drop_refusal(act.src, targets[-1]))

    def _drop_refusal(self, src: int, dst: int) -> str:
        """``no-foundation``, unless the card may not leave its foundation at all (I-DROP)."""
        first = self._reason(src, dst) if src >= PILES else None
        return first if first in ("base-locked", "foundation-final") else "no-foundation"

    def describe(self) -> str:
        """Position text plus the game's state outside the position (status, selection, undo depth)."""
        sel = place_text(self.selected) if self.selected is not None else "-"
        return f"{self.position.to_text()} | {self.status()} selected:{sel} undo:{len(self.history)}"
