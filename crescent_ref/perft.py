"""perft: the number of distinct action sequences of a given depth from a position.

What counts as an action (spec/perft.md): every legal card move of ``Game.legal_moves()`` and, when
a reshuffle is left and the game is not over, ``reshuffle``. Undo, tap and drop are not counted
(they are another way to ask for a card move, or history). ``perft(0) = 1``; a position with no
action contributes 0 at any depth above 0, so counts are of leaves at exactly that depth.
"""

from __future__ import annotations

from collections.abc import Iterator

from crescent_ref.actions import RESHUFFLE, Action
from crescent_ref.game import Game


def actions(game: Game) -> list[Action]:
    """The actions perft counts from the game's current position."""
    moves = game.legal_moves()
    if game.position.reshuffles and game.status() not in ("won", "lost"):
        moves.append(RESHUFFLE)
    return moves


MAX_DEPTH = 20  # deeper counts never finish (each level multiplies them by 10 to 13), and the recursion would overflow


def perft(game: Game, depth: int) -> int:
    """Leaves at ``depth`` (0 to MAX_DEPTH; ValueError otherwise); the game is left as it was."""
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"perft needs a depth of 0 to {MAX_DEPTH}, got {depth}")
    return _perft(game, depth)


def _perft(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    todo = actions(game)
    if depth == 1:
        return len(todo)
    return sum(_child_count(game, action, depth - 1) for action in todo)


def _child_count(game: Game, action: Action, depth: int) -> int:
    position, history, selected = game.position, game.history, game.selected
    game.history = []
    game.apply(action)
    count = _perft(game, depth)
    game.position, game.history, game.selected = position, history, selected
    return count


def divide(game: Game, depth: int) -> dict[str, int]:
    """perft split by first action (canonical text -> count), in action order."""
    return dict(divide_items(game, depth))


def divide_items(game: Game, depth: int) -> Iterator[tuple[str, int]]:
    """``divide`` one first action at a time (for a progress bar); the game is left as it was."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"divide needs a depth of 1 to {MAX_DEPTH}, got {depth}")
    for action in actions(game):
        yield str(action), _child_count(game, action, depth - 1)
