"""Builders for the engine tests: a position from the few piles a test cares about.

``table("p1:4♠,5♠ p2:6♠ p3:-", up="3♠,A♥,A♦,A♣")`` writes the position text: the named piles are
exactly as given; every card not named (nor on a foundation or held) is spread over the other
piles, each topped by an *inert* card (no foundation takes it and no pile top is its neighbour),
so the filler adds no move of its own (and is chosen far from what the foundations take next,
so that it stays out of the way for a while).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from crescent_ref import Game, Position
from crescent_ref.cards import CARD_TEXT, KING, parse_index

BASES = ("app", "open", "hoffmann-1892", "morehead-1949")
VARIANTS = ("four", "six", "nine", "closed", "reversal", "give-backs")
PROFILES = BASES + tuple(f"{base}+{variant}" for base in BASES for variant in VARIANTS)
START = "A♠,A♥,A♦,A♣", "K♠,K♥,K♦,K♣"


def cards_of(text: str) -> list[int]:
    """Card indices of a comma-separated list (brackets of face-down cards ignored)."""
    return [parse_index(t) for t in text.replace("[", "").replace("]", "").split(",") if t not in ("", "-")]


def foundation_cards(up: str, down: str, held: str) -> Counter[int]:
    """Every card on the foundations and in the hold."""
    on = Counter(cards_of(held))
    for top in cards_of(up):
        on.update(range(top - top % 13, top + 1))
    for top in cards_of(down):
        on.update(range(top, top - top % 13 + KING))
    return on


def wanted(up: str, down: str, held: str) -> set[int]:
    """Cards some foundation would take next (held cards and their twins included)."""
    takes = set()
    for top in cards_of(up) + cards_of(held):
        if top % 13 < 12:
            takes.add(top + 1)
    for top in cards_of(down) + cards_of(held):
        if top % 13 > 0:
            takes.add(top - 1)
    return takes | set(cards_of(held))


def near(a: int, b: int) -> bool:
    """Same suit and one rank apart, counting King and Ace as neighbours."""
    return a // 13 == b // 13 and (a - b) % 13 in (1, 12)


def spread(rest: list[int], free: list[int], tops: list[int], takes: set[int]) -> dict[int, list[int]]:
    """Deal the unnamed cards onto the free piles, each pile under an inert top card."""
    piles: dict[int, list[int]] = {}
    by_distance = sorted(set(rest), key=lambda c: -min((abs(c - t) for t in takes if t // 13 == c // 13), default=13))
    for number in free:
        top = next((c for c in by_distance if c in rest and c not in takes and not any(near(c, t) for t in tops)),
                   None)
        if top is None or not rest:
            break
        rest.remove(top)
        tops.append(top)
        piles[number] = [top]
    for k, card in enumerate(rest):
        if not piles:
            raise AssertionError(f"no free pile for the unnamed cards {[CARD_TEXT[c] for c in rest]}")
        pile = piles[list(piles)[k % len(piles)]]
        pile.insert(0, card)
        if len(pile) > 13:
            raise AssertionError("the unnamed cards do not fit under 13 cards a pile; name more piles")
    return piles


def table(piles: str = "", up: str = START[0], down: str = START[1], held: str = "",
          reshuffles: int = 3, moves: int = 0) -> Position:
    """The position with the named piles (``p1:4♠,5♠ p2:-``), filled up as the module says."""
    named = {int(k[1:]): v for k, _, v in (part.partition(":") for part in piles.split())}
    used = foundation_cards(up, down, held) + Counter(c for v in named.values() for c in cards_of(v))
    rest = sorted((Counter({c: 2 for c in range(52)}) - used).elements())
    tops = [cards_of(v)[-1] for v in named.values() if cards_of(v)]
    free = [n for n in range(1, 17) if n not in named]
    filled = spread(rest, free, tops, wanted(up, down, held))
    texts = [named.get(n) or ",".join(CARD_TEXT[c] for c in filled.get(n, [])) or "-" for n in range(1, 17)]
    extra = f" held:{held}" if held else ""
    return Position.from_text(f"up:{up} down:{down} piles:{'/'.join(texts)} reshuffles:{reshuffles} "
                              f"moves:{moves}{extra}")


def game(profile: str, piles: str = "", **kw: Any) -> Game:
    """A game of ``profile`` on ``table(piles, **kw)``."""
    return Game(profile, table(piles, **kw))


def pile(g: Game, number: int) -> str:
    """Pile ``number`` as the position text writes it: ``[3♠],9♦,5♥`` (``-`` when empty)."""
    return str(g.position).split("piles:")[1].split()[0].split("/")[number - 1]


def foundations(g: Game) -> str:
    """The ``up:`` and ``down:`` fields of the position text."""
    return " ".join(str(g.position).split()[:2])


def verdict(g: Game, action: str) -> str:
    """Apply ``action``: ``'ok'`` when accepted, else the reason code."""
    outcome = g.apply(action)
    return "ok" if outcome.accepted else str(outcome.reason)


class Expect(NamedTuple):
    """What a profile's rules should be, written from the rule documents (not read from the spec)."""

    wrap: bool
    limit: int | None
    between: bool
    give_backs: bool
    hold: bool
    undo: bool
    autoplay: bool
    closed: bool
    reshuffles: int


def expect(profile: str) -> Expect:
    """The rules a profile name stands for: its base, then its variants."""
    base, *variants = profile.split("+")
    return Expect(
        wrap=base != "hoffmann-1892",
        limit=13 if base == "app" else None,
        between=base in ("app", "morehead-1949") or "reversal" in variants,
        give_backs="give-backs" in variants,
        hold=base == "hoffmann-1892",
        undo=base == "app",
        autoplay=base == "open",
        closed=base == "morehead-1949" or "closed" in variants,
        reshuffles=next((n for v, n in (("four", 4), ("six", 6), ("nine", 9)) if v in variants), 3),
    )
