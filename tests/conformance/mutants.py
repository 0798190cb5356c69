"""Faulty engines: the reference engine with exactly one rule broken, kept as data.

Each Mutant names the rule it breaks (rule areas of spec/vocabulary.yaml, interpretation ids of
spec/interpretations.md, reason codes of spec/reasons.yaml) and how: one ``unittest.mock``
patch of crescent_ref, active only while its adapter serves a request. A profile parameter is
changed by patching the profile lookup of crescent_ref.game.

Every mutant is also an in-process implementation for the plugin:
``--crescent-impl mutants:<name>`` (this folder on the path) builds its adapter.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

from conformance.adapter import Info, Reply
from conformance.adapters.reference import ReferenceAdapter
from crescent_ref import deal, game, movegen, rules, transitions
from crescent_ref.actions import DOWN, HOLD, MOVES, PILES, Action
from crescent_ref.cards import ACE, KING
from crescent_ref.game import Game, Outcome
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, get_profile

Patch = tuple[str, Any]
BASES = ("app", "open", "hoffmann-1892", "morehead-1949")


@dataclass(frozen=True, slots=True)
class Mutant:
    """One faulty engine: the rule it breaks (areas, interpretations, reasons) and the patch that breaks it."""

    name: str
    how: str
    areas: tuple[str, ...]
    patch: Patch
    interpretations: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    fuzz_profile: str = "app"  # a profile where the mutant plays differently (for differential play)


def profile_change(bases: tuple[str, ...], **changes: Any) -> Patch:
    """Change profile parameters of the named base profiles (with any variants)."""

    @functools.cache
    def tweaked(name: str) -> Profile:
        profile = get_profile(name)
        return dataclasses.replace(profile, **changes) if name.split("+")[0] in bases else profile

    return ("crescent_ref.game.get_profile", tweaked)


# The reference functions the patches wrap, taken before any patch.
_FAULTS, _MOVE, _RESHUFFLE, _AUTOPLAY = rules.faults, transitions.move, transitions.reshuffle, transitions.autoplay
_APPLY, _DESTINATIONS, _STATUS_OF, _DEAL = Game.apply, Game.destinations, game.status_of, deal.deal_position
_FROM_TEXT = Game.from_text
Faults = Callable[[list[str], Position, int, int], list[str]]


def reason_change(change: Faults) -> Patch:
    """Change the reasons a move is refused (``movegen.reason``: moves, taps and drops alike)."""

    def reason(profile: Profile, pos: Position, src: int, dst: int) -> str | None:
        found = change(list(_FAULTS(profile, pos, src, dst)), pos, src, dst)
        return found[0] if found else None

    return ("crescent_ref.movegen.reason", reason)


def _full_says_wrong_suit(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    return ["wrong-suit" if f == "pile-full" else f for f in found]


def _rank_before_suit(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    return [f for f in found if f != "wrong-suit" or "wrong-rank" not in found]


def _empty_pile_takes_any(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    return [] if found == ["empty-pile"] else found


def _base_unlocked(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    return [f for f in found if f != "base-locked"]


def _foundations_wrap(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    if found != ["out-of-sequence"] or rules.foundation_takes(pos, dst):
        return found
    base = ACE if dst < DOWN else KING
    return [] if rules.source_card(pos, src) % 13 + 1 == base else found


def _crossing_any_rank(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    crossing = PILES <= src < HOLD and PILES <= dst < HOLD
    return [f for f in found if f != "out-of-sequence"] if crossing else found


def _give_back_anywhere(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    giving_back = PILES <= src < HOLD and dst < PILES
    return [f for f in found if f not in ("wrong-suit", "wrong-rank")] if giving_back else found


def _reshuffle_top_to_bottom(pos: Position) -> Position:
    piles = tuple(p[-1:] + p[:-1] if len(p) > 1 else p for p in pos.piles)
    return pos._replace(piles=piles, reshuffles=pos.reshuffles - 1)


def _reshuffle_as_move(pos: Position) -> Position:
    after = _RESHUFFLE(pos)
    return after._replace(moves=after.moves + 1)


def _reshuffle_keeping_hidden(pos: Position) -> Position:
    return _RESHUFFLE(pos)._replace(hidden=pos.hidden)


def _autoplay_counted(profile: Profile, pos: Position) -> tuple[Position, list[tuple[int, int]]]:
    after, made = _AUTOPLAY(profile, pos)
    return after._replace(moves=after.moves + len(made)), made


def _move_without_turning(pos: Position, src: int, dst: int, **kwargs: Any) -> Position:
    after = _MOVE(pos, src, dst, **kwargs)
    if src >= PILES:
        return after
    hidden = list(after.hidden)
    hidden[src] = pos.hidden[src]
    return after._replace(hidden=tuple(hidden))


def _first_destination(self: Game, src: int) -> list[int]:
    return _DESTINATIONS(self, src)[:1]


def _action(action: Action | str) -> Action:
    return Action.from_text(action) if isinstance(action, str) else action


def _drop_king_first(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act = _action(action)
    card = rules.source_card(self.position, act.src) if act.kind == "drop" else -1
    king = DOWN + card // 13
    if card >= 0 and movegen.reason(self.profile, self.position, act.src, king) is None:
        return _APPLY(self, MOVES[act.src][king], dry_run=dry_run)
    return _APPLY(self, act, dry_run=dry_run)


def _undo_keeps_count(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act, moves = _action(action), self.position.moves
    out = _APPLY(self, act, dry_run=dry_run)
    if act.kind == "undo" and out.accepted and not dry_run:
        self.position = self.position._replace(moves=moves)
    return out


def _endless_reshuffles(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act = _action(action)
    if act.kind == "reshuffle" and not self.position.reshuffles:
        self.position = self.position._replace(reshuffles=1)
    return _APPLY(self, act, dry_run=dry_run)


def _playing(self: Game) -> str:
    return "playing"


def _game_over_ignored(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act = _action(action)
    if act.kind == "undo":
        return _APPLY(self, act, dry_run=dry_run)
    with mock.patch.object(Game, "status", _playing):
        return _APPLY(self, act, dry_run=dry_run)


def _undo_refused_when_over(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act = _action(action)
    if act.kind == "undo" and self.status() in ("won", "lost"):
        return Outcome(act, False, "game-over")
    return _APPLY(self, act, dry_run=dry_run)


def _reshuffle_only_when_stuck(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act = _action(action)
    if act.kind == "reshuffle" and self.status() == "playing":
        return Outcome(act, False, "no-reshuffles")
    return _APPLY(self, act, dry_run=dry_run)


def _selection_kept(self: Game, action: Action | str, *, dry_run: bool = False) -> Outcome:
    act, selected = _action(action), self.selected
    out = _APPLY(self, act, dry_run=dry_run)
    if act.kind != "tap" and not dry_run:
        self.selected = selected
    return out


def _autoplayed_on_load(cls: type[Game], profile: Profile | str, text: str) -> Game:
    loaded = _FROM_TEXT(profile, text)
    if loaded.profile.autoplay:
        loaded.position = transitions.autoplay(loaded.profile, loaded.position)[0]
    return loaded


def _waiting_is_lost(*args: Any, **kwargs: Any) -> str:
    status = _STATUS_OF(*args, **kwargs)
    return "lost" if status == "waiting" else status


def _won_is_lost(*args: Any, **kwargs: Any) -> str:
    status = _STATUS_OF(*args, **kwargs)
    return "lost" if status == "won" else status


def _won_one_card_early(profile: Profile, pos: Position, pile_moves: list[Action] | None = None) -> str:
    return "won" if pos.foundation_count() >= 103 else _STATUS_OF(profile, pos, pile_moves)


def _deal_reversed(*args: Any, **kwargs: Any) -> Position:
    pos = _DEAL(*args, **kwargs)
    return pos._replace(piles=pos.piles[::-1], hidden=pos.hidden[::-1])


def _apply(new: Callable[..., Outcome]) -> Patch:
    return ("crescent_ref.game.Game.apply", new)


# fmt: off
MUTANTS: tuple[Mutant, ...] = (
    Mutant("no_pile_wrap", "King and Ace are not neighbours on the piles (app, open, 1949)",
           areas=("piles",), patch=profile_change(("app", "open", "morehead-1949"), pile_wrap=False)),
    Mutant("foundation_wrap", "a finished foundation takes its base rank again (foundations wrap)",
           areas=("foundations",), reasons=("out-of-sequence",), patch=reason_change(_foundations_wrap)),
    Mutant("pile_limit_14", "the app's piles hold 14 cards",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=14)),
    Mutant("no_pile_limit_in_app", "the app's piles have no limit",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=None)),
    Mutant("reshuffle_top_to_bottom", "the reshuffle moves each pile's top card to its bottom",
           areas=("reshuffle",), patch=("crescent_ref.transitions.reshuffle", _reshuffle_top_to_bottom)),
    Mutant("reshuffle_counts_a_move", "a reshuffle adds one to the move counter",
           areas=("reshuffle",), patch=("crescent_ref.transitions.reshuffle", _reshuffle_as_move)),
    Mutant("undo_across_reshuffle", "a reshuffle keeps the app's undo history",
           areas=("undo", "reshuffle"), reasons=("nothing-to-undo",),
           patch=profile_change(("app",), undo_cleared_by_reshuffle=False)),
    Mutant("undo_limit_99", "the app undoes at most 99 moves",
           areas=("undo",), reasons=("nothing-to-undo",), patch=profile_change(("app",), undo_limit=99)),
    Mutant("no_undo_in_app", "the app has no undo",
           areas=("undo",), interpretations=("I-UNDO-SCOPE",), reasons=("undo-unavailable",),
           patch=profile_change(("app",), undo_limit=0)),
    Mutant("undo_keeps_the_move_count", "an undo does not take its move back off the counter",
           areas=("undo",), patch=_apply(_undo_keeps_count)),
    Mutant("full_pile_says_wrong_suit", "a move onto a full pile is refused as wrong-suit, not pile-full",
           areas=("pile-limit", "reasons"), reasons=("pile-full",), patch=reason_change(_full_says_wrong_suit)),
    Mutant("rank_before_suit", "wrong-rank takes precedence over wrong-suit",
           areas=("reasons",), interpretations=("I-REASON-ORDER",), reasons=("wrong-suit",),
           patch=reason_change(_rank_before_suit)),
    Mutant("empty_piles_refillable", "any card may go onto an empty pile",
           areas=("empty-piles",), interpretations=("I-EMPTY-PILES",), reasons=("empty-pile",),
           patch=reason_change(_empty_pile_takes_any)),
    Mutant("base_card_movable", "a foundation's base Ace or King is not locked",
           areas=("foundations", "between-foundations"), reasons=("base-locked",), patch=reason_change(_base_unlocked)),
    Mutant("between_foundations_in_open", "open lets cards cross between the two foundations of a suit",
           areas=("between-foundations",), interpretations=("I-BETWEEN-FOUNDATIONS",), reasons=("foundation-final",),
           patch=profile_change(("open",), between_foundations=True), fuzz_profile="open"),
    Mutant("give_backs_everywhere", "every profile lets a foundation's top card return to a pile",
           areas=("give-backs",), interpretations=("I-GIVE-BACK-TARGET",), reasons=("foundation-final",),
           patch=profile_change(BASES, give_backs=True)),
    Mutant("no_autoplay_in_open", "open plays no automatic moves",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",), patch=profile_change(("open",), autoplay=False),
           fuzz_profile="open"),
    Mutant("autoplay_in_app", "the app plays 001's automatic moves",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",), patch=profile_change(("app",), autoplay=True)),
    Mutant("autoplay_counts_moves", "automatic moves add to the move counter",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",),
           patch=("crescent_ref.transitions.autoplay", _autoplay_counted), fuzz_profile="open"),
    Mutant("tap_moves_when_several_fit", "a tap moves to the first of several destinations instead of selecting",
           areas=("tap",), interpretations=("I-TAP",),
           patch=("crescent_ref.game.Game.destinations", _first_destination)),
    Mutant("drop_prefers_king_foundation", "a drop tries the King foundation before the Ace foundation",
           areas=("drop",), interpretations=("I-DROP",), patch=_apply(_drop_king_first)),
    Mutant("closed_deal_no_turnup", "an uncovered face-down card stays face down",
           areas=("closed",), interpretations=("I-CLOSED-TURNUP",),
           patch=("crescent_ref.transitions.move", _move_without_turning), fuzz_profile="morehead-1949"),
    Mutant("waiting_reported_as_lost", "a game waiting for a reshuffle is reported lost",
           areas=("end-of-game",), interpretations=("I-STUCK",),
           patch=("crescent_ref.game.status_of", _waiting_is_lost)),
    Mutant("four_reshuffles_in_app", "an app deal gets 4 reshuffles",
           areas=("reshuffle", "game-codes", "layout"), patch=profile_change(("app",), reshuffles=4)),
    Mutant("endless_reshuffles", "a reshuffle is never refused for want of reshuffles",
           areas=("reshuffle",), reasons=("no-reshuffles",), patch=_apply(_endless_reshuffles)),
    Mutant("hoffmann_without_hold", "1892 has no hold between the rows",
           areas=("hold",), interpretations=("I-HOFFMANN-HOLD",), reasons=("must-hold", "not-double-fit"),
           patch=profile_change(("hoffmann-1892",), hold_double_fit=False), fuzz_profile="hoffmann-1892"),
    Mutant("hoffmann_wraps", "1892 lets King and Ace meet on the piles",
           areas=("piles",), interpretations=("I-HOFFMANN-SEQUENCE",), reasons=("wrong-rank",),
           patch=profile_change(("hoffmann-1892",), pile_wrap=True), fuzz_profile="hoffmann-1892"),
    Mutant("deal_piles_reversed", "a game code deals its piles in reverse order (pile 16 first)",
           areas=("game-codes", "layout"), interpretations=("I-DEAL",),
           patch=("crescent_ref.deal.deal_position", _deal_reversed)),
    Mutant("game_over_ignored", "actions after a win or a loss are judged as if the game went on",
           areas=("end-of-game",), interpretations=("I-GAME-OVER",), reasons=("game-over",),
           patch=_apply(_game_over_ignored)),
    Mutant("undo_refused_after_game_over", "the app refuses undo once the game is lost",
           areas=("undo", "end-of-game"), interpretations=("I-GAME-OVER",), patch=_apply(_undo_refused_when_over)),
    Mutant("won_reported_as_lost", "a finished game is reported lost",
           areas=("end-of-game",), interpretations=("I-STUCK",), patch=("crescent_ref.game.status_of", _won_is_lost)),
    Mutant("morehead_dealt_open", "1949 deals every card face up",
           areas=("closed", "layout", "game-codes"), patch=profile_change(("morehead-1949",), deal="open"),
           fuzz_profile="morehead-1949"),
    Mutant("closed_reshuffle_keeps_hidden", "a reshuffle leaves the card it brings to the top face down",
           areas=("reshuffle", "closed"), interpretations=("I-CLOSED-TURNUP",),
           patch=("crescent_ref.transitions.reshuffle", _reshuffle_keeping_hidden), fuzz_profile="morehead-1949"),
    Mutant("crossing_out_of_sequence", "a card crosses to the other foundation whatever that foundation's top",
           areas=("between-foundations",), interpretations=("I-BETWEEN-FOUNDATIONS",), reasons=("out-of-sequence",),
           patch=reason_change(_crossing_any_rank)),
    Mutant("give_back_anywhere", "a given-back card may land on any pile, whatever its top",
           areas=("give-backs",), interpretations=("I-GIVE-BACK-TARGET",), patch=reason_change(_give_back_anywhere),
           fuzz_profile="app+give-backs"),
    Mutant("reshuffle_only_when_stuck", "a reshuffle is refused while moves remain",
           areas=("reshuffle",), interpretations=("I-STUCK",), patch=_apply(_reshuffle_only_when_stuck)),
    Mutant("selection_survives_other_actions", "a move, undo or reshuffle keeps a tap's selection",
           areas=("tap",), interpretations=("I-TAP",), patch=_apply(_selection_kept)),
    Mutant("autoplay_on_load", "open autoplays a position as soon as it is loaded",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",),
           patch=("crescent_ref.game.Game.from_text", classmethod(_autoplayed_on_load)), fuzz_profile="open"),
    # the deep corners of differential play (issue 10)
    Mutant("pile_limit_12", "the app's piles hold 12 cards (the limit off by one)",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=12)),
    Mutant("unlimited_undo", "the app undoes every move of the game, not only the last 100",
           areas=("undo",), reasons=("nothing-to-undo",), patch=profile_change(("app",), undo_limit=1_000_000)),
    Mutant("won_one_card_early", "a game with 103 cards on the foundations is reported won",
           areas=("end-of-game",), patch=("crescent_ref.game.status_of", _won_one_card_early)),
)
# fmt: on
BY_NAME = {m.name: m for m in MUTANTS}


class MutantAdapter(ReferenceAdapter):
    """The reference adapter with one mutant's patch active while it serves a request."""

    def __init__(self, mutant: Mutant) -> None:
        super().__init__()
        self.mutant = mutant

    @contextmanager
    def broken(self) -> Iterator[None]:
        """The mutant's patch, for the duration of one request."""
        target, new = self.mutant.patch
        with mock.patch(target, new):
            yield

    def info(self) -> Info:
        """The reference's info under the mutant's name."""
        return dataclasses.replace(super().info(), name=f"mutant-{self.mutant.name}")

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start with the rule broken."""
        with self.broken():
            return super().start(profile, position=position, code=code)

    def act(self, action: str) -> Reply:
        """Act with the rule broken."""
        with self.broken():
            return super().act(action)

    def legal_moves(self) -> list[str]:
        """Legal moves with the rule broken."""
        with self.broken():
            return super().legal_moves()


def __getattr__(name: str) -> Callable[[], MutantAdapter]:
    """``mutants:<name>`` is a factory for ``--crescent-impl``."""
    if name not in BY_NAME:
        raise AttributeError(f"no mutant {name!r}; known: {', '.join(BY_NAME)}")
    return lambda: MutantAdapter(BY_NAME[name])
