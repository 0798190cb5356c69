"""The table drawn as text, the way the rule documents lay it out.

The piles form a horseshoe (4 on the left, 8 on top, 4 on the right) around the foundations: the
Ace row above the King row, held cards (hoffmann-1892) between them. Each pile shows its top card
and, under it, ``number·count``; each foundation its top card and ``place·count``. An empty pile is a
blank slot. Only top cards are drawn, so a closed deal shows nothing that is face down.

Pile numbers follow I-PILE-NUMBERS: 1-4 up the left column, 5-12 along the top, 13-16 down the right.
"""

from __future__ import annotations

from crescent_ref.actions import PILES
from crescent_ref.cards import CARD_TEXT, KING, SUIT_SYMBOLS
from crescent_ref.game import status_of
from crescent_ref.position import Position
from crescent_ref.profiles import Profile

PITCH = 7  # columns from one pile slot to the next
WIDTH = PITCH * 10
HEIGHT = 14
FOUNDATION_X = 18  # column of the ♠ foundations
FOUNDATION_PITCH = 9
ACE_ROW, HOLD_ROW, KING_ROW = 6, 8, 9
HIDDEN = "##"


def slot(pile: int) -> tuple[int, int]:
    """Row and column of pile ``pile`` (0-based) on the canvas."""
    if pile < 4:
        return 3 * (4 - pile), 0
    if pile < 12:
        return 0, PITCH * (pile - 3)
    return 3 * (pile - 11), PITCH * 9


def render(position: Position, *, piles: bool = False) -> str:
    """The table as text; with ``piles``, every pile's cards follow, face-down ones as ``##``."""
    canvas = [[" "] * WIDTH for _ in range(HEIGHT)]
    for number, pile in enumerate(position.piles):
        top = CARD_TEXT[pile[-1]] if pile else ""
        _card(canvas, slot(number), top, f"{number + 1}·{len(pile)}")
    _foundations(canvas, position)
    lines = ["".join(row).rstrip() for row in canvas]
    if piles:
        lines += ["", *pile_lines(position)]
    return "\n".join(lines)


def _card(canvas: list[list[str]], at: tuple[int, int], card: str, label: str) -> None:
    _put(canvas, at[0], at[1], card)
    _put(canvas, at[0] + 1, at[1], label)


def _put(canvas: list[list[str]], row: int, column: int, text: str) -> None:
    canvas[row][column : column + len(text)] = list(text)


def _foundations(canvas: list[list[str]], position: Position) -> None:
    for suit in range(4):
        x = FOUNDATION_X + FOUNDATION_PITCH * suit
        up, down, held = position.up[suit], position.down[suit], position.held[suit]
        _card(canvas, (ACE_ROW, x), CARD_TEXT[suit * 13 + up - 1], f"A{SUIT_SYMBOLS[suit]}·{up}")
        _card(canvas, (KING_ROW, x), CARD_TEXT[suit * 13 + down - 1], f"K{SUIT_SYMBOLS[suit]}·{KING + 1 - down}")
        if held:
            _put(canvas, HOLD_ROW, x, CARD_TEXT[suit * 13 + held - 1])
    if any(position.held):
        _put(canvas, HOLD_ROW, PITCH, "held")


def pile_lines(position: Position) -> list[str]:
    """One line a pile, ``p1: 2♥ 9♣ J♦ J♦`` bottom to top; face-down cards shown as ``##``."""
    lines = []
    for number in range(PILES):
        pile, hidden = position.piles[number], position.hidden[number]
        cards = [HIDDEN] * hidden + [CARD_TEXT[c] for c in pile[hidden:]]
        lines.append(f"p{number + 1}: " + (" ".join(cards) if cards else "-"))
    return lines


def status_line(profile: Profile, position: Position, selected: str | None = None) -> str:
    """``app · playing · reshuffles left 3 · moves 0 · foundations 8/104`` (plus the selected pile)."""
    parts = [
        profile.name,
        status_of(profile, position),
        f"reshuffles left {position.reshuffles}",
        f"moves {position.moves}",
        f"foundations {position.foundation_count()}/104",
    ]
    if selected:
        parts.append(f"selected {selected}")
    return " · ".join(parts)
