"""Places on the table and the actions a player takes.

Places: piles ``p1``..``p16``; the Ace foundations ``A♠ A♥ A♦ A♣`` and the King foundations
``K♠ K♥ K♦ K♣`` (a foundation is named by its base card); ``hold``, the spot between the two
foundation rows where a profile with ``hold_double_fit`` parks a card that fits both foundations.

Actions, one canonical text each:
``p10-p14`` (move a top card), ``p5-A♠``, ``A♠-K♠``, ``K♠-p3``, ``p7-hold``,
``reshuffle``, ``undo``, ``tap p5``, ``drop p5``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from crescent_ref.cards import SUIT_SYMBOLS, parse_index
from crescent_ref.errors import NotationError, quoted

PILES = 16
UP = 16  # UP + suit: the Ace foundation of that suit
DOWN = 20  # DOWN + suit: the King foundation of that suit
HOLD = 24
PLACES = 25

ActionKind = Literal["move", "reshuffle", "undo", "tap", "drop"]


def place_text(place: int) -> str:
    """Canonical text of a place number."""
    if place < PILES:
        return f"p{place + 1}"
    if place < DOWN:
        return "A" + SUIT_SYMBOLS[place - UP]
    if place < HOLD:
        return "K" + SUIT_SYMBOLS[place - DOWN]
    return "hold"


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0-9 (not ``²``, ``٣`` or ``１``, which str.isdigit takes)."""
    return text.isascii() and text.isdigit()


def parse_place(text: str) -> int:
    """Parse ``p1``..``p16``, a foundation's base card (``A♠``, ``KH``, ``R♠``) or ``hold``."""
    token = text.strip()
    low = token.lower()
    if low == "hold":
        return HOLD
    digits = low[1:] if low.startswith("p") else low
    if digits.isdigit() and not is_ascii_number(digits):
        raise NotationError("place", text, "pile numbers are written with the digits 0-9")
    if digits.isdigit() and digits.startswith("0"):
        raise NotationError("place", text, "pile numbers run from 1 to 16, without leading zeros")
    if digits.isdigit():
        number = int(digits) if len(digits) <= 2 else PILES + 1
        if 1 <= number <= PILES:
            return number - 1
        raise NotationError("place", text, "pile numbers run from 1 to 16")
    try:
        card = parse_index(token)
    except NotationError:
        raise NotationError("place", text, "expected p1..p16, a foundation like A♠ or K♥, or hold") from None
    suit, rank = divmod(card, 13)
    if rank == 0:
        return UP + suit
    if rank == 12:
        return DOWN + suit
    raise NotationError("place", text, "a foundation is named by its base card, an Ace or a King")


@dataclass(frozen=True, slots=True)
class Action:
    """One player action; ``src``/``dst`` are place numbers (-1 where unused)."""

    kind: ActionKind
    src: int = -1
    dst: int = -1

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse an action's text; see the module docstring for the forms."""
        return parse_action(text)

    @classmethod
    def move(cls, src: int, dst: int) -> Action:
        """The (interned) move from place ``src`` to place ``dst``."""
        return MOVES[src][dst]

    def __str__(self) -> str:
        if self.kind == "move":
            return f"{place_text(self.src)}-{place_text(self.dst)}"
        if self.kind in ("tap", "drop"):
            return f"{self.kind} {place_text(self.src)}"
        return self.kind

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"


@functools.lru_cache(maxsize=4096)
def parse_action(text: str) -> Action:
    """Parse one action, raising NotationError that quotes the text (remembered: an Action is immutable, and a
    game's actions repeat; a text that fails raises each time)."""
    token = " ".join(text.split())
    low = token.lower()
    if low in ("reshuffle", "undo"):
        return RESHUFFLE if low == "reshuffle" else UNDO
    head, _, rest = token.partition(" ")
    if head.lower() in ("tap", "drop") and rest:
        return _tap_or_drop(head.lower(), rest, text)
    if "-" in token:
        return _move(token, text)
    raise NotationError("action", text, "expected SRC-DST, reshuffle, undo, tap PLACE or drop PLACE")


def _tap_or_drop(kind: str, rest: str, text: str) -> Action:
    place = _place_in(rest, text)
    if kind == "drop":
        if place == HOLD:
            raise NotationError("action", text, "drop takes a pile or a foundation, like 'drop p5'")
        return Action("drop", place)
    return Action("tap", place)


def _move(token: str, text: str) -> Action:
    src_text, _, dst_text = token.partition("-")
    src, dst = _place_in(src_text, text), _place_in(dst_text, text)
    if src == HOLD:
        raise NotationError("action", text, "a held card cannot be moved by hand")
    return MOVES[src][dst]


def _place_in(part: str, text: str) -> int:
    try:
        return parse_place(part)
    except NotationError as err:
        raise NotationError("action", text, f"{err.why} (in {quoted(part.strip(), 20)})") from None


RESHUFFLE = Action("reshuffle")
UNDO = Action("undo")
MOVES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("move", s, d) for d in range(PLACES)) for s in range(PLACES)
)
