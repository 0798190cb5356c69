"""Faulty engines: the reference engine with exactly one rule broken (``MUTANTS``), or several (``MULTI``).

Each Mutant names the rule it breaks (rule areas of spec/vocabulary.yaml, interpretation ids of
spec/interpretations.md, reason codes of spec/reasons.yaml, and the rule id differential play
should name) and how: ``unittest.mock`` patches of crescent_ref, active only while its adapter
serves a request. A profile parameter is changed by patching the profile lookup of
crescent_ref.game. A MULTI engine lists its bugs (single mutants) and combines their patches.

Every mutant is also an in-process implementation for the plugin:
``--crescent-impl mutants:<name>`` (this folder on the path) builds its adapter.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
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
    """One faulty engine: the rule it breaks (areas, interpretations, reasons), the patch that breaks it,
    and the rule differential play should name (``rule``: an id of conformance/explore/fuzz/rulebook.py).

    An engine with several independent bugs lists them as ``bugs`` (each a Mutant); its patches are
    theirs, combined (profile changes merged, reason changes chained).
    """

    name: str
    how: str
    areas: tuple[str, ...]
    patch: Patch | None
    interpretations: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    fuzz_profile: str = "app"  # a profile where the mutant plays differently (for differential play)
    rule: str = ""
    bugs: tuple[Mutant, ...] = ()
    extra: tuple[Patch, ...] = ()  # further patches of a single bug

    @property
    def patches(self) -> tuple[Patch, ...]:
        """Every patch the engine needs, combined per target."""
        if not self.bugs:
            return ((self.patch,) if self.patch else ()) + self.extra
        return combine([p for bug in self.bugs for p in bug.patches])

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules the engine breaks: one per bug."""
        return tuple(b.rule for b in self.bugs) if self.bugs else (self.rule,)


class ProfileChange:
    """A patch of the profile lookup: some parameters of the named base profiles (with any variants) changed."""

    def __init__(self, bases: tuple[str, ...], changes: dict[str, Any]) -> None:
        self.bases, self.changes = bases, changes
        self.tweaked = functools.cache(self._tweak)

    def _tweak(self, name: str) -> Profile:
        profile = get_profile(name)
        return dataclasses.replace(profile, **self.changes) if name.split("+")[0] in self.bases else profile

    def __call__(self, name: str) -> Profile:
        return self.tweaked(name)


def profile_change(bases: tuple[str, ...], **changes: Any) -> Patch:
    """Change profile parameters of the named base profiles (with any variants)."""
    return ("crescent_ref.game.get_profile", ProfileChange(bases, changes))


def combine(patches: list[Patch]) -> tuple[Patch, ...]:
    """One patch per target: profile changes merged (each for its bases), reason changes chained."""
    by_target: dict[str, list[Any]] = {}
    for target, new in patches:
        by_target.setdefault(target, []).append(new)
    combined: list[Patch] = []
    for target, news in by_target.items():
        if len(news) == 1:
            combined.append((target, news[0]))
        elif all(isinstance(n, ProfileChange) for n in news):
            combined.append((target, _merged_profiles(news)))
        elif all(isinstance(n, ReasonChange) for n in news):
            combined.append((target, ReasonChange(_chained([n.change for n in news]))))
        else:
            raise ValueError(f"bugs patch {target} in ways that cannot be combined")
    return tuple(combined)


def _merged_profiles(changes: list[ProfileChange]) -> Callable[[str], Profile]:
    @functools.cache
    def tweaked(name: str) -> Profile:
        profile = get_profile(name)
        for change in changes:
            if name.split("+")[0] in change.bases:
                profile = dataclasses.replace(profile, **change.changes)
        return profile

    return tweaked


# The reference functions the patches wrap, taken before any patch.
_FAULTS, _MOVE, _RESHUFFLE, _AUTOPLAY = rules.faults, transitions.move, transitions.reshuffle, transitions.autoplay
_APPLY, _DESTINATIONS, _STATUS_OF, _DEAL = Game.apply, Game.destinations, game.status_of, deal.deal_position
_FROM_TEXT = Game.from_text
Faults = Callable[[list[str], Position, int, int], list[str]]


class ReasonChange:
    """A patch of ``movegen.reason``: the reference's reasons for a move, changed."""

    def __init__(self, change: Faults) -> None:
        self.change = change

    def __call__(self, profile: Profile, pos: Position, src: int, dst: int) -> str | None:
        found = self.change(list(_FAULTS(profile, pos, src, dst)), pos, src, dst)
        return found[0] if found else None


def _chained(changes: list[Faults]) -> Faults:
    def chain(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
        for change in changes:
            found = change(found, pos, src, dst)
        return found

    return chain


def reason_change(change: Faults) -> Patch:
    """Change the reasons a move is refused (``movegen.reason``: moves, taps and drops alike)."""
    return ("crescent_ref.movegen.reason", ReasonChange(change))


def _buried_fit(pos: Position, src: int, dst: int) -> bool:
    """The card under pile ``src``'s top would fit pile ``dst`` (same suit, one rank away, with the wrap)."""
    if not (src < PILES and dst < PILES and src != dst) or len(pos.piles[src]) < 2 or not pos.piles[dst]:
        return False
    card, top = pos.piles[src][-2], pos.piles[dst][-1]
    return card // 13 == top // 13 and (card % 13 - top % 13) % 13 in (1, 12) and len(pos.piles[dst]) < 13


def _any_card_moves(found: list[str], pos: Position, src: int, dst: int) -> list[str]:
    if found and found[0] in ("wrong-suit", "wrong-rank") and _buried_fit(pos, src, dst):
        return []
    return found


def _move_buried(pos: Position, src: int, dst: int, **kwargs: Any) -> Position:
    if src >= PILES or dst >= PILES or not _buried_fit(pos, src, dst) or not _FAULTS_SAY(pos, src, dst):
        return _MOVE(pos, src, dst, **kwargs)
    piles = list(pos.piles)
    card = piles[src][-2]
    piles[src] = (*piles[src][:-2], piles[src][-1])
    piles[dst] = (*piles[dst], card)
    return pos._replace(piles=tuple(piles), moves=pos.moves + kwargs.get("count", 0))


def _FAULTS_SAY(pos: Position, src: int, dst: int) -> bool:
    """The reference refuses the top card's move by suit or rank (so the buried card is the one moved)."""
    top, target = pos.piles[src][-1], pos.piles[dst][-1]
    return top // 13 != target // 13 or (top % 13 - target % 13) % 13 not in (1, 12)


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
           areas=("piles",), patch=profile_change(("app", "open", "morehead-1949"), pile_wrap=False), rule="pile-wrap"),
    Mutant("foundation_wrap", "a finished foundation takes its base rank again (foundations wrap)",
           areas=("foundations",), reasons=("out-of-sequence",), patch=reason_change(_foundations_wrap),
           rule="foundation-wrap"),
    Mutant("pile_limit_14", "the app's piles hold 14 cards",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=14), rule="pile-limit"),
    Mutant("no_pile_limit_in_app", "the app's piles have no limit",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=None), rule="pile-limit"),
    Mutant("reshuffle_top_to_bottom", "the reshuffle moves each pile's top card to its bottom",
           areas=("reshuffle",), patch=("crescent_ref.transitions.reshuffle", _reshuffle_top_to_bottom),
           rule="reshuffle-effect"),
    Mutant("reshuffle_counts_a_move", "a reshuffle adds one to the move counter",
           areas=("reshuffle",), patch=("crescent_ref.transitions.reshuffle", _reshuffle_as_move),
           rule="reshuffle-counter"),
    Mutant("undo_across_reshuffle", "a reshuffle keeps the app's undo history",
           areas=("undo", "reshuffle"), reasons=("nothing-to-undo",),
           patch=profile_change(("app",), undo_cleared_by_reshuffle=False), rule="undo-reshuffle"),
    Mutant("undo_limit_99", "the app undoes at most 99 moves",
           areas=("undo",), reasons=("nothing-to-undo",), patch=profile_change(("app",), undo_limit=99),
           rule="undo-limit"),
    Mutant("no_undo_in_app", "the app has no undo",
           areas=("undo",), interpretations=("I-UNDO-SCOPE",), reasons=("undo-unavailable",),
           patch=profile_change(("app",), undo_limit=0), rule="undo-available"),
    Mutant("undo_keeps_the_move_count", "an undo does not take its move back off the counter",
           areas=("undo",), patch=_apply(_undo_keeps_count), rule="undo-counter"),
    Mutant("full_pile_says_wrong_suit", "a move onto a full pile is refused as wrong-suit, not pile-full",
           areas=("pile-limit", "reasons"), reasons=("pile-full",), patch=reason_change(_full_says_wrong_suit),
           rule="reason-order"),
    Mutant("rank_before_suit", "wrong-rank takes precedence over wrong-suit",
           areas=("reasons",), interpretations=("I-REASON-ORDER",), reasons=("wrong-suit",),
           patch=reason_change(_rank_before_suit), rule="reason-order"),
    Mutant("empty_piles_refillable", "any card may go onto an empty pile",
           areas=("empty-piles",), interpretations=("I-EMPTY-PILES",), reasons=("empty-pile",),
           patch=reason_change(_empty_pile_takes_any), rule="empty-piles"),
    Mutant("base_card_movable", "a foundation's base Ace or King is not locked",
           areas=("foundations", "between-foundations"), reasons=("base-locked",), patch=reason_change(_base_unlocked),
           rule="base-locked"),
    Mutant("between_foundations_in_open", "open lets cards cross between the two foundations of a suit",
           areas=("between-foundations",), interpretations=("I-BETWEEN-FOUNDATIONS",), reasons=("foundation-final",),
           patch=profile_change(("open",), between_foundations=True), fuzz_profile="open", rule="between-foundations"),
    Mutant("give_backs_everywhere", "every profile lets a foundation's top card return to a pile",
           areas=("give-backs",), interpretations=("I-GIVE-BACK-TARGET",), reasons=("foundation-final",),
           patch=profile_change(BASES, give_backs=True), rule="give-backs"),
    Mutant("no_autoplay_in_open", "open plays no automatic moves",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",), patch=profile_change(("open",), autoplay=False),
           fuzz_profile="open", rule="autoplay"),
    Mutant("autoplay_in_app", "the app plays 001's automatic moves",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",), patch=profile_change(("app",), autoplay=True),
           rule="autoplay"),
    Mutant("autoplay_counts_moves", "automatic moves add to the move counter",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",),
           patch=("crescent_ref.transitions.autoplay", _autoplay_counted), fuzz_profile="open", rule="autoplay"),
    Mutant("tap_moves_when_several_fit", "a tap moves to the first of several destinations instead of selecting",
           areas=("tap",), interpretations=("I-TAP",),
           patch=("crescent_ref.game.Game.destinations", _first_destination), rule="tap"),
    Mutant("drop_prefers_king_foundation", "a drop tries the King foundation before the Ace foundation",
           areas=("drop",), interpretations=("I-DROP",), patch=_apply(_drop_king_first), rule="drop"),
    Mutant("closed_deal_no_turnup", "an uncovered face-down card stays face down",
           areas=("closed",), interpretations=("I-CLOSED-TURNUP",),
           patch=("crescent_ref.transitions.move", _move_without_turning), fuzz_profile="morehead-1949",
           rule="turn-up"),
    Mutant("waiting_reported_as_lost", "a game waiting for a reshuffle is reported lost",
           areas=("end-of-game",), interpretations=("I-STUCK",),
           patch=("crescent_ref.game.status_of", _waiting_is_lost), rule="stuck"),
    Mutant("four_reshuffles_in_app", "an app deal gets 4 reshuffles",
           areas=("reshuffle", "game-codes", "layout"), patch=profile_change(("app",), reshuffles=4),
           rule="reshuffles"),
    Mutant("endless_reshuffles", "a reshuffle is never refused for want of reshuffles",
           areas=("reshuffle",), reasons=("no-reshuffles",), patch=_apply(_endless_reshuffles), rule="reshuffles"),
    Mutant("hoffmann_without_hold", "1892 has no hold between the rows",
           areas=("hold",), interpretations=("I-HOFFMANN-HOLD",), reasons=("must-hold", "not-double-fit"),
           patch=profile_change(("hoffmann-1892",), hold_double_fit=False), fuzz_profile="hoffmann-1892", rule="hold"),
    Mutant("hoffmann_wraps", "1892 lets King and Ace meet on the piles",
           areas=("piles",), interpretations=("I-HOFFMANN-SEQUENCE",), reasons=("wrong-rank",),
           patch=profile_change(("hoffmann-1892",), pile_wrap=True), fuzz_profile="hoffmann-1892", rule="pile-wrap"),
    Mutant("deal_piles_reversed", "a game code deals its piles in reverse order (pile 16 first)",
           areas=("game-codes", "layout"), interpretations=("I-DEAL",),
           patch=("crescent_ref.deal.deal_position", _deal_reversed), rule="deal"),
    Mutant("game_over_ignored", "actions after a win or a loss are judged as if the game went on",
           areas=("end-of-game",), interpretations=("I-GAME-OVER",), reasons=("game-over",),
           patch=_apply(_game_over_ignored), rule="game-over"),
    Mutant("undo_refused_after_game_over", "the app refuses undo once the game is lost",
           areas=("undo", "end-of-game"), interpretations=("I-GAME-OVER",), patch=_apply(_undo_refused_when_over),
           rule="undo-after-loss"),
    Mutant("won_reported_as_lost", "a finished game is reported lost",
           areas=("end-of-game",), interpretations=("I-STUCK",), patch=("crescent_ref.game.status_of", _won_is_lost),
           rule="won"),
    Mutant("morehead_dealt_open", "1949 deals every card face up",
           areas=("closed", "layout", "game-codes"), patch=profile_change(("morehead-1949",), deal="open"),
           fuzz_profile="morehead-1949", rule="deal"),
    Mutant("closed_reshuffle_keeps_hidden", "a reshuffle leaves the card it brings to the top face down",
           areas=("reshuffle", "closed"), interpretations=("I-CLOSED-TURNUP",),
           patch=("crescent_ref.transitions.reshuffle", _reshuffle_keeping_hidden), fuzz_profile="morehead-1949",
           rule="turn-up"),
    Mutant("crossing_out_of_sequence", "a card crosses to the other foundation whatever that foundation's top",
           areas=("between-foundations",), interpretations=("I-BETWEEN-FOUNDATIONS",), reasons=("out-of-sequence",),
           patch=reason_change(_crossing_any_rank), rule="between-foundations"),
    Mutant("give_back_anywhere", "a given-back card may land on any pile, whatever its top",
           areas=("give-backs",), interpretations=("I-GIVE-BACK-TARGET",), patch=reason_change(_give_back_anywhere),
           fuzz_profile="app+give-backs", rule="give-back-target"),
    Mutant("reshuffle_only_when_stuck", "a reshuffle is refused while moves remain",
           areas=("reshuffle",), interpretations=("I-STUCK",), patch=_apply(_reshuffle_only_when_stuck),
           rule="reshuffle-any-time"),
    Mutant("selection_survives_other_actions", "a move, undo or reshuffle keeps a tap's selection",
           areas=("tap",), interpretations=("I-TAP",), patch=_apply(_selection_kept), rule="tap"),
    Mutant("autoplay_on_load", "open autoplays a position as soon as it is loaded",
           areas=("autoplay",), interpretations=("I-AUTOPLAY-SCOPE",),
           patch=("crescent_ref.game.Game.from_text", classmethod(_autoplayed_on_load)), fuzz_profile="open",
           rule="autoplay"),
    # the deep corners of differential play (issue 10)
    Mutant("pile_limit_12", "the app's piles hold 12 cards (the limit off by one)",
           areas=("pile-limit",), interpretations=("I-PILE-LIMIT",), reasons=("pile-full",),
           patch=profile_change(("app",), pile_limit=12), rule="pile-limit"),
    Mutant("unlimited_undo", "the app undoes every move of the game, not only the last 100",
           areas=("undo",), reasons=("nothing-to-undo",), patch=profile_change(("app",), undo_limit=1_000_000),
           rule="undo-limit"),
    Mutant("won_one_card_early", "a game with 103 cards on the foundations is reported won",
           areas=("end-of-game",), patch=("crescent_ref.game.status_of", _won_one_card_early), rule="won"),
    # issue 24: a rule no generator reached, and the top-card rule
    Mutant("stuck_counts_only_pile_cards", "the app calls a game lost when no pile card can move, though two "
           "foundations that meet still let a card cross", areas=("end-of-game",), interpretations=("I-STUCK",),
           patch=profile_change(("app",), stuck_when="no-pile-move"), rule="stuck"),
    Mutant("any_card_moves", "the card under a pile's top may move onto a pile it fits, when the top does not",
           areas=("piles",), patch=reason_change(_any_card_moves), rule="top-card",
           extra=(("crescent_ref.transitions.move", _move_buried),)),
)
BY_NAME = {m.name: m for m in MUTANTS}


def _bugs(*names: str) -> tuple[Mutant, ...]:
    return tuple(BY_NAME[n] for n in names)


# Engines with several independent bugs: differential play should report each bug once, in one run.
MULTI: tuple[Mutant, ...] = (
    Mutant("five_bugs", "no wrap, empty piles accept cards, four reshuffles, undo keeps the counter, won one "
           "card early", areas=("piles", "empty-piles", "reshuffle", "undo", "end-of-game"), patch=None,
           bugs=_bugs("no_pile_wrap", "empty_piles_refillable", "four_reshuffles_in_app", "undo_keeps_the_move_count",
                      "won_one_card_early")),
    Mutant("four_bugs_app", "piles hold 12, base cards move, undo reaches past a reshuffle, waiting reported lost",
           areas=("pile-limit", "between-foundations", "undo", "end-of-game"), patch=None,
           bugs=_bugs("pile_limit_12", "base_card_movable", "undo_across_reshuffle", "waiting_reported_as_lost")),
    Mutant("three_bugs_open", "open crosses between foundations, says wrong-rank before wrong-suit, counts a "
           "reshuffle as a move", areas=("between-foundations", "reasons", "reshuffle"), patch=None,
           fuzz_profile="open",
           bugs=_bugs("between_foundations_in_open", "rank_before_suit", "reshuffle_counts_a_move")),
)
# fmt: on
ALL_BY_NAME = {m.name: m for m in (*MUTANTS, *MULTI)}


class MutantAdapter(ReferenceAdapter):
    """The reference adapter with one mutant's patch active while it serves a request."""

    def __init__(self, mutant: Mutant) -> None:
        super().__init__()
        self.mutant = mutant

    @contextmanager
    def broken(self) -> Iterator[None]:
        """The mutant's patches, for the duration of one request."""
        with ExitStack() as stack:
            for target, new in self.mutant.patches:
                stack.enter_context(mock.patch(target, new))
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
    if name not in ALL_BY_NAME:
        raise AttributeError(f"no mutant {name!r}; known: {', '.join(ALL_BY_NAME)}")
    return lambda: MutantAdapter(ALL_BY_NAME[name])
