"""The canonical state JSON of spec/interpreting.md, as the reference engine reports it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from crescent_ref.actions import place_text
from crescent_ref.cards import CARD_TEXT
from crescent_ref.game import Game
from crescent_ref.position import Position

FOUNDATIONS = ("A♠", "A♥", "A♦", "A♣", "K♠", "K♥", "K♦", "K♣")


def game_state(game: Game) -> dict[str, Any]:
    """The canonical state JSON of a game: its position plus status, undo depth and selection."""
    return {
        **position_state(game.position),
        "status": game.status(),
        "undo": len(game.history),
        "selected": place_text(game.selected) if game.selected is not None else None,
    }


def position_state(pos: Position) -> dict[str, Any]:
    """The position part of the canonical state JSON."""
    return {
        "piles": [[CARD_TEXT[c] for c in pile] for pile in pos.piles],
        "hidden": list(pos.hidden),
        "foundations": foundations(pos),
        "held": [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.held) if r],
        "reshuffles": pos.reshuffles,
        "moves": pos.moves,
        "foundation_cards": pos.foundation_count(),
    }


def foundations(pos: Position) -> dict[str, str]:
    """Each foundation's top card by its base card (``{"A♠": "3♠", ...}``)."""
    tops = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.up)]
    tops += [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.down)]
    return dict(zip(FOUNDATIONS, tops, strict=True))


_FIELDS: dict[str, Callable[[Game], Any]] = {
    "piles": lambda g: [[CARD_TEXT[c] for c in pile] for pile in g.position.piles],
    "hidden": lambda g: list(g.position.hidden),
    "foundations": lambda g: foundations(g.position),
    "held": lambda g: [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(g.position.held) if r],
    "reshuffles": lambda g: g.position.reshuffles,
    "moves": lambda g: g.position.moves,
    "foundation_cards": lambda g: g.position.foundation_count(),
    "status": lambda g: g.status(),
    "undo": lambda g: len(g.history),
    "selected": lambda g: place_text(g.selected) if g.selected is not None else None,
}
STATE_FIELDS = tuple(_FIELDS)


def state_fields(game: Game, fields: Iterable[str]) -> dict[str, Any]:
    """Only the named fields of ``game_state(game)`` (state on demand; unknown names are left out)."""
    return {name: _FIELDS[name](game) for name in fields if name in _FIELDS}
