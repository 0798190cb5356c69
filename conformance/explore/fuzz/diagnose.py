"""Naming the broken rule of a difference, by asking both sides targeted questions.

``diagnose`` ends in one rule of rulebook.RULES. A refusal one side gives names its rule (wrong-rank
between a King and an Ace is the wrap, pile-full the pile limit, nothing-to-undo after a reshuffle
the cleared history); the experiments of experiment.py settle what a reason alone cannot: which card
the implementation moved (the top card?), whether it refuses the card that fits (the pile size?) or
accepts one that breaks the suit rule only (the suit? the rank?). A status difference is diagnosed
by the move (or its absence) that makes the sides disagree. The folding key is the rule's id.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.adapter import Reply
from conformance.explore.fuzz.compare import Difference, verdict
from conformance.explore.fuzz.experiment import (
    Ask,
    Scene,
    allowed_by_implementation,
    finished_foundation,
    fitting_cards,
    moved_card,
    neighbour_of_other_suit,
    trials,
)
from conformance.explore.fuzz.rulebook import Rule, cite, messages, rule, section
from crescent_ref import movegen, rules
from crescent_ref.actions import HOLD, PILES, Action, place_text
from crescent_ref.cards import ACE, CARD_TEXT, KING
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.position import Position, parse_pile

STATE_RULES = {
    "reshuffle": {"piles": "reshuffle-effect", "hidden": "turn-up", "moves": "reshuffle-counter",
                  "undo": "undo-reshuffle", "reshuffles": "reshuffles", "foundations": "autoplay",
                  "foundation_cards": "autoplay", "selected": "tap"},
    "undo": {"moves": "undo-counter", "undo": "undo-limit", "selected": "tap", "reshuffles": "undo-limit"},
    "move": {"hidden": "turn-up", "undo": "undo-limit", "moves": "move-counter", "selected": "tap",
             "reshuffles": "reshuffles"},
}
HOLD_REASONS = {"must-hold", "hold-unavailable", "not-double-fit"}
FIRST_REASONS = ("game-over", "base-locked", "foundation-final", "no-reshuffles", "undo-unavailable")
PLAIN_RULES = {"fault": "engine-fault", "refused": "refused-position", "flaky": "flaky"}


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A finding explained: the rule, a one-line title, area and section, a source, details, a folding key."""

    title: str
    area: str
    section: str
    source: dict[str, str] | None
    details: tuple[str, ...]
    key: tuple[object, ...]
    rule: str = ""
    statements: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """The rule a difference breaks, and the evidence, in words."""

    rule: str
    evidence: str
    details: tuple[str, ...] = ()
    reason: str | None = None  # the reason code whose statement to cite first


def describe(game: Game, action: str) -> str:
    """An action in card words: ``K♦ (p3) onto A♦ (p7, 4 cards)``, ``undo``."""
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


def why_refused(reason: str | None) -> str:
    """A refusal reason in words."""
    return f"{reason}: {messages().get(reason or '', 'refused')}" if reason else "refused"


def diagnose(diff: Difference, scene: Scene) -> Diagnosis:
    """Explain ``diff``; ``scene.game`` is the reference just before the differing action (or at the given
    position for a difference there, or a legal-move difference)."""
    found = classify(diff, scene)
    return finish(rule(found.rule), scene.game.profile.name, found, str(diff))


def finish(broken: Rule, profile: str, found: Verdict, shown: str) -> Diagnosis:
    """The diagnosis of ``found``: title ``area: the rule — evidence [section]``, cited source."""
    where = section(broken.area)
    source, ids = cite(broken, profile, found.reason)
    title = f"{broken.area}: {broken.says} — {found.evidence} [{where}]"
    return Diagnosis(title, broken.area, where, source, (shown, *found.details), (broken.id,), broken.id, ids)


def classify(diff: Difference, scene: Scene) -> Verdict:
    """The rule ``diff`` breaks, found by experiment where the answers alone do not say."""
    if diff.kind == "refused" and diff.step == 0:
        return Verdict(_refused(scene), str(diff).splitlines()[0])
    if diff.kind == "fault" and diff.action and _parses(diff.action):
        ok, why = scene.verdict(diff.action)
        if not ok:  # it broke down on an action the rules refuse: the rule it did not apply
            return Verdict(refusal_rule(scene, Action.from_text(diff.action), why),
                           f"{str(diff).splitlines()[0]} (the reference refuses it: {why})")
    if diff.kind in PLAIN_RULES:
        return Verdict(PLAIN_RULES[diff.kind], str(diff).splitlines()[0])
    if diff.kind == "reply":
        return _reply(diff, scene)
    if diff.kind == "legal-moves":
        return _legal(diff, scene)
    return _state(diff, scene)


def _refused(scene: Scene) -> str:
    """The implementation will not load a position: variants without one feature each (face-down cards,
    long piles, held cards, reshuffles left) are offered; the first it loads names the rule."""
    pos = scene.game.position
    variants = (
        ("deal", pos._replace(hidden=(0,) * len(pos.piles)) if any(pos.hidden) else None),
        ("pile-limit", _short_piles(pos, 12)),
        ("hold", _unheld(pos)),
        ("reshuffles", pos._replace(reshuffles=0) if pos.reshuffles else None),
    )
    for found, variant in variants:
        if variant is not None and scene.ask({"position": variant.to_text()}, ()) is not None:
            return found
    return "refused-position"


def _short_piles(pos: Position, most: int) -> Position | None:
    """``pos`` with the cards above ``most`` on any pile moved to the shortest non-empty piles."""
    piles = [list(p) for p in pos.piles]
    if max(len(p) for p in piles) <= most:
        return None
    for pile in piles:
        while len(pile) > most:
            shortest = min((p for p in piles if p and len(p) < most), key=len, default=None)
            if shortest is None:
                return None
            shortest.append(pile.pop())
    hidden = tuple(min(h, max(len(p) - 1, 0)) for h, p in zip(pos.hidden, piles, strict=True))
    return pos._replace(piles=tuple(tuple(p) for p in piles), hidden=hidden)


def _unheld(pos: Position) -> Position | None:
    """``pos`` with every held card put on a pile instead."""
    if not any(pos.held):
        return None
    piles = [list(p) for p in pos.piles]
    for suit, rank in enumerate(pos.held):
        if rank:
            min((p for p in piles if p), key=len).append(suit * 13 + rank - 1)
    return pos._replace(piles=tuple(tuple(p) for p in piles), held=(0, 0, 0, 0))


# -- a reply difference -------------------------------------------------------------------------------

def _reply(diff: Difference, scene: Scene) -> Verdict:
    action = diff.action or ""
    ref = scene.verdict(action) if _parses(action) else (diff.expected.startswith("accepts"), diff.reasons[0])
    impl = (diff.actual.startswith("accepts"), diff.reasons[1])
    said = f"{action}: the implementation {diff.actual} {describe(scene.game, action)}; the reference {diff.expected}"
    return _verdicts(scene, action, ref, impl, diff.meta.get("impl_state"), said, diff)


def _parses(action: str) -> bool:
    try:
        Action.from_text(action)
    except NotationError:
        return False
    return True


def _verdicts(scene: Scene, action: str, ref: tuple[bool, str | None], impl: tuple[bool, str | None],
              state: object, said: str, diff: Difference | None = None) -> Verdict:
    try:
        act = Action.from_text(action)
    except NotationError:
        return Verdict("reason-order", said)
    if act.kind in ("tap", "drop"):
        through = _through_move(scene, action, ref, impl, diff)
        if through is not None:
            return Verdict(through.rule, f"{said}; {through.evidence}" if through.evidence else said)
    if not ref[0] and impl[0]:
        other = moved_card(scene.game.position, act, state)
        if other is not None:
            top = CARD_TEXT[rules.source_card(scene.game.position, act.src)]
            return Verdict("top-card", f"{action}: the implementation moves {other}, not {place_text(act.src)}'s "
                           f"top card {top} (the reference refuses: {ref[1]})", (said,))
        return Verdict(refusal_rule(scene, act, ref[1]), said)
    if ref[0] and not impl[0]:
        return Verdict(acceptance_rule(scene, act, impl[1]), said)
    if not ref[0] and not impl[0]:
        return _both_refuse(scene, act, ref[1], impl[1], said)
    return Verdict(_both_accept(scene, act, diff), said)


def _through_move(scene: Scene, action: str, ref: tuple[bool, str | None], impl: tuple[bool, str | None],
                  diff: Difference | None) -> Verdict | None:
    """A tap or drop that differs because a move differs: the move the reference makes asked of the
    implementation, the move the implementation made judged by the reference."""
    ref_moves = _ref_moves(scene, action) if ref[0] else ()
    impl_moves = tuple(diff.meta.get("impl_moves", ())) if diff is not None and impl[0] else ()
    if impl_moves and (not ref_moves or impl_moves[0] != ref_moves[0]):
        ok, why = scene.verdict(impl_moves[0])
        if not ok:
            state = diff.meta.get("impl_state") if diff is not None else None
            return _verdicts(scene, impl_moves[0], (ok, why), (True, None), state, "")
        if not ref_moves:  # the reference selects: it sees other places the implementation does not
            missed = _other_place(scene, Action.from_text(action), impl_moves[0])
            if missed is not None:
                return missed
    if ref_moves and (not impl_moves or impl_moves[0] != ref_moves[0]):
        reply = scene.impl(ref_moves[0])
        if reply is not None and not reply.accepted:
            return Verdict(acceptance_rule(scene, Action.from_text(ref_moves[0]), reply.reason),
                           f"it refuses {ref_moves[0]} ({reply.reason})")
        act = Action.from_text(ref_moves[0])
        hit = allowed_by_implementation(scene, act.src)
        if hit is not None:
            ok, why = scene.verdict(hit[0])
            found = _verdicts(scene, hit[0], (ok, why), (True, None), hit[1].state, "")
            return Verdict(found.rule, f"it also accepts {hit[0]}, which the reference refuses ({why})")
    return None


def _other_place(scene: Scene, act: Action, taken: str) -> Verdict | None:
    """A place the reference's tap would also take the card to, refused by the implementation."""
    if act.kind != "tap" or scene.game.selected is not None:
        return None
    for dst in scene.game.destinations(act.src):
        move = f"{place_text(act.src)}-{place_text(dst)}"
        if move == taken:
            continue
        reply = scene.impl(move)
        if reply is not None and not reply.accepted:
            return Verdict(acceptance_rule(scene, Action.from_text(move), reply.reason),
                           f"the reference's tap also sees {move}, which the implementation refuses ({reply.reason})")
    return None


def _ref_moves(scene: Scene, action: str) -> tuple[str, ...]:
    game = Game(scene.game.profile, scene.game.position)
    game.selected = scene.game.selected
    out = game.apply(action)
    return tuple(str(m) for m in out.moves)


def refusal_rule(scene: Scene, act: Action, reason: str | None) -> str:
    """The rule the reference's refusal of ``act`` (with ``reason``) rests on."""
    pos, src, dst = scene.game.position, act.src, act.dst
    if act.kind in ("tap", "drop") and reason in ("no-foundation", "empty-source", None):
        return act.kind
    off_foundation = act.kind == "move" and PILES <= src < HOLD
    if reason in ("wrong-suit", "wrong-rank", "empty-pile", "pile-full") and off_foundation:
        return "give-back-target" if scene.game.profile.give_backs else "give-backs"
    if reason == "wrong-suit":
        return "pile-suit" if dst < PILES else "foundation-suit"
    if reason == "wrong-rank":
        return "pile-wrap" if _king_and_ace(scene, act) else "pile-rank"
    if reason == "out-of-sequence":
        if off_foundation:
            return "between-foundations"
        return "foundation-wrap" if PILES <= dst < HOLD and finished_foundation(pos, dst) else "foundation-sequence"
    if reason == "foundation-final":
        return "give-backs" if _onto_pile(scene, act) else "between-foundations"
    if reason == "nothing-to-undo":
        return "undo-reshuffle" if scene.since_reshuffle == 0 else "undo-limit"
    if reason == "game-over":  # what the rules would say if the game went on
        going = _as_if_going(scene, act)
        return refusal_rule(scene, act, going) if going else "game-over"
    return REFUSALS.get(reason or "", "reason-order")


def _onto_pile(scene: Scene, act: Action) -> bool:
    """``act`` puts a card on a pile: a move there, or a tap on a pile while a card is selected (I-TAP)."""
    if act.kind == "move":
        return act.dst < PILES
    return act.kind == "tap" and scene.game.selected is not None and act.src < PILES


def _as_if_going(scene: Scene, act: Action) -> str | None:
    pos = scene.game.position
    if act.kind == "reshuffle":
        return None if pos.reshuffles else "no-reshuffles"
    if act.kind == "move":
        return movegen.reason(scene.game.profile, pos, act.src, act.dst)
    return None


REFUSALS = {
    "empty-pile": "empty-piles", "pile-full": "pile-limit", "base-locked": "base-locked", "no-reshuffles": "reshuffles",
    "undo-unavailable": "undo-available", "game-over": "game-over", "must-hold": "hold", "not-double-fit": "hold",
    "hold-unavailable": "hold", "no-foundation": "drop",
}


def _king_and_ace(scene: Scene, act: Action) -> bool:
    pos = scene.game.position
    if act.kind != "move" or act.dst >= PILES or not pos.piles[act.dst]:
        return False
    card = rules.source_card(pos, act.src)
    return card >= 0 and {card % 13 + 1, pos.piles[act.dst][-1] % 13 + 1} == {ACE, KING}


def acceptance_rule(scene: Scene, act: Action, reason: str | None) -> str:
    """The rule the reference's acceptance of ``act`` rests on, that the implementation's refusal denies."""
    game, src, dst = scene.game, act.src, act.dst
    if act.kind == "undo":
        return {"undo-unavailable": "undo-available", "game-over": "undo-after-loss"}.get(reason or "", "undo-limit")
    if act.kind == "reshuffle":
        return "reshuffle-any-time" if game.status() == "playing" and reason != "game-over" else "reshuffles"
    if act.kind in ("tap", "drop"):
        return act.kind
    if reason == "game-over":
        return "stuck"
    if PILES <= src < HOLD:
        return "give-backs" if dst < PILES else "base-locked" if reason == "base-locked" else "between-foundations"
    if dst == HOLD or reason in ("must-hold", "not-double-fit", "hold-unavailable"):
        return "hold" if game.profile.hold_double_fit else "double-fit"
    if dst >= PILES:
        return "double-fit" if rules.fits_both(game.position, rules.source_card(game.position, src)) else \
            "foundation-sequence" if reason != "wrong-suit" else "foundation-suit"
    if reason == "pile-full":
        return "pile-limit"
    if _king_and_ace(scene, act):
        return "pile-wrap"
    return {"wrong-suit": "pile-suit", "empty-pile": "empty-piles"}.get(reason or "", "pile-rank")


def _both_refuse(scene: Scene, act: Action, ref: str | None, impl: str | None, said: str) -> Verdict:
    """Different reasons: the card that fits (is it the pile size?) and a card breaking only the
    reference's rule (is it the suit?) are asked of both sides."""
    if act.kind == "move" and act.src < PILES:
        cards = fitting_cards(scene, act.dst) + (neighbour_of_other_suit(scene, act.dst) if ref == "wrong-suit" else [])
        for trial in trials(scene, act, cards):
            (ref_ok, ref_why), (impl_ok, impl_why) = trial.reference, trial.implementation
            if ref_ok and not impl_ok:
                return Verdict(acceptance_rule(_at(scene, trial.position), act, impl_why), str(trial), (said,))
            if not ref_ok and impl_ok and ref_why == ref:
                return Verdict(refusal_rule(scene, act, ref), str(trial), (said,))
    if act.kind == "undo" and {ref, impl} == {"nothing-to-undo", "undo-unavailable"}:
        return Verdict("undo-available", said)
    if act.kind == "undo" and impl == "game-over":
        return Verdict("undo-after-loss", said)
    if {ref, impl} & HOLD_REASONS:
        return Verdict("hold" if scene.game.profile.hold_double_fit or impl == "must-hold" else "double-fit", said)
    if ref == "game-over":  # the implementation judges the action as if the game went on
        return Verdict("game-over", said)
    if ref in FIRST_REASONS:  # a rule the reference checks before any other, that the implementation skips
        return Verdict(refusal_rule(scene, act, ref), said)
    return Verdict("reason-order", said, (), ref)


def _at(scene: Scene, position: Position) -> Scene:
    return Scene(Game(scene.game.profile, position), scene.ask, scene.since_reshuffle)


def _both_accept(scene: Scene, act: Action, diff: Difference | None) -> str:
    """Both accept but do differently: a tap or drop went elsewhere, or autoplay after the same move."""
    ref_moves = diff.meta.get("ref_moves", ()) if diff else ()
    impl_moves = diff.meta.get("impl_moves", ()) if diff else ()
    if (ref_moves and ref_moves[:1] == impl_moves[:1]) or act.kind == "reshuffle":
        return "autoplay"
    if act.kind in ("tap", "drop"):
        return act.kind
    return "move-counter"


# -- a legal-move difference --------------------------------------------------------------------------

def _legal(diff: Difference, scene: Scene) -> Verdict:
    """Each missing or extra move is played on the implementation: its answer and its state say the rule."""
    lines: list[str] = []
    found: str | None = None
    for move in (*diff.extra[:3], *diff.missing[:3]):
        ref = scene.verdict(move)
        reply = scene.impl(move)
        impl = (reply.accepted, reply.reason) if reply else (move in diff.extra, None)
        said = (f"{move}: the implementation {verdict(*impl)} {describe(scene.game, move)}; "
                f"the reference {verdict(*ref)}")
        lines.append(said)
        if found is None and ref[0] != impl[0]:
            found = _verdicts(scene, move, ref, impl, reply.state if reply else None, said).rule
    head = f"legal moves: missing {', '.join(diff.missing) or 'none'}; extra {', '.join(diff.extra) or 'none'}"
    if found is None:
        found = refusal_rule(scene, Action.from_text(diff.extra[0]), scene.verdict(diff.extra[0])[1]) if diff.extra \
            else acceptance_rule(scene, Action.from_text(diff.missing[0]), None)
    return Verdict(found, f"{head} ({lines[0]})" if lines else head, (head, *lines))


# -- a state difference -------------------------------------------------------------------------------

def _state(diff: Difference, scene: Scene) -> Verdict:
    fields = sorted({f.field for f in diff.fields})
    shown = "; ".join(str(f) for f in diff.fields[:4]) + ("; …" if len(diff.fields) > 4 else "")
    where = f"after {diff.action}" if diff.action else "in the given position"
    said = f"state {where} differs in {', '.join(fields)}: {shown}"
    if fields == ["status"]:
        return _status(diff, scene, said)
    fields = [f for f in fields if f != "status"]  # a status that follows from the other parts
    return Verdict(_state_rule(diff, scene, fields), said)


def _state_rule(diff: Difference, scene: Scene, fields: list[str]) -> str:
    profile = scene.game.profile
    if "undo" in fields and diff.action is not None and not diff.action.startswith("reshuffle"):
        return _undo_after(scene, diff.action)
    if diff.action is None:
        if "reshuffles" in fields:
            return "reshuffles"
        if not _autoplay_explains(diff):
            return "deal"
        moved = {"foundations", "foundation_cards", "moves"} & set(fields)
        return "autoplay" if moved or (profile.autoplay and "hidden" not in fields) else "deal"
    kind = diff.action.split()[0]
    kind = kind if kind in STATE_RULES else "tap" if kind == "tap" else "drop" if kind == "drop" else "move"
    if kind in ("tap", "drop") and "selected" in fields:
        return "tap"
    table = STATE_RULES["move" if kind in ("tap", "drop") else kind]
    for name in ("hidden", "undo", "reshuffles", "selected", "moves", "piles", "foundations", "foundation_cards"):
        if name in fields and name in table:
            if name == "moves" and kind == "move" and _autoplayed(scene, diff.action):
                return "autoplay"
            return table[name]
    if kind == "undo":
        return "undo-limit"
    return "autoplay" if profile.autoplay or {"foundations", "foundation_cards"} & set(fields) else "top-card"


def _autoplay_explains(diff: Difference) -> bool:
    """Whether autoplay, played by one side and not the other, could have made the difference: it only
    takes top cards of piles to the foundations, so each differing pile of the side that autoplayed is
    the other's with top cards gone, the foundations differ too, and its count of foundation cards is
    higher. (A position loaded with a card lost, or a foundation emptied, is a fault of the loading,
    not of autoplay.)"""
    fields = {part.field for part in diff.fields}
    if ("piles" in fields) != bool(fields & {"foundations", "foundation_cards"}):
        return False  # autoplay moves cards from the piles to the foundations: both differ, or neither
    return _autoplayed_from(diff, theirs_moved=True) or _autoplayed_from(diff, theirs_moved=False)


def _autoplayed_from(diff: Difference, theirs_moved: bool) -> bool:
    """Whether the implementation's state (``theirs_moved``), or ours, is the other's after autoplay."""
    for part in diff.fields:
        before, after = (part.expected, part.actual) if theirs_moved else (part.actual, part.expected)
        if part.field == "foundation_cards" and not _number(after) > _number(before):
            return False
        if part.field == "piles":
            longer, shorter = _pile_cards(str(before)), _pile_cards(str(after))
            if longer is None or shorter is None or len(shorter) >= len(longer) or longer[: len(shorter)] != shorter:
                return False
    return True


def _pile_cards(text: str) -> tuple[int, ...] | None:
    """The cards of a pile's text, face-down ones too, bottom first; None if it is not a pile."""
    try:
        return parse_pile(text, 1)[0]
    except NotationError:
        return None


def _number(value: object) -> float:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else float("nan")


def _undo_after(scene: Scene, action: str) -> str:
    """The undo depths differ after ``action``: an undo asked of both sides says which undo rule."""
    game = _after(scene, action)
    ours = game.apply("undo", dry_run=True)
    reply = scene.ask(None, (action, "undo"))
    if reply is None or reply.accepted == ours.accepted:
        return "undo-limit"
    if ours.accepted:
        return acceptance_rule(Scene(game, scene.ask, scene.since_reshuffle), Action.from_text("undo"), reply.reason)
    return refusal_rule(Scene(game, scene.ask, scene.since_reshuffle), Action.from_text("undo"), ours.reason)


def _autoplayed(scene: Scene, action: str) -> bool:
    game = Game(scene.game.profile, scene.game.position)
    out = game.apply(action)
    return len(out.moves) > 1


def _status(diff: Difference, scene: Scene, said: str) -> Verdict:
    """Which move makes the sides disagree on the status (or that the win is early or missed)."""
    [part] = [f for f in diff.fields if f.field == "status"][:1]
    ref, impl = str(part.expected), str(part.actual)
    game = _after(scene, diff.action)
    foundation = game.position.foundation_count()
    if "won" in (ref, impl):
        return Verdict("won", f"{said} with {foundation} of 104 cards on the foundations", (said,))
    if (ref, impl) in (("playing", "lost"), ("playing", "waiting"), ("waiting", "lost")):
        return _kept_alive(Scene(game, _later(scene, diff.action), scene.since_reshuffle), ref, said)
    if ref == "lost" or (ref == "waiting" and impl == "playing"):
        return _impl_move(Scene(game, _later(scene, diff.action), scene.since_reshuffle), ref, impl, said)
    return Verdict("stuck", said)


def _kept_alive(scene: Scene, ref: str, said: str) -> Verdict:
    """The reference sees a move (or a reshuffle) the implementation does not: each asked of it; one it
    refuses by a rule names that rule, else the stuck rule with the move that keeps the game going."""
    game = scene.game
    moves = [str(m) for m in game.legal_moves()]
    if ref == "waiting" or not moves:
        return Verdict("stuck", f"{said}: no move is left, but {game.position.reshuffles} reshuffle(s)", (said,))
    going = _not_over(game)
    for move in moves[:8]:
        reply = scene.impl(move) if going is None else scene.impl(move, going)
        if reply is not None and not reply.accepted and reply.reason != "game-over":
            found = _verdicts(scene, move, (True, None), (False, reply.reason), reply.state, said)
            return Verdict(found.rule, f"{said}: it refuses {move} ({describe(game, move)}): {reply.reason}", (said,))
    act = Action.from_text(moves[0])
    kind = "a move between foundations" if act.dst >= PILES and act.src >= PILES else \
        "a give-back" if act.src >= PILES else "a pile move"
    return Verdict("stuck", f"{said}: {kind}, {act} ({describe(game, moves[0])}), keeps the game going", (said,))


def _not_over(game: Game) -> Position | None:
    """The position with a reshuffle left when it has none (so an implementation that calls it lost plays
    on, waiting), or None to ask at the position itself."""
    if game.position.reshuffles or not game.profile.reshuffles:
        return None
    return game.position._replace(reshuffles=1)


def _impl_move(scene: Scene, ref: str, impl: str, said: str) -> Verdict:
    """The reference sees no move (or only a reshuffle); find the one the implementation accepts."""
    if scene.game.position.reshuffles == 0:
        reply = scene.impl("reshuffle")
        if reply is not None and reply.accepted:
            return Verdict("reshuffles", f"{said}: the implementation accepts a reshuffle with none left", (said,))
    hit = allowed_by_implementation(scene)
    if hit is None:
        return Verdict("stuck", f"{said}: no move the implementation accepts was found", (said,))
    move, reply = hit
    act = Action.from_text(move)
    why = movegen.reason(scene.game.profile, scene.game.position, act.src, act.dst)  # as if the game went on
    ok = why is None
    found = _verdicts(scene, move, (ok, why), (True, None), reply.state, said)
    evidence = f"{said}: the implementation accepts {move} ({describe(scene.game, move)}), which the reference " \
               f"refuses ({why})"
    return Verdict(found.rule if found.rule not in ("game-over",) else "stuck", evidence, (said,))


def _after(scene: Scene, action: str | None) -> Game:
    game = Game(scene.game.profile, scene.game.position)
    game.history = list(scene.game.history)
    if action is not None:
        game.apply(action)
    return game


def _later(scene: Scene, action: str | None) -> Ask:
    """The scene's ask, moved on past ``action`` (questions asked after it)."""
    if action is None:
        return scene.ask

    def ask(given: dict[str, str] | None, actions: tuple[str, ...]) -> Reply | None:
        return scene.ask(given, actions if given is not None else (action, *actions))

    return ask


def base_of(profile: str) -> str:
    """The base profile of a profile name."""
    return profile.split("+")[0].split("[")[0]

