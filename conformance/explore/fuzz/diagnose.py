"""Explaining a (shrunk) difference: what each side says of each differing action, and the rule it touches.

For a reply difference the action itself is described ("K♦ onto A♦"); for a legal-move difference
both sides are asked about each missing or extra move (the reference by its rules, the
implementation by playing the move); the refusing side's reason names the rule area, the reference's
acceptance is explained in plain words ("King and Ace are neighbours on the piles"). The title says
it in one line; the key folds duplicates (same kind, area, reasons and fields).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from conformance.explore.fuzz.compare import Difference, verdict
from conformance.explore.fuzz.rulebook import area_of_reason, messages, section, source
from crescent_ref import movegen, rules
from crescent_ref.actions import HOLD, PILES, Action, place_text
from crescent_ref.cards import ACE, CARD_TEXT, KING
from crescent_ref.errors import NotationError
from crescent_ref.game import Game

Ask = Callable[[str], tuple[bool, str | None] | None]  # the implementation's verdict on an action, now
STATE_AREAS = {
    "undo": "undo", "status": "end-of-game", "reshuffles": "reshuffle", "held": "hold", "selected": "tap",
    "hidden": "closed", "foundations": "foundations", "foundation_cards": "foundations", "moves": "piles",
    "piles": "piles",
}
KIND_AREAS = {"reshuffle": "reshuffle", "undo": "undo", "tap": "tap", "drop": "drop"}


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A finding explained: a one-line title, the rule area and section, a source, details, a folding key."""

    title: str
    area: str
    section: str
    source: dict[str, str] | None
    details: tuple[str, ...]
    key: tuple[object, ...]


def describe(game: Game, action: str) -> str:
    """An action in card words: ``K♦ onto A♦``, ``5♠ onto the A♠ foundation``, ``undo``."""
    try:
        act = Action.from_text(action)
    except NotationError:
        return repr(action)
    if act.kind != "move":
        return str(act)
    pos = game.position
    moving = rules.source_card(pos, act.src)
    what = CARD_TEXT[moving] if moving >= 0 else "nothing"
    where = place_text(act.src) if act.src < PILES else f"from the {place_text(act.src)} foundation"
    if act.dst < PILES:
        pile = pos.piles[act.dst]
        target = CARD_TEXT[pile[-1]] if pile else f"the empty {place_text(act.dst)}"
        return f"{what} ({where}) onto {target} ({place_text(act.dst)}, {len(pile)} card{'s' * (len(pile) != 1)})"
    if act.dst == HOLD:
        return f"{what} ({where}) into the hold"
    top = CARD_TEXT[rules.source_card(pos, act.dst)]
    return f"{what} ({where}) onto the {place_text(act.dst)} foundation (top {top})"


def why_accepted(game: Game, action: str) -> tuple[str, str]:
    """The reference's plain reason for accepting ``action`` here, and the rule area it rests on."""
    act = Action.from_text(action)
    if act.kind == "tap":
        return _why_tap(game, act.src), "tap"
    if act.kind == "drop":
        return "drop tries the hold, then the Ace foundation, then the King foundation of the suit", "drop"
    if act.kind != "move":
        return _why_other(game, act.kind), KIND_AREAS.get(act.kind, "reasons")
    pos, profile, src, dst = game.position, game.profile, act.src, act.dst
    card = rules.source_card(pos, src)
    if src >= PILES and dst < PILES:
        return "give-backs let a foundation's top card return to a pile", "give-backs"
    if src >= PILES:
        return "the foundations have met: cards cross between them", "between-foundations"
    if dst == HOLD:
        return "the card fits both foundations of its suit, so it is held", "hold"
    if dst >= PILES:
        return f"{CARD_TEXT[card]} is next on the {place_text(dst)} foundation", "foundations"
    if card < 0 or not pos.piles[dst]:
        return "it takes an empty place" if card >= 0 else "it moves nothing", "empty-piles"
    size, ranks = len(pos.piles[dst]), {card % 13 + 1, pos.piles[dst][-1] % 13 + 1}
    if profile.pile_limit is not None and size >= profile.pile_limit - 1:
        return f"the pile holds {size} cards, under the limit of {profile.pile_limit}", "pile-limit"
    if profile.pile_limit is None and size >= 13:
        return f"piles have no limit in {profile.name} (this one holds {size})", "pile-limit"
    if ranks == {ACE, KING}:
        return "King and Ace are neighbours on the piles", "piles"
    return "same suit, one rank apart", "piles"


def _why_tap(game: Game, place: int) -> str:
    if game.selected is not None:
        return f"a second tap moves the card selected on {place_text(game.selected)}"
    targets = [place_text(d) for d in game.destinations(place)]
    if len(targets) == 1:
        return f"the card fits one place only ({targets[0]}): the tap moves it there"
    if not targets:
        return "the card fits no place: the tap selects it"
    return f"the card fits {len(targets)} places ({', '.join(targets)}): the tap selects it"


def area_for(reason: str | None, action: str) -> str:
    """The rule area of a refusal of ``action``: a move off a foundation is a give-back (onto a pile)
    or a move between foundations, whatever the reason; otherwise the reason's area."""
    try:
        act = Action.from_text(action)
    except NotationError:
        return area_of_reason(reason)
    if act.kind == "move" and PILES <= act.src < HOLD and reason not in ("empty-source", "same-place"):
        return "give-backs" if act.dst < PILES else "between-foundations"
    return area_of_reason(reason)


def _why_other(game: Game, kind: str) -> str:
    if kind == "reshuffle":
        return f"{game.position.reshuffles} reshuffle(s) left, and a reshuffle may be used at any time"
    if kind == "undo":
        return f"{len(game.history)} move(s) to take back"
    return f"{kind} is allowed here"


def why_refused(reason: str | None) -> str:
    """A refusal reason in words."""
    return f"{reason}: {messages().get(reason or '', 'refused')}" if reason else "refused"


def side(game: Game, action: str, accepted: bool, reason: str | None) -> tuple[str, str]:
    """How one side's verdict reads, and the area it names."""
    if accepted:
        why, area = why_accepted(game, action)
        return f"accepts: {why}", area
    return f"refuses ({why_refused(reason)})", area_for(reason, action)


def diagnose(diff: Difference, game: Game, ask: Ask) -> Diagnosis:
    """Explain ``diff``; ``game`` is the reference just before the differing action (or at the given)."""
    if diff.kind == "reply":
        return _reply(diff, game)
    if diff.kind == "legal-moves":
        return _legal(diff, game, ask)
    if diff.kind == "state":
        return _state(diff, game)
    title = str(diff).splitlines()[0]
    return Diagnosis(title, "reasons", section("reasons"), None, (str(diff),), (diff.kind,))


def _finish(game: Game, title: str, area: str, details: tuple[str, ...], key: tuple[object, ...],
            reason: str | None = None) -> Diagnosis:
    base = game.profile.name.split("+")[0].split("[")[0]
    where = section(area)
    return Diagnosis(f"{title} [{where}]", area, where, source(area, base, reason), details, key)


def _reply(diff: Difference, game: Game) -> Diagnosis:
    action = diff.action or ""
    ref_reason, impl_reason = diff.reasons
    ref_accepts = diff.expected.startswith("accepts")
    ref_says, ref_area = side(game, action, ref_accepts, ref_reason)
    impl_accepts = diff.actual.startswith("accepts")
    impl_area = side(game, action, impl_accepts, impl_reason)[1]
    area = ref_area if not ref_accepts or impl_accepts else impl_area
    if ref_accepts and impl_accepts:
        ref_says, area = _both_accept(diff, game, action, area)
    title = f"{action}: the implementation {diff.actual} {describe(game, action)}; the reference {ref_says}"
    key = ("reply", area, ref_reason, impl_reason)
    return _finish(game, title, area, (title,), key, ref_reason or impl_reason)


def _both_accept(diff: Difference, game: Game, action: str, area: str) -> tuple[str, str]:
    """Both accept but do differently: autoplay after the same move, or a move the reference refuses."""
    ref_moves, impl_moves = diff.meta.get("ref_moves", ()), diff.meta.get("impl_moves", ())
    says = f"{diff.expected}: {why_accepted(game, action)[0]}"
    if ref_moves and impl_moves and ref_moves[0] == impl_moves[0]:
        return f"{diff.expected}: the moves after the first are autoplay", "autoplay"
    if impl_moves:
        try:
            act = Action.from_text(impl_moves[0])
        except NotationError:
            return says, area
        reason = movegen.reason(game.profile, game.position, act.src, act.dst) if act.kind == "move" else None
        if reason:
            return f"{says}; it refuses {impl_moves[0]} ({why_refused(reason)})", area_for(reason, impl_moves[0])
    return says, area


def _legal(diff: Difference, game: Game, ask: Ask) -> Diagnosis:
    lines, areas, reasons = [], [], []
    for move in (*diff.missing[:3], *diff.extra[:3]):
        act = Action.from_text(move)
        ref_reason = movegen.reason(game.profile, game.position, act.src, act.dst)
        ref_says, ref_area = side(game, move, ref_reason is None, ref_reason)
        answer = ask(move)
        impl_says = verdict(*answer) if answer else "(could not be asked)"
        lines.append(f"{move}: the implementation {impl_says} {describe(game, move)}; the reference {ref_says}")
        areas.append(ref_area if ref_reason else area_for(answer[1], move) if answer and not answer[0] else ref_area)
        reasons.append(ref_reason or (answer[1] if answer else None))
    head = f"missing: {', '.join(diff.missing) or 'none'}; extra: {', '.join(diff.extra) or 'none'}"
    where = f"after {diff.action}" if diff.action else "in the given position"
    title = f"legal moves {where}: {head} ({lines[0]})" if lines else f"legal moves {where}: {head}"
    key = ("legal-moves", areas[0] if areas else "reasons", bool(diff.missing), bool(diff.extra))
    return _finish(game, title, areas[0] if areas else "reasons", (head, *lines), key, reasons[0] if reasons else None)


def _state(diff: Difference, game: Game) -> Diagnosis:
    fields = sorted({f.field for f in diff.fields})
    kind = diff.action.split()[0] if diff.action else ""
    area = "end-of-game" if "status" in fields else KIND_AREAS.get(kind) or STATE_AREAS.get(fields[0], "piles")
    if diff.action is None:
        loaded = "autoplay" if game.profile.autoplay else "layout"
        area = loaded if "status" not in fields else area
    elif game.profile.autoplay and kind not in KIND_AREAS and fields != ["status"]:
        area = "autoplay" if "foundations" in fields or "moves" in fields else area
    where = f"after {diff.action}" if diff.action else "in the given position"
    shown = "; ".join(str(f) for f in diff.fields[:4]) + ("; …" if len(diff.fields) > 4 else "")
    title = f"state {where} differs in {', '.join(fields)}: {shown}"
    return _finish(game, title, area, tuple(str(f) for f in diff.fields), ("state", area, tuple(fields)))

