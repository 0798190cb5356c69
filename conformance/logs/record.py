"""Writing game logs from the reference engine: the format's own example, and test and benchmark material."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import crescent_ref
from conformance.files import write_atomic
from conformance.logs.model import FORMAT_VERSION, STATE_FIELDS
from crescent_ref.game import Game, Outcome
from crescent_ref.state_json import game_state


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def header_line(game: Game, *, code: str | None = None, fields: Iterable[str] = STATE_FIELDS) -> str:
    """The header of a log of ``game`` as it stands now (dealt from ``code``, else from its position)."""
    start = {"code": code} if code else {"position": game.position.to_text()}
    header = {
        "crescent_log": FORMAT_VERSION,
        "profile": game.profile.name,
        **start,
        "implementation": {"name": "crescent_ref", "version": crescent_ref.__version__},
        "state": recorded_state(game, fields),
    }
    return _line(header)


def record_line(outcome: Outcome, game: Game, fields: Iterable[str] = STATE_FIELDS) -> str:
    """The record of an action just applied to ``game``, with the state fields named in ``fields``."""
    record: dict[str, Any] = {"action": str(outcome.action), "accepted": outcome.accepted}
    if not outcome.accepted:
        record["reason"] = outcome.reason
    else:
        record["effect"] = outcome.effect
    record["moves"] = [str(m) for m in outcome.moves]
    record["state"] = recorded_state(game, fields)
    return _line(record)


def recorded_state(game: Game, fields: Iterable[str]) -> dict[str, Any]:
    """The canonical state JSON of ``game``, only the fields named."""
    state = game_state(game)
    return {key: state[key] for key in fields}


def write_log(path: Path, lines: Iterable[str]) -> None:
    """Write a log atomically (a uniquely named temporary file renamed into place)."""
    write_atomic(path, "".join(line + "\n" for line in lines))


def random_actions(game: Game, rng: random.Random) -> Iterator[str]:
    """Endless random play on ``game``: mostly legal moves, with undos, reshuffles, taps and refused moves."""
    while True:
        roll = rng.random()
        legal = game.legal_moves() if roll < 0.6 else []
        if legal:
            yield str(rng.choice(legal))
        elif roll < 0.75:
            yield "undo"
        elif roll < 0.8:
            yield "reshuffle"
        elif roll < 0.9:
            yield f"tap p{rng.randint(1, 16)}"
        else:
            yield f"p{rng.randint(1, 16)}-p{rng.randint(1, 16)}"


def random_log(profile: str, code: str, count: int, seed: int = 0, fields: Iterable[str] = STATE_FIELDS) -> list[str]:
    """The lines of a log of ``count`` random actions on the deal ``code`` (reference play)."""
    game = Game.deal(profile, code)
    lines = [header_line(game, code=code, fields=fields)]
    for action in itertools.islice(random_actions(game, random.Random(seed)), count):
        lines.append(record_line(game.apply(action), game, fields))
    return lines
