"""The position: everything on the table, and its one-line text form.

Text form (fields separated by spaces, in this order; ``held`` only when a card is held)::

    up:2♠,2♥,A♦,A♣ down:Q♠,Q♥,K♦,9♣ piles:2♥,9♣,J♦,J♦/…(16 piles)… reshuffles:3 moves:9

- ``up``: the top card of the Ace foundations of ♠ ♥ ♦ ♣, in that order (an Ace = just the base).
- ``down``: the top card of the King foundations of ♠ ♥ ♦ ♣ (a King = just the base).
- ``piles``: 16 piles separated by ``/``, pile 1 first; each lists its cards bottom to top,
  comma-separated; ``-`` is an empty pile; face-down cards (closed deals) are the bracketed prefix,
  as in ``[4♣,9♦],Q♥``.
- ``reshuffles``: reshuffles left; ``moves``: the move counter.
- ``held``: cards held between the foundation rows (profiles with ``hold_double_fit``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from crescent_ref.actions import PILES
from crescent_ref.cards import CARD_TEXT, KING, SUIT_SYMBOLS, parse_index
from crescent_ref.errors import NotationError, quoted

Pile = tuple[int, ...]
FIELDS = ("up", "down", "piles", "reshuffles", "moves", "held")


class Position(NamedTuple):
    """An immutable snapshot of the table; cards are compact indices (see crescent_ref.cards)."""

    piles: tuple[Pile, ...]
    hidden: tuple[int, ...]
    up: tuple[int, ...]
    down: tuple[int, ...]
    held: tuple[int, ...] = (0, 0, 0, 0)
    reshuffles: int = 3
    moves: int = 0

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse and validate the text form; NotationError quotes the offending part."""
        return _checked(text)

    @classmethod
    def from_text_unchecked(cls, text: str) -> Position:
        """Parse the text form without checking card counts (for composing partial positions)."""
        return _parse(text)

    def to_text(self) -> str:
        """The canonical one-line text form."""
        parts = [
            "up:" + ",".join(CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(self.up)),
            "down:" + ",".join(CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(self.down)),
            "piles:" + "/".join(_pile_text(p, h) for p, h in zip(self.piles, self.hidden, strict=True)),
            f"reshuffles:{self.reshuffles}",
            f"moves:{self.moves}",
        ]
        held = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(self.held) if r]
        if held:
            parts.append("held:" + ",".join(held))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"

    def foundation_count(self) -> int:
        """Cards on the eight foundations (held cards not included)."""
        return sum(self.up) + sum(KING + 1 - r for r in self.down)

    def card_count(self) -> int:
        """Cards on the table: piles, foundations and the hold."""
        return sum(map(len, self.piles)) + self.foundation_count() + sum(1 for r in self.held if r)

    def card_counts(self) -> Counter[int]:
        """How many copies of each card (by index) are on the table: piles, foundations, hold."""
        counts = Counter(c for pile in self.piles for c in pile)
        for suit in range(4):
            counts.update(suit * 13 + r - 1 for r in range(1, self.up[suit] + 1))
            counts.update(suit * 13 + r - 1 for r in range(self.down[suit], KING + 1))
            if self.held[suit]:
                counts[suit * 13 + self.held[suit] - 1] += 1
        return counts

    def pile_text(self, index: int) -> str:
        """Pile ``index`` (0-based) as the text form writes it."""
        return _pile_text(self.piles[index], self.hidden[index])

    def won(self) -> bool:
        """All eight foundations hold their 13 cards."""
        return self.up == (KING,) * 4 and self.down == (1,) * 4


def _pile_text(pile: Pile, hidden: int) -> str:
    return join_pile([CARD_TEXT[c] for c in pile], hidden)


def join_pile(cards: Sequence[str], hidden: int) -> str:
    """A pile's text from its card texts (bottom first) and how many lie face down: ``[a,b],c`` or ``-``."""
    if not cards:
        return "-"
    shown = ",".join(cards[hidden:])
    return "[" + ",".join(cards[:hidden]) + "]," + shown if hidden else shown


MAX_COUNT_DIGITS = 9  # moves and reshuffles: a billion is more than any game reaches


def _fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in text.split():
        key, sep, value = part.partition(":")
        if not sep or key not in FIELDS:
            raise NotationError("position", text, f"unknown field {quoted(part, 30)}; fields are {', '.join(FIELDS)}")
        if key in fields:
            raise NotationError("position", text, f"field {quoted(key, 20)} given twice")
        fields[key] = value
    missing = [f for f in FIELDS[:5] if f not in fields]
    if missing:
        raise NotationError("position", text, f"missing field(s): {', '.join(missing)}")
    return fields


@functools.lru_cache(maxsize=1024)
def _checked(text: str) -> Position:
    """A position text parsed and validated, remembered: a corpus starts many games from the same texts (a
    Position is immutable; a text that fails raises each time, never remembered)."""
    position = _parse(text)
    validate(position)
    return position


def _parse(text: str) -> Position:
    fields = _fields(text)
    piles, hidden = _piles(fields["piles"])
    return Position(
        piles=piles,
        hidden=hidden,
        up=_foundations(fields["up"], "up"),
        down=_foundations(fields["down"], "down"),
        held=_held(fields["held"]) if "held" in fields else (0, 0, 0, 0),
        reshuffles=_count(fields["reshuffles"], "reshuffles"),
        moves=_count(fields["moves"], "moves"),
    )


def _cards(text: str, field: str) -> list[int]:
    if any(not t.strip() for t in text.split(",")):
        raise NotationError("position", f"{field}:{text}", "an empty card between commas (or nothing at all)")
    try:
        return [parse_index(t) for t in text.split(",")]
    except NotationError as err:
        raise NotationError("position", f"{field}:{text}", err.why + f" (card {quoted(err.text, 20)})") from None


def _foundations(text: str, field: str) -> tuple[int, ...]:
    cards = _cards(text, field)
    if len(cards) != 4:
        raise NotationError("position", f"{field}:{text}", f"expected 4 top cards (♠,♥,♦,♣), got {len(cards)}")
    for suit, card in enumerate(cards):
        if card // 13 != suit:
            raise NotationError(
                "position", f"{field}:{text}",
                f"{CARD_TEXT[card]} cannot top the {field} foundation of {SUIT_SYMBOLS[suit]}")
    return tuple(card % 13 + 1 for card in cards)


def _held(text: str) -> tuple[int, ...]:
    held = [0, 0, 0, 0]
    for card in _cards(text, "held"):
        suit = card // 13
        if held[suit]:
            raise NotationError("position", f"held:{text}", f"two held cards of {SUIT_SYMBOLS[suit]}")
        held[suit] = card % 13 + 1
    return tuple(held)


def _count(text: str, field: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise NotationError("position", f"{field}:{text}", "expected a whole number, 0 or more (digits 0-9)")
    if len(text) > MAX_COUNT_DIGITS:
        raise NotationError("position", f"{field}:{text}", f"a count of more than {MAX_COUNT_DIGITS} digits")
    return int(text)


def _piles(text: str) -> tuple[tuple[Pile, ...], tuple[int, ...]]:
    parts = text.split("/")
    if len(parts) != PILES:
        raise NotationError("position", f"piles:{text}", f"expected 16 piles separated by '/', got {len(parts)}")
    piles = [parse_pile(part, number) for number, part in enumerate(parts, 1)]
    return tuple(p for p, _ in piles), tuple(h for _, h in piles)


def parse_pile(text: str, number: int) -> tuple[Pile, int]:
    """A pile's cards (bottom first) and how many lie face down, from its text (``join_pile``'s form).

    Raises:
        NotationError: the text is not a pile (``number`` names it in the message).
    """
    body = text.strip()
    if body in ("-", ""):
        return (), 0
    hidden: list[int] = []
    if body.startswith("["):
        inside, close, rest = body[1:].partition("]")
        if not close or not rest.startswith(","):
            why = "'[' without its ']'" if not close else "face-down cards are followed by ',' and the face-up ones"
            raise NotationError("position", f"pile {number}: {text}", why)
        hidden, body = _cards(inside, f"pile {number}"), rest[1:]
        if not body.strip():
            raise NotationError("position", f"pile {number}: {text}", "the top card of a pile is always face up")
    return tuple(hidden + _cards(body, f"pile {number}")), len(hidden)


def validate(position: Position) -> None:
    """Check the table holds each card exactly twice and the hold is consistent."""
    for suit, rank in enumerate(position.held):
        if rank and not (position.up[suit] == rank - 1 and position.down[suit] == rank + 1):
            raise NotationError(
                "position", f"held:{CARD_TEXT[suit * 13 + rank - 1]}",
                "a held card must fit both foundations of its suit")
    counts = position.card_counts()
    wrong = [f"{CARD_TEXT[c]}×{counts[c]}" for c in range(52) if counts[c] != 2]
    if wrong:
        shown = ", ".join(wrong[:12]) + (" …" if len(wrong) > 12 else "")
        raise NotationError("position", shown, "each card must be on the table exactly twice (card×copies found)")
