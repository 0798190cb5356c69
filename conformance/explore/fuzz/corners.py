"""Generators of corner positions: one per rule corner, chosen per profile by its parameters.

Random play from a deal rarely gets where rules bite (a 13-card pile, a finished foundation, the
101st undo). Each generator here builds such a place directly (with ``Table``) and says which
actions to try there (``focus``) and, where the corner needs a history (long undo), which actions
to play first (``script``). docs/fuzzing.md has the table of generators and the rules they reach.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass

from conformance.explore.fuzz.duel import position_of
from conformance.explore.fuzz.table import Table, card
from crescent_ref.actions import DOWN, HOLD, PILES, UP, place_text
from crescent_ref.cards import ACE, KING
from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.profiles import Profile


@dataclass(frozen=True, slots=True)
class Start:
    """Where a game starts (``given``: position or code), actions to play first, actions worth trying."""

    corner: str
    given: dict[str, str]
    script: tuple[str, ...] = ()
    focus: tuple[str, ...] = ()


Make = Callable[[Profile, random.Random], Start]


@dataclass(frozen=True, slots=True)
class Corner:
    """A generator: its name, the rule areas it reaches, when it applies, how it builds a start."""

    name: str
    areas: tuple[str, ...]
    applies: Callable[[Profile, frozenset[str]], bool]
    make: Make
    weight: int = 1


def onto(targets: list[int], sources: range | list[int] = range(PILES)) -> tuple[str, ...]:
    """Every move from ``sources`` onto each target place."""
    return tuple(f"{place_text(s)}-{place_text(t)}" for t in targets for s in sources if s != t)


def _text(t: Table, **kw: int | bool) -> str:
    return t.position(**kw).to_text()  # type: ignore[arg-type]


# -- the generators -------------------------------------------------------------------------------

def dealt(profile: Profile, rng: random.Random) -> Start:
    """A game code, dealt: layout, deal order, face-down cards, reshuffle count, autoplay on the deal."""
    return Start("dealt", {"code": str(GameCode(rng.randrange(MAX_SEED + 1)))})


def played(profile: Profile, rng: random.Random) -> Start:
    """A position reached from a deal by up to 80 random legal actions (homeward every other ply)."""
    return Start("played", {"position": generated_position(rng.randrange(MAX_SEED + 1), rng.randrange(81), profile)})


def shuffled(profile: Profile, rng: random.Random) -> Start:
    """Random foundations and random piles: tops that fit foundations, autoplay on load, taps, drops."""
    t = Table(profile, rng)
    for suit in range(4):
        up = rng.randrange(ACE, 8)
        t.foundation(suit, up, rng.randrange(up + 2, KING + 1) if up < 12 else KING)
    t.reshuffles = rng.randrange(profile.reshuffles + 1)
    return Start("shuffled", {"position": _text(t, empty=rng.choice((0, 0, 1, 2)))})


def full_pile(profile: Profile, rng: random.Random) -> Start:
    """A pile at its limit, or one short of it (12-13 cards; 13-14 where there is none), with neighbours near."""
    limit = profile.pile_limit or 14
    t = Table(profile, rng)
    top = card(rng.randrange(4), rng.randrange(2, KING))
    near = [card(top // 13, top % 13), card(top // 13, top % 13 + 2)]
    size = limit - rng.choice((0, 1))
    rest = [c for c in t.pool() if c not in (top, *near)][: size - 1]
    target = t.pile([*rest, top])
    t.stacks([[c] for c in near], [rng.randrange(4) for _ in near])
    return Start("full-pile", {"position": _text(t)}, focus=onto([target]))


def foundation_end(profile: Profile, rng: random.Random) -> Start:
    """A foundation one or two cards from complete, or complete and offered its base rank again."""
    t, suit = Table(profile, rng), rng.randrange(4)
    short = rng.choice((0, 0, 1, 2))
    if rng.random() < 0.5:
        t.foundation(suit, KING - short, KING)
        tops = [card(suit, r) for r in range(KING - short + 1, KING + 1)] + [card(suit, ACE)]
        place = UP + suit
    else:
        t.foundation(suit, ACE, ACE + short)
        tops = [card(suit, r) for r in range(ACE, ACE + short)] + [card(suit, KING)]
        place = DOWN + suit
    piles = t.stacks([[c] for c in tops], [rng.randrange(3) for _ in tops])
    partner = place - 4 if place >= DOWN else place + 4
    return Start("foundation-end", {"position": _text(t)}, focus=onto([place], piles) + onto([place], [partner]))


def near_win(profile: Profile, rng: random.Random) -> Start:
    """Every foundation complete but one or two cards: one move from a win (then actions after it)."""
    t, suit = Table(profile, rng), rng.randrange(4)
    for s in range(4):
        t.foundation(s, KING, ACE)
    missing = rng.choice((1, 2))
    t.foundation(suit, KING, ACE + missing) if rng.random() < 0.5 else t.foundation(suit, KING - missing, ACE)
    t.reshuffles = rng.randrange(profile.reshuffles + 1)
    position = t.position(empty=PILES - 3)
    homes = [UP + s for s in range(4)] + [DOWN + s for s in range(4)]
    return Start("near-win", {"position": position.to_text()}, focus=(*onto(homes), "reshuffle", "undo", "p1-p2"))


def stuck(profile: Profile, rng: random.Random) -> Start:
    """No pile card can move (inert tops), with 0 or 1 reshuffle left: lost or waiting; reshuffle at the edge."""
    t = Table(profile, rng)
    for suit in range(4):
        up = rng.randrange(ACE, 6)
        t.foundation(suit, up, rng.randrange(up + 3, KING + 1))
    t.reshuffles = rng.choice((0, 1))
    return Start("stuck", {"position": _text(t, inert=True)}, focus=("reshuffle", "reshuffle", "undo"))


def one_move_left(profile: Profile, rng: random.Random) -> Start:
    """Inert piles but one pair that can meet: one move from a loss (or from waiting)."""
    t = Table(profile, rng)
    for suit in range(4):
        up = rng.randrange(ACE, 6)
        t.foundation(suit, up, rng.randrange(up + 3, KING + 1))
    suit, rank = rng.randrange(4), rng.randrange(7, 11)
    a = t.pile([card(suit, rank)])
    b = t.pile([card(suit, rank + 1)])
    t.reshuffles = rng.choice((0, 1))
    return Start("one-move-left", {"position": _text(t, inert=True)},
                 script=(f"{place_text(b)}-{place_text(a)}",), focus=("reshuffle", "undo", "reshuffle"))


def met_stuck(profile: Profile, rng: random.Random) -> Start:
    """No pile card can move, but two foundations of a suit meet (a card may cross between them) or,
    with give-backs, a foundation's top fits a pile: playing in ``app`` (stuck_when: no-move), lost or
    waiting where only pile cards count (I-STUCK)."""
    t, suit = Table(profile, rng), rng.randrange(4)
    for s in range(4):
        up = rng.randrange(ACE, 6)
        t.foundation(s, up, rng.randrange(up + 3, KING + 1))
    up = rng.randrange(ACE + 1, 12)
    t.foundation(suit, up, up + 1)
    t.quiet_suits = {suit}  # with a pile top of the suit, slides would free it: every profile plays on
    t.reshuffles = rng.choice((0, 0, 1))
    places = [UP + suit, DOWN + suit]
    focus = onto(places, places) + onto(list(range(PILES)), places) + ("reshuffle", "undo")
    return Start("met-stuck", {"position": _text(t, inert=True)}, focus=focus)


def finished(profile: Profile, rng: random.Random) -> Start:
    """A game already over when it is given: won (every card home) or lost (stuck, no reshuffle left);
    then undo with nothing to undo, a reshuffle, moves (I-GAME-OVER, I-UNDO-WHEN-OVER)."""
    t = Table(profile, rng)
    if rng.random() < 0.5:
        for s in range(4):
            t.foundation(s, KING, ACE)
        t.reshuffles = rng.randrange(profile.reshuffles + 1)
        return Start("finished", {"position": t.position(empty=PILES).to_text()},
                     focus=("undo", "reshuffle", "p1-p2", "drop p1", "tap p1"))
    for s in range(4):
        up = rng.randrange(ACE, 6)
        t.foundation(s, up, rng.randrange(up + 3, KING + 1))
    t.reshuffles = 0
    return Start("finished", {"position": _text(t, inert=True)}, focus=("undo", "reshuffle", "undo"))


def meeting(profile: Profile, rng: random.Random) -> Start:
    """The two foundations of a suit one or two cards apart (met, or a card that fits both)."""
    t, suit = Table(profile, rng), rng.randrange(4)
    up = rng.randrange(ACE, 11)
    gap = rng.choice((1, 2))
    t.foundation(suit, up, up + gap)
    piles = t.stacks([[card(suit, r)] for r in (up, up + 1, up + 2)], [rng.randrange(3) for _ in range(3)])
    places = [UP + suit, DOWN + suit]
    focus = onto(places, piles) + onto([HOLD], piles) + onto(places, places) + onto(list(range(PILES)), places)
    drops = tuple(f"drop p{i + 1}" for i in piles) * 4
    taps = tuple(f"{kind} {place_text(p)}" for p in (*piles, *places) for kind in ("tap", "drop"))
    both = f"drop {place_text(piles[1])}"  # with gap 2 its card fits both foundations: which one takes it?
    first = (both,) if gap == 2 and rng.random() < 0.5 else (rng.choice(drops + taps),) if rng.random() < 0.5 else ()
    return Start("meeting", {"position": _text(t)}, script=first, focus=focus + drops + taps)


def base_only(profile: Profile, rng: random.Random) -> Start:
    """A foundation down to its base card, its partner one card from taking it: base cards asked to move."""
    t, suit = Table(profile, rng), rng.randrange(4)
    if rng.random() < 0.5:
        t.foundation(suit, ACE, ACE + 1)
        end = card(suit, KING)
    else:
        t.foundation(suit, KING - 1, KING)
        end = card(suit, ACE)
    t.stacks([[end], [card(suit, 2)], [card(suit, 12)]], [2, 2, 2])
    places = [UP + suit, DOWN + suit]
    focus = onto(list(range(PILES)), places) + onto(places, places)
    focus += tuple(f"{kind} {place_text(p)}" for p in places for kind in ("tap", "drop"))
    return Start("base-only", {"position": _text(t)}, focus=focus)


def give_back(profile: Profile, rng: random.Random) -> Start:
    """Foundations with tops whose pile neighbours top piles: give-backs (and refusals without them)."""
    t, suit = Table(profile, rng), rng.randrange(4)
    up = rng.randrange(3, 7)
    down = rng.randrange(up + 3, 12)
    t.foundation(suit, up, down)
    ranks = (up - 1, up + 1, down - 1, down + 1)
    t.stacks([[card(suit, r)] for r in ranks], [rng.randrange(3) for _ in ranks])
    places = [UP + suit, DOWN + suit]
    return Start("give-back", {"position": _text(t)}, focus=onto(list(range(PILES)), places))


def long_undo(profile: Profile, rng: random.Random) -> Start:
    """A card moved back and forth past the undo limit, then undone once more than the limit (or a reshuffle)."""
    t = Table(profile, rng)
    suit, rank = rng.randrange(4), rng.randrange(2, KING)
    a, b = t.stacks([[card(suit, rank)], [card(suit, rank), card(suit, rank + 1)]], [3, 3])
    there, back = f"{place_text(b)}-{place_text(a)}", f"{place_text(a)}-{place_text(b)}"
    n = _history_length(profile.undo_limit, rng)
    moves = tuple(there if k % 2 == 0 else back for k in range(n))
    tail = ("undo",) * (n + 1) if rng.random() < 0.75 else ("reshuffle", "undo", "undo")
    t.reshuffles = max(t.reshuffles, 1)
    return Start("long-undo", {"position": _text(t)}, script=moves + tail)


LONG_HISTORY = 250  # most moves the long-undo corner plays before undoing (an unbounded or large limit)


def _history_length(limit: int | None, rng: random.Random) -> int:
    """How many moves to play: one or two past the limit (a long history when the limit is unbounded or
    larger than LONG_HISTORY, so the corner stays inside --seconds), or a few."""
    if rng.random() >= 0.7:
        return rng.randrange(1, 6)
    if limit is None or limit > LONG_HISTORY:
        return rng.randrange(LONG_HISTORY // 2, LONG_HISTORY)
    return limit + rng.choice((1, 2))


def closed_turn(profile: Profile, rng: random.Random) -> Start:
    """Face-down piles whose top card can leave at once (a card about to turn), and a reshuffle over them."""
    t = Table(profile, rng)
    pairs = [(rng.randrange(4), rng.randrange(2, KING)) for _ in range(3)]
    tops = [[card(s, r + k)] for s, r in pairs for k in (0, 1)]
    t.stacks(tops, [rng.randrange(1, 5) for _ in tops])
    return Start("closed-turn", {"position": _text(t)}, focus=("reshuffle",))


def held(profile: Profile, rng: random.Random) -> Start:
    """A card that fits both foundations of its suit, held or about to be, and the cards that decide it."""
    t, suit = Table(profile, rng), rng.randrange(4)
    up = rng.randrange(ACE, 11)
    holding = rng.random() < 0.5
    t.foundation(suit, up, up + 2, up + 1 if holding else 0)
    ranks = (up + 1, up, up + 2, up + 3)
    t.stacks([[card(suit, r)] for r in ranks], [rng.randrange(3) for _ in ranks])
    places = [UP + suit, DOWN + suit]
    focus = onto(places) + onto([HOLD]) + onto(places, places) + onto(list(range(PILES)), places)
    return Start("held", {"position": _text(t)}, focus=focus + tuple(f"drop p{i + 1}" for i in range(PILES)))


def wrap_piles(profile: Profile, rng: random.Random) -> Start:
    """Kings and Aces of two suits on top of piles: the wrap (or its absence)."""
    t, suits = Table(profile, rng), rng.sample(range(4), 2)
    tops = [[card(s, r)] for s in suits for r in (ACE, KING)]
    ends = t.stacks(tops, [rng.randrange(4) for _ in tops])
    return Start("wrap-piles", {"position": _text(t)}, focus=onto(ends, ends))


def empty_piles(profile: Profile, rng: random.Random) -> Start:
    """Empty piles and cards offered to them."""
    t = Table(profile, rng)
    position = t.position(empty=rng.randrange(1, 4))
    empties = [i for i, p in enumerate(position.piles) if not p]
    return Start("empty-piles", {"position": position.to_text()}, focus=onto(empties))


def generated_position(seed: int, plies: int, profile: Profile | str) -> str:
    """A position reached from a dealt code by ``plies`` pseudo-random legal actions (reproducible).

    Every other ply prefers a move towards the foundations (or the hold) when there is one, so that
    play gets far enough for foundations to meet and double-fit cards to appear.
    """
    game = Game.deal(profile, str(GameCode(seed % (MAX_SEED + 1))))
    for ply in range(plies):
        moves = game.legal_moves()
        options = [str(m) for m in moves] + (["reshuffle"] if game.position.reshuffles else [])
        if not options or game.status() in ("won", "lost"):
            break
        homeward = [str(m) for m in moves if m.src < PILES <= m.dst]
        pick = homeward if homeward and ply % 2 else options
        digest = hashlib.sha256(f"{seed}:{ply}".encode()).digest()
        game.apply(pick[int.from_bytes(digest[:4], "big") % len(pick)])
    return game.position.to_text()


def _always(profile: Profile, caps: frozenset[str]) -> bool:
    return True


def _has_undo(profile: Profile) -> bool:
    limit: int | None = profile.undo_limit
    return limit is None or limit > 0


CORNERS: tuple[Corner, ...] = (
    Corner("dealt", ("layout", "game-codes", "closed", "autoplay"), lambda p, c: "game-codes" in c, dealt),
    Corner("played", ("piles", "foundations", "reshuffle", "autoplay"), _always, played, 2),
    Corner("shuffled", ("piles", "foundations", "autoplay", "tap", "drop"), _always, shuffled, 2),
    Corner("full-pile", ("pile-limit", "reasons"), _always, full_pile, 2),
    Corner("foundation-end", ("foundations",), _always, foundation_end, 2),
    Corner("near-win", ("end-of-game",), _always, near_win),
    Corner("stuck", ("end-of-game", "reshuffle"), _always, stuck),
    Corner("one-move-left", ("end-of-game", "undo"), _always, one_move_left),
    Corner("meeting", ("between-foundations", "foundations", "drop"), _always, meeting, 2),
    Corner("base-only", ("foundations", "between-foundations", "give-backs", "tap"), _always, base_only),
    Corner("give-back", ("give-backs",), _always, give_back),
    Corner("long-undo", ("undo", "reshuffle"), lambda p, c: _has_undo(p) and "undo" in c, long_undo, 2),
    Corner("met-stuck", ("end-of-game", "between-foundations", "give-backs"),
           lambda p, c: p.between_foundations or p.give_backs, met_stuck),
    Corner("finished", ("end-of-game", "undo"), _always, finished),
    Corner("closed-turn", ("closed", "reshuffle"), lambda p, c: p.closed, closed_turn, 2),
    Corner("held", ("hold",), lambda p, c: p.hold_double_fit, held, 2),
    Corner("wrap-piles", ("piles",), _always, wrap_piles),
    Corner("empty-piles", ("empty-piles",), _always, empty_piles),
)


# What each generator reaches: the profile parameters (spec/profiles.yaml) and interpretations
# (spec/interpretations.md) whose rule its positions put to the test; docs/fuzzing.md has the table,
# and a test checks that every parameter and interpretation is reached or listed in NOT_REACHED.
REACHES: dict[str, tuple[str, ...]] = {
    "dealt": ("deal", "reshuffles", "autoplay", "I-DEAL", "I-AUTOPLAY-SCOPE", "I-PILE-NUMBERS"),
    "played": ("pile_wrap", "reshuffles", "autoplay", "autoplay_when", "I-REASON-ORDER", "I-AUTOPLAY-SCOPE",
               "I-AUTOPLAY-WHEN"),
    "shuffled": ("autoplay", "autoplay_order", "autoplay_when", "I-AUTOPLAY-SCOPE", "I-AUTOPLAY-ORDER",
                 "I-AUTOPLAY-WHEN", "I-AUTOPLAY-BOOKS", "I-TAP", "I-DROP", "I-EMPTY-PILES"),
    "full-pile": ("pile_limit", "I-PILE-LIMIT", "I-REASON-ORDER"),
    "foundation-end": ("I-REASON-ORDER",),
    "near-win": ("stuck_when", "I-GAME-OVER", "I-STUCK"),
    "stuck": ("reshuffles", "stuck_when", "I-STUCK", "I-UNDO-AFTER-RESHUFFLE"),
    "one-move-left": ("stuck_when", "undo_limit", "I-STUCK", "I-GAME-OVER"),
    "met-stuck": ("between_foundations", "give_backs", "stuck_when", "I-STUCK", "I-BETWEEN-FOUNDATIONS"),
    "finished": ("I-GAME-OVER", "I-UNDO-WHEN-OVER"),
    "meeting": ("between_foundations", "hold_double_fit", "drop_both_fit", "I-BETWEEN-FOUNDATIONS",
                "I-DOUBLE-FIT-CHOICE", "I-DROP"),
    "base-only": ("between_foundations", "I-BETWEEN-FOUNDATIONS", "I-TAP", "I-DROP"),
    "give-back": ("give_backs", "I-GIVE-BACK-TARGET", "I-HOFFMANN-SILENT"),
    "long-undo": ("undo_limit", "undo_cleared_by_reshuffle", "I-UNDO-SCOPE", "I-UNDO-AFTER-RESHUFFLE"),
    "closed-turn": ("deal", "I-CLOSED-TURNUP"),
    "held": ("hold_double_fit", "drop_both_fit", "I-HOFFMANN-HOLD"),
    "wrap-piles": ("pile_wrap", "I-HOFFMANN-SEQUENCE"),
    "empty-piles": ("I-EMPTY-PILES", "I-HOFFMANN-SILENT"),
}
NOT_REACHED: dict[str, str] = {
    "I-EXAMPLE-CARDS": "the worked example's filled-in cards are scenarios of the corpus, not a rule to play",
}


def corners_for(profile: Profile, capabilities: frozenset[str]) -> list[Corner]:
    """The generators that apply to ``profile`` (and the implementation's capabilities), each ``weight`` times."""
    return [c for c in CORNERS if c.applies(profile, capabilities) for _ in range(c.weight)]


def make_start(corner: Corner, profile: Profile, rng: random.Random) -> Start | None:
    """A start from ``corner`` the reference accepts under ``profile``, or None (the table did not fit)."""
    try:
        start = corner.make(profile, rng)
        if "position" in start.given:
            Game(profile, position_of(start.given["position"]))
    except NotationError:
        return None
    return start
