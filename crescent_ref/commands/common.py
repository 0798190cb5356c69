"""What several subcommands share: a game from the command line's words, and the drawn table."""

from __future__ import annotations

import json
from typing import Any

from crescent_ref.actions import place_text
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, base_names, get_profile
from crescent_ref.render import render, status_line

OK, REFUSED, BAD_INPUT = 0, 1, 2


def load_game(
    profile: str, code: str | None = None, position: str | None = None, deviations: str | None = None
) -> Game:
    """A game dealt from ``code`` or set up from a ``position`` text, under ``profile`` with the
    ``deviations`` declared for its base (JSON, as a handshake declares them); NotationError on bad text."""
    rules = Profile.declared(profile, parse_deviations(deviations).get(profile.split("+")[0], {}))
    if code is not None:
        return Game.deal(rules, code)
    return Game(rules, Position.from_text(position or ""))


def parse_deviations(text: str | None) -> dict[str, dict[str, Any]]:
    """``{"app": {"pile_limit": null}}``: base profile to parameters (NotationError quoting the text)."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError as err:
        raise NotationError("deviations", text, f"not JSON: {err}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise NotationError("deviations", text, 'expected {"<base profile>": {"<parameter>": value}}')
    for base, changes in data.items():
        if base not in base_names():
            raise NotationError("deviations", text, f"unknown base profile {base!r}; known: {', '.join(base_names())}")
        get_profile(base).changed(changes)
    return data


def game_of(profile: str, text: str) -> Game:
    """A game from one word that is a game code or, when it holds a colon, a position text."""
    is_position = ":" in text
    return load_game(profile, None if is_position else text, text if is_position else None)


def table(game: Game) -> str:
    """The drawn table and its status line."""
    selected = place_text(game.selected) if game.selected is not None else None
    return render(game.position) + "\n\n" + status_line(game.profile, game.position, selected)
