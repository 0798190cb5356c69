"""Compose a complete position from a partial one, for writing scenarios by hand.

A partial position is the text form with ``*`` for piles to be filled: the cards still missing
(to make two of each) are spread over the ``*`` piles, as evenly as possible, with top cards chosen so
that no filled pile's top can go to a foundation and no two tops are neighbours of one suit (with
the wrap): the filler takes no part in the scenario ("inert filler"). The result
is a complete position to paste into a scenario.
"""

from __future__ import annotations

from crescent_ref import rules
from crescent_ref.actions import DOWN, UP
from crescent_ref.deal import below, splitmix64
from crescent_ref.errors import NotationError
from crescent_ref.position import Position, validate


def missing_cards(pos: Position) -> list[int]:
    """Cards needed (with multiplicity) to have every card exactly twice, in index order."""
    have = pos.card_counts()
    extra = [c for c in range(52) if have[c] > 2]
    if extra:
        raise NotationError("position", ",".join(map(str, extra)), "more than two copies already placed")
    return [c for c in range(52) for _ in range(2 - have[c])]


def compose(text: str) -> Position:
    """Fill the ``*`` piles of a partial position text; raises NotationError when impossible."""
    fill = [i for i, part in enumerate(_piles_field(text).split("/")) if part.strip() == "*"]
    partial = Position.from_text_unchecked(text.replace("*", "-"))
    cards = _shuffle(missing_cards(partial), 0)
    if cards and not fill:
        raise NotationError("position", text, f"{len(cards)} cards missing and no '*' pile to put them in")
    if len(cards) < len(fill):
        raise NotationError("position", text, f"only {len(cards)} cards left for {len(fill)} '*' piles")
    tops = _inert_tops(partial, fill, cards)
    rest = list(cards)
    for card in tops:
        rest.remove(card)
    piles = list(partial.piles)
    for k, card in enumerate(rest):
        piles[fill[k % len(fill)]] += (card,)
    for pile, card in zip(fill, tops, strict=True):
        piles[pile] += (card,)
    position = partial._replace(piles=tuple(piles))
    validate(position)
    return position


def _inert_tops(pos: Position, fill: list[int], cards: list[int]) -> list[int]:
    chosen: list[int] = []
    tops = [p[-1] for p in pos.piles if p]
    for _ in fill:
        pick = next((c for c in cards if c not in chosen and _quiet(pos, c, tops + chosen)), None)
        if pick is None:
            raise NotationError("position", pos.to_text(), "no inert card left to top a '*' pile")
        chosen.append(pick)
    return chosen


def _quiet(pos: Position, card: int, tops: list[int]) -> bool:
    suit, rank = divmod(card, 13)
    if rank + 1 in rules.foundation_takes(pos, UP + suit) or rank + 1 in rules.foundation_takes(pos, DOWN + suit):
        return False
    near = {suit * 13 + n - 1 for n in rules.neighbours(rank + 1, True)}
    return not near.intersection(tops)


def _piles_field(text: str) -> str:
    for part in text.split():
        if part.startswith("piles:"):
            return part[len("piles:") :]
    raise NotationError("position", text, "missing field: piles")


def _shuffle(cards: list[int], seed: int) -> list[int]:
    deck, stream = list(cards), splitmix64(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def main(argv: list[str] | None = None) -> int:
    """``python -m crescent_ref.compose 'PARTIAL'`` prints the completed position text."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        print(compose(" ".join(args)).to_text())
    except NotationError as err:
        print(f"compose: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
