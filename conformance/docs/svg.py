"""The table drawn as an SVG horseshoe, the way crescent_ref.render draws it as text.

Piles 1-4 go up the left column, 5-12 along the top, 13-16 down the right (I-PILE-NUMBERS). In the
middle the Ace foundations sit above the King foundations, with held cards between the rows.
Under each pile's top card: its number and card count. Face-down cards are card backs stacked
behind the top card. Places in ``changed`` get a gold outline, the selected pile a blue one.

Colours and fonts come from ``CSS``, which every page that shows a table includes once.
"""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from crescent_ref.actions import DOWN, HOLD, PILES, UP
from crescent_ref.cards import CARD_TEXT, KING, SUIT_SYMBOLS
from crescent_ref.position import Position

CARD_W, CARD_H = 48, 66
PITCH_X, PITCH_Y = 60, 96
MARGIN = 24
BACK_STEP = 2  # how far each face-down card peeks out behind the one above it
ACE_ROW, HOLD_ROW, KING_ROW = 1.35, 2.3, 3.25
WIDTH = 2 * MARGIN + 9 * PITCH_X + CARD_W
HEIGHT = 2 * MARGIN + 4 * PITCH_Y + CARD_H + 16
RED_SUITS = (1, 2)
CSS = """
svg.table { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; }
svg.table .felt { fill: #2e7d4f; }
svg.table .face { fill: #fffdf7; stroke: #555; }
svg.table .back { fill: #27509b; stroke: #dfe7f5; stroke-width: 0.7; }
svg.table .slot { fill: none; stroke: #cfe8d8; stroke-dasharray: 4 3; }
svg.table .changed { fill: none; stroke: #f2b600; stroke-width: 3; }
svg.table .selected { fill: none; stroke: #5aa9ff; stroke-width: 3; }
svg.table .rank { font-size: 15px; font-weight: bold; }
svg.table .suit { font-size: 26px; text-anchor: middle; }
svg.table .red { fill: #c62828; } svg.table .ink { fill: #1b1b1b; }
svg.table .label { font-size: 11px; text-anchor: middle; fill: #f1f8f3; }
"""


def pile_slot(pile: int) -> tuple[float, float]:
    """Top-left corner of pile ``pile`` (0-based) on the drawing."""
    if pile < 4:
        column, row = 0, 4 - pile
    elif pile < 12:
        column, row = pile - 3, 0
    else:
        column, row = 9, pile - 11
    return MARGIN + column * PITCH_X, MARGIN + row * PITCH_Y


def foundation_slot(place: int) -> tuple[float, float]:
    """Top-left corner of a foundation (places 16-23) or of suit ``place - 24``'s held card."""
    if place >= HOLD:
        suit, row = place - HOLD, HOLD_ROW
    else:
        suit, row = (place - UP) % 4, (ACE_ROW if place < DOWN else KING_ROW)
    return MARGIN + (1.5 + 2 * suit) * PITCH_X, MARGIN + row * PITCH_Y


def table_svg(
    position: Position, *, changed: Collection[int] = (), selected: int | None = None, label: str = ""
) -> str:
    """The whole table as one ``<svg class="table">`` element."""
    parts = [_pile(position, i, i in changed, i == selected) for i in range(PILES)]
    parts += [_foundation(position, place, place in changed) for place in range(UP, HOLD)]
    parts += _held(position, HOLD in changed)
    title = escape(label or "the table")
    return (
        f'<svg class="table" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{title}">'
        f'<title>{title}</title><rect class="felt" width="{WIDTH}" height="{HEIGHT}" rx="10"/>'
        + "".join(parts)
        + "</svg>"
    )


def _pile(position: Position, pile: int, changed: bool, selected: bool) -> str:
    x, y = pile_slot(pile)
    cards, hidden = position.piles[pile], min(position.hidden[pile], len(position.piles[pile]))
    label = _label(x, y, f"{pile + 1} · {len(cards)}")
    if not cards:
        body = _slot(x, y) + _outline(x, y, changed, selected) + label
        return f'<g class="pile empty" data-pile="{pile + 1}" data-count="0" data-hidden="0">{body}</g>'
    behind = hidden if hidden < len(cards) else hidden - 1
    backs = [_back(x - BACK_STEP * (behind - j), y - BACK_STEP * (behind - j)) for j in range(behind)]
    top = _back(x, y) if hidden == len(cards) else _face(x, y, cards[-1])
    body = "".join(backs) + top + _outline(x, y, changed, selected) + label
    return f'<g class="pile" data-pile="{pile + 1}" data-count="{len(cards)}" data-hidden="{hidden}">{body}</g>'


def _foundation(position: Position, place: int, changed: bool) -> str:
    x, y = foundation_slot(place)
    suit = (place - UP) % 4
    rank = position.up[suit] if place < DOWN else position.down[suit]
    count = rank if place < DOWN else KING + 1 - rank
    name = ("A" if place < DOWN else "K") + SUIT_SYMBOLS[suit]
    body = _face(x, y, suit * 13 + rank - 1) + _outline(x, y, changed, False) + _label(x, y, f"{name} · {count}")
    return f'<g class="foundation" data-place="{name}" data-count="{count}">{body}</g>'


def _held(position: Position, changed: bool) -> list[str]:
    parts = []
    for suit, rank in enumerate(position.held):
        if rank:
            x, y = foundation_slot(HOLD + suit)
            body = _face(x, y, suit * 13 + rank - 1) + _outline(x, y, changed, False) + _label(x, y, "held")
            parts.append(f'<g class="held" data-suit="{SUIT_SYMBOLS[suit]}">{body}</g>')
    return parts


def _face(x: float, y: float, card: int) -> str:
    text = CARD_TEXT[card]
    ink = "red" if card // 13 in RED_SUITS else "ink"
    return (
        f'<rect class="face" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>'
        f'<text class="rank {ink}" x="{x + 5}" y="{y + 17}">{text}</text>'
        f'<text class="suit {ink}" x="{x + CARD_W / 2}" y="{y + 52}">{text[-1]}</text>'
    )


def _back(x: float, y: float) -> str:
    return f'<rect class="back" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>'


def _slot(x: float, y: float) -> str:
    return f'<rect class="slot" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>'


def _outline(x: float, y: float, changed: bool, selected: bool) -> str:
    if not (changed or selected):
        return ""
    cls = "selected" if selected else "changed"
    return f'<rect class="{cls}" x="{x - 3}" y="{y - 3}" width="{CARD_W + 6}" height="{CARD_H + 6}" rx="7"/>'


def _label(x: float, y: float, text: str) -> str:
    return f'<text class="label" x="{x + CARD_W / 2}" y="{y + CARD_H + 13}">{escape(text)}</text>'


def changed_places(before: Position, after: Position) -> set[int]:
    """Places (piles 0-15, foundations 16-23, the hold 24) whose cards differ between two positions."""
    places = {i for i in range(PILES) if before.piles[i] != after.piles[i] or before.hidden[i] != after.hidden[i]}
    places |= {UP + s for s in range(4) if before.up[s] != after.up[s]}
    places |= {DOWN + s for s in range(4) if before.down[s] != after.down[s]}
    return places | ({HOLD} if before.held != after.held else set())
