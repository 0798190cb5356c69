"""Cards and their notation.

A card is a rank (1 = Ace ... 13 = King) and a suit (0..3 = spades, hearts, diamonds, clubs).
Its canonical text is rank then suit symbol: ``A♠``, ``10♥``, ``Q♦``, ``K♣``. The parser also takes
ASCII suit letters (``AS``, ``TH``, ``10H``) and the letters the rule documents use: ``R`` for a
King (Raja) and ``V`` for a Jack (valet), as in ``R♠`` and ``V♦``.
"""

from __future__ import annotations

from dataclasses import dataclass

from crescent_ref.errors import NotationError, quoted

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

_RANK_ALIASES = {text: rank for rank, text in enumerate(RANK_TEXT) if text}
_RANK_ALIASES.update({"T": 10, "V": JACK, "R": KING})
_SUIT_ALIASES = {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_SUIT_ALIASES.update({c: i for i, c in enumerate(SUIT_LETTERS)})
_SUIT_ALIASES.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Two copies of each exist in the game; copies are indistinguishable."""

    suit: int
    rank: int

    def __post_init__(self) -> None:
        if not (0 <= self.suit < 4 and ACE <= self.rank <= KING):
            raise NotationError("card", f"suit={self.suit} rank={self.rank}", "out of range")

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse any accepted notation: ``'A♠'``, ``'AS'``, ``'10♥'``, ``'TH'``, ``'R♠'``, ``'V♦'``."""
        return CARDS[parse_index(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with compact index ``suit * 13 + rank - 1``."""
        return CARDS[index]

    @property
    def index(self) -> int:
        """Compact index 0..51, ``suit * 13 + rank - 1``."""
        return self.suit * 13 + self.rank - 1

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card.from_text({str(self)!r})"


def parse_index(text: str) -> int:
    """Parse a card's text to its compact index, or raise NotationError quoting it."""
    token = text.strip()
    if len(token) < 2:
        raise NotationError("card", text, "expected a rank followed by a suit, like 'A♠' or 'TH'")
    suit = _SUIT_ALIASES.get(token[-1].upper())
    if suit is None:
        raise NotationError("card", text, f"unknown suit {token[-1]!r} (use ♠♥♦♣ or S H D C)")
    rank = _RANK_ALIASES.get(token[:-1].upper())
    if rank is None:
        why = f"unknown rank {quoted(token[:-1], 20)} (use A 2-10 J Q K; T, V, R also read)"
        raise NotationError("card", text, why)
    return suit * 13 + rank - 1


CARDS: tuple[Card, ...] = tuple(Card(i // 13, i % 13 + 1) for i in range(52))
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
