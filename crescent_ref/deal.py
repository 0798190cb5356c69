"""Game codes and the deal: reproducible in any language (spec/deal.md is the normative text).

A code reads ``CR1-N-AAAAAAB``: format ``CR1``, deal family ``N`` (the standard deal), and seven
letters A-Z, a base-26 number (A = 0, most significant first) that seeds a SplitMix64 generator.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from crescent_ref.cards import ACE, KING
from crescent_ref.errors import NotationError, quoted
from crescent_ref.position import Position

MASK64 = (1 << 64) - 1
SEED_LETTERS = 7
MAX_SEED = 26**SEED_LETTERS - 1


@dataclass(frozen=True, slots=True)
class GameCode:
    """A parsed game code; ``str()`` gives the canonical text back."""

    seed: int
    family: str = "N"

    def __post_init__(self) -> None:
        if not 0 <= self.seed <= MAX_SEED or self.family != "N":
            raise NotationError("game code", f"seed={self.seed} family={self.family}", "out of range")

    @classmethod
    def from_text(cls, text: str) -> GameCode:
        """Parse ``CR1-N-XXXXXXX``; NotationError names the faulty part."""
        return parse_code(text)

    def __str__(self) -> str:
        letters, n = [], self.seed
        for _ in range(SEED_LETTERS):
            n, digit = divmod(n, 26)
            letters.append(chr(ord("A") + digit))
        return f"CR1-{self.family}-{''.join(reversed(letters))}"

    def __repr__(self) -> str:
        return f"GameCode.from_text({str(self)!r})"


def parse_code(text: str) -> GameCode:
    """Parse a game code, with an error that says which part (format, family, seed) is wrong."""
    parts = text.strip().split("-")
    if len(parts) != 3:
        raise NotationError("game code", text, "expected three parts joined by '-': format CR1, family N "
                            "and a seed of seven capital letters, like CR1-N-AAAAAAB")
    _check_format(parts[0], text)
    _check_family(parts[1], text)
    return GameCode(_seed(parts[2], text))


def _check_format(part: str, text: str) -> None:
    if not re.fullmatch(r"CR[0-9]+", part):
        raise NotationError("game code", text, f"the format part {quoted(part, 20)} must read CR1 (capital letters)")
    if part != "CR1":
        why = f"unknown code format {quoted(part, 20)} in the format part (this kit reads CR1)"
        raise NotationError("game code", text, why)


def _check_family(part: str, text: str) -> None:
    if part != "N":
        why = f"unknown deal family {quoted(part, 20)} in the family part (defined: N)"
        raise NotationError("game code", text, why)


def _seed(part: str, text: str) -> int:
    if not re.fullmatch(r"[A-Z]*", part):
        raise NotationError("game code", text, f"the seed part {quoted(part, 20)} may hold only capital letters A-Z")
    if len(part) != SEED_LETTERS:
        raise NotationError("game code", text, f"the seed part {quoted(part, 20)} has {len(part)} letters, expected 7")
    seed = 0
    for letter in part:
        seed = seed * 26 + ord(letter) - ord("A")
    return seed


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream of 64-bit outputs for ``seed``."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def below(stream: Iterator[int], n: int) -> int:
    """An unbiased integer in ``[0, n)``: draw until the value is under the largest multiple of n."""
    limit = (1 << 64) - (1 << 64) % n
    while (x := next(stream)) >= limit:
        pass
    return x % n


def pile_deck() -> list[int]:
    """The 96 pile cards before shuffling: both decks ♠♥♦♣ A..K, less one Ace and one King a suit."""
    deck = [s * 13 + r - 1 for _copy in range(2) for s in range(4) for r in range(ACE, KING + 1)]
    for suit in range(4):
        for base in (ACE, KING):
            deck.remove(suit * 13 + base - 1)  # removes the first copy
    return deck


def shuffled(seed: int) -> list[int]:
    """Fisher-Yates over the 96 pile cards, i from 95 down to 1 swapping with below(i + 1)."""
    deck, stream = pile_deck(), splitmix64(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_position(code: str | GameCode, *, closed: bool = False, reshuffles: int = 3) -> Position:
    """The dealt position: card k of the shuffled deck goes onto pile k mod 16 (pile 1 first)."""
    parsed = parse_code(code) if isinstance(code, str) else code
    deck = shuffled(parsed.seed)
    piles = tuple(tuple(deck[p::16]) for p in range(16))
    hidden = (5,) * 16 if closed else (0,) * 16
    return Position(piles=piles, hidden=hidden, up=(ACE,) * 4, down=(KING,) * 4, reshuffles=reshuffles)
