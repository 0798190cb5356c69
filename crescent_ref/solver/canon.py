"""The canonical key of a position for the solver's transposition table.

Two positions get the same key exactly when the solver must give them the same answer, by these
symmetries of the rules (each one a true invariant, property-tested in tests/test_solver_canon.py):

- **The two copies of a card.** The engine writes a card as its index (``suit * 13 + rank - 1``)
  and never tells the copies apart, so positions that differ only by which copy lies where are the
  same tuple already: the key inherits that.
- **The move counter** counts moves and never decides one: it is left out.
- **Face-down cards** (closed deals). Only top cards move and a top card is always face up, so the
  faces never change which moves are legal (spec/rules.md §3): solving with every card known
  ("thoughtful" solving) ignores them. The key leaves them out.
- **The order of the piles.** No rule looks at a pile's number except autoplay (§14), which
  scans the piles in order. Without autoplay, renumbering the piles maps every legal line to a
  legal line, so the key sorts the piles. With autoplay the order stays as it is.

- **Where two meeting foundations split.** When a suit's King foundation shows one rank above its
  Ace foundation (they *meet*), the two hold one copy of every rank, and slides between them
  (``A♠-K♠``, ``K♠-A♠``: moves between foundations, in profiles that allow them) reach every split
  and come back; they change no pile, and the status is the same at every split (the status rule
  counts any pile card of a meeting suit as movable). So every split has the same answer, and the
  key writes a meeting suit as ``0, 0``. The search then needs every split's moves from whichever
  split it holds: ``steps`` offers, for each pile card of a meeting suit, the slides that make a
  foundation take it, then the move (from any split the result is the same: both foundations
  show its rank). Plain slides are not offered (they lead to the same key). This holds where
  nothing else looks at the split: not with give-backs (a card may leave a foundation for a pile)
  nor with autoplay (which foundation takes a card decides whether it goes up by itself); there
  the split is kept and slides are searched as moves.

Reshuffles left, the foundations and the hold are kept: each changes what can still happen.
"""

from __future__ import annotations

from crescent_ref import movegen, transitions
from crescent_ref.actions import DOWN, PILES, RESHUFFLE, UP, Action
from crescent_ref.position import Position
from crescent_ref.profiles import Profile

SEPARATOR = b"\xff"  # between piles; card indices are 0..51, so no pile contains it


def key(profile: Profile, pos: Position) -> bytes:
    """The canonical key: the piles (sorted unless the profile has autoplay), then a fixed-length
    tail of the eight foundation tops, the four held ranks and the reshuffles left."""
    piles = [bytes(p) for p in pos.piles]
    if not profile.autoplay:
        piles.sort()
    state = (pos.up, pos.down, pos.held, pos.reshuffles, slides_collapse(profile))
    end = _TAILS.get(state)
    if end is None:
        if len(_TAILS) >= TAILS_SIZE:
            _TAILS.clear()
        end = _TAILS[state] = tail(pos, state[-1])
    return SEPARATOR.join(piles) + end


_TAILS: dict[tuple[object, ...], bytes] = {}  # foundation states are few: a few thousand a solve
TAILS_SIZE = 100_000


def tail(pos: Position, collapse: bool) -> bytes:
    """The key's tail: foundations (a meeting suit as ``0, 0`` when slides collapse), hold, reshuffles."""
    up, down = pos.up, pos.down
    if collapse:
        meeting = [meets(pos, s) for s in range(4)]
        up = tuple(0 if m else r for m, r in zip(meeting, up, strict=True))
        down = tuple(0 if m else r for m, r in zip(meeting, down, strict=True))
    return bytes((*up, *down, *pos.held, min(pos.reshuffles, 255)))


def slides_collapse(profile: Profile) -> bool:
    """Meeting foundations are written as one (see the module doc): slides allowed, and neither
    give-backs nor autoplay look at the split."""
    return profile.between_foundations and not profile.give_backs and not profile.autoplay


def meets(pos: Position, suit: int) -> bool:
    """The suit's foundations meet and no card of the suit is held."""
    return not pos.held[suit] and pos.down[suit] == pos.up[suit] + 1


def steps(profile: Profile, pos: Position, pile_moves: list[Action]) -> list[tuple[Action, ...]]:
    """Every legal move as a one-action step, pile moves to foundations first; where meeting
    foundations collapse, slides-then-move steps for their suits instead of slides."""
    if slides_collapse(profile):
        return _collapsed_steps(pos, pile_moves)
    moves = list(pile_moves)
    if profile.between_foundations or profile.give_backs:
        moves += movegen.foundation_moves(profile, pos)
    return [(m,) for m in sorted(moves, key=_rank)]


def _collapsed_steps(pos: Position, pile_moves: list[Action]) -> list[tuple[Action, ...]]:
    meeting = [meets(pos, s) for s in range(4)]
    if not any(meeting):
        return [(m,) for m in sorted(pile_moves, key=_rank)]
    kept = [m for m in pile_moves if m.dst < PILES or not meeting[pos.piles[m.src][-1] // 13]]
    homes = [home(pos, src) for src, pile in enumerate(pos.piles) if pile and meeting[pile[-1] // 13]]
    return homes + [(m,) for m in sorted(kept, key=_rank)]


def home(pos: Position, src: int) -> tuple[Action, ...]:
    """Slides between the meeting foundations of the card on pile ``src``, then its move home, by
    the fewer slides: to the Ace foundation from a split showing rank - 1 there, or to the King
    foundation from one showing rank + 1 there."""
    suit, rank = divmod(pos.piles[src][-1], 13)
    rank += 1
    up, ace, king = pos.up[suit], UP + suit, DOWN + suit
    by_up = abs(up - (rank - 1)) if rank > 1 else 99
    by_down = abs(up - rank) if rank < 13 else 99
    target, dst = (rank - 1, ace) if by_up <= by_down else (rank, king)
    slide = Action.move(ace, king) if target < up else Action.move(king, ace)
    return (slide,) * abs(up - target) + (Action.move(src, dst),)


def _rank(move: Action) -> int:
    return 0 if move.src < PILES <= move.dst else 1 if move.src < PILES else 2


def after(profile: Profile, pos: Position, step: tuple[Action, ...]) -> Position:
    """The position after the accepted actions of ``step``, the profile's autoplay included."""
    for action in step:
        if action is RESHUFFLE:
            pos = transitions.reshuffle(pos)
        else:
            pos = transitions.move(pos, action.src, action.dst, count=1)
        if profile.autoplay:
            pos = transitions.autoplay(profile, pos)[0]
    return pos
