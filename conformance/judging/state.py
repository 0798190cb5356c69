"""The canonical state JSON (spec/interpreting.md) and comparing it with a scenario's expectations."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from crescent_ref.actions import Action, parse_place, place_text
from crescent_ref.cards import CARD_TEXT, KING, parse_index
from crescent_ref.errors import NotationError
from crescent_ref.position import Position, join_pile
from crescent_ref.state_json import FOUNDATIONS, game_state, position_state

__all__ = [
    "FOUNDATIONS",
    "Mismatch",
    "compare",
    "fields_read",
    "game_state",
    "observed",
    "position_state",
    "state_position",
    "state_text",
]


def state_position(state: dict[str, Any]) -> Position:
    """Rebuild a Position from a canonical state JSON (for diffs and replays)."""
    found = state["foundations"]
    up = tuple(parse_index(found[f]) % 13 + 1 for f in FOUNDATIONS[:4])
    down = tuple(parse_index(found[f]) % 13 + 1 for f in FOUNDATIONS[4:])
    held = [0, 0, 0, 0]
    for card in state.get("held", []):
        held[parse_index(card) // 13] = parse_index(card) % 13 + 1
    return Position(
        piles=tuple(tuple(parse_index(c) for c in pile) for pile in state["piles"]),
        hidden=tuple(state.get("hidden", [0] * 16)),
        up=up,
        down=down,
        held=tuple(held),
        reshuffles=state["reshuffles"],
        moves=state["moves"],
    )


def state_text(state: dict[str, Any]) -> str:
    """The position text of a state JSON, or a note when the state cannot be read as one."""
    try:
        return state_position(state).to_text()
    except (KeyError, TypeError, ValueError, IndexError) as err:
        return f"<unreadable state: {err}>"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One expected fact the actual state does not show."""

    what: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.what}: expected {self.expected!r}, got {self.actual!r}"


def compare(expected: dict[str, Any], state: dict[str, Any], legal: list[str] | None = None) -> list[Mismatch]:
    """Every expected fact the state does not show (empty list = matches)."""
    found: list[Mismatch] = []
    for key, want in expected.items():
        found.extend(_CHECKS[key](want, state, legal))
    return found


def _norm_cards(text: str) -> str:
    text = text.strip()
    if text in ("-", ""):
        return "-"
    hidden, _, shown = text[1:].partition("]") if text.startswith("[") else ("", "", text)
    canon = ",".join(CARD_TEXT[parse_index(c)] for c in shown.strip(",").split(",") if c.strip())
    if hidden:
        return "[" + ",".join(CARD_TEXT[parse_index(c)] for c in hidden.split(",")) + "]," + canon
    return canon


def _pile_text(state: dict[str, Any], index: int) -> str:
    return join_pile(state["piles"][index], state.get("hidden", [0] * 16)[index])


def _per_place(want: dict[str, Any], label: str, actual_of: Any) -> list[Mismatch]:
    return [
        Mismatch(f"{label} {place}", value, got) for place, value in want.items() if (got := actual_of(place)) != value
    ]


def _check_position(want: str, state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    canon, actual = Position.from_text(_unknown_counters(want, state)).to_text(), state_text(state)
    return [] if canon == actual else [Mismatch("position", canon, actual)]


def _unknown_counters(text: str, state: dict[str, Any]) -> str:
    """``moves:?`` and ``reshuffles:?`` (a counter the implementation does not observe) read as the state's."""
    return " ".join(
        f"{key}:{state.get(key, 0)}" if part == f"{key}:?" else part
        for part in text.split()
        for key in (part.partition(":")[0],)
    )


def _check_piles(want: dict[str, str], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    norm = {k: _norm_cards(v) for k, v in want.items()}
    return _per_place(norm, "pile", lambda p: _pile_text(state, parse_place(p)))


def _check_tops(want: dict[str, str], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    norm = {k: _norm_cards(v) for k, v in want.items()}
    return _per_place(norm, "top of", lambda p: (state["piles"][parse_place(p)] or ["-"])[-1])


def _check_counts(want: dict[str, int], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    return _per_place(want, "cards in", lambda p: len(state["piles"][parse_place(p)]))


def _check_hidden(want: dict[str, int], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    return _per_place(want, "face-down cards in", lambda p: state.get("hidden", [0] * 16)[parse_place(p)])


def _foundation_key(text: str) -> str:
    return place_text(parse_place(text))


def _check_foundations(want: dict[str, str], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    norm = {_foundation_key(k): _norm_cards(v) for k, v in want.items()}
    return _per_place(norm, "top of foundation", lambda f: state["foundations"].get(f))


def _foundation_size(state: dict[str, Any], key: str) -> int:
    rank = parse_index(state["foundations"][key]) % 13 + 1
    return rank if key.startswith("A") else KING + 1 - rank


def _check_foundation_counts(want: dict[str, int], state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    norm = {_foundation_key(k): v for k, v in want.items()}
    return _per_place(norm, "cards on foundation", lambda f: _foundation_size(state, f))


def _check_held(want: str, state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
    canon, actual = _norm_cards(want), ",".join(state.get("held", [])) or "-"
    return [] if canon == actual else [Mismatch("held", canon, actual)]


def _scalar(key: str) -> Any:
    def check(want: Any, state: dict[str, Any], _legal: list[str] | None) -> list[Mismatch]:
        return [] if state.get(key) == want else [Mismatch(key, want, state.get(key))]

    return check


def _check_legal(want: list[str], state: dict[str, Any], legal: list[str] | None) -> list[Mismatch]:
    canon = sorted(str(Action.from_text(a)) for a in want)
    actual = sorted(str(Action.from_text(a)) for a in legal or [])
    return [] if canon == actual else [Mismatch("legal moves", canon, actual)]


_CHECKS: dict[str, Any] = {
    "position": _check_position,
    "piles": _check_piles,
    "tops": _check_tops,
    "counts": _check_counts,
    "hidden": _check_hidden,
    "foundations": _check_foundations,
    "foundation_counts": _check_foundation_counts,
    "held": _check_held,
    "legal_moves": _check_legal,
    **{k: _scalar(k) for k in ("moves", "reshuffles", "status", "foundation_cards", "undo", "selected")},
}


_POSITION = ("piles", "hidden", "foundations", "held", "reshuffles", "moves")
_READS: dict[str, tuple[str, ...]] = {
    "position": _POSITION,
    "piles": ("piles", "hidden"),
    "tops": ("piles",),
    "counts": ("piles",),
    "hidden": ("hidden",),
    "foundations": ("foundations",),
    "foundation_counts": ("foundations",),
    "held": ("held",),
    "legal_moves": (),
}


def fields_read(expected: dict[str, Any]) -> frozenset[str]:
    """The state fields ``compare(expected, ...)`` reads: what to ask an implementation for under state
    on demand (spec/protocol.md). They depend on the expected keys alone, so each set of keys is worked
    out once (a run asks for every step, and a pipelining one twice: for its script and its play)."""
    keys = tuple(expected)
    fields = _FIELDS_OF.get(keys)
    if fields is None:
        fields = frozenset(name for key in keys for name in _READS.get(key, (key,)))
        if len(_FIELDS_OF) < _KEY_SETS:
            _FIELDS_OF[keys] = fields
    return fields


_FIELDS_OF: dict[tuple[str, ...], frozenset[str]] = {}
_KEY_SETS = 4096  # sets of expected keys kept (the corpus has a few dozen)


def observed(expected: dict[str, Any], state: dict[str, Any], legal: list[str] | None = None) -> dict[str, Any]:
    """The same expected fields (and places) as ``expected``, with the values ``state`` shows.

    ``compare(observed(e, s, l), s, l)`` is empty: this is how a scenario's checks are re-read from
    the reference playing under declared deviations.
    """
    return {key: _OBSERVE[key](want, state, legal) for key, want in expected.items()}


def _observe_places(actual_of: Any, key_of: Any = lambda k: k) -> Any:
    return lambda want, state, _legal: {place: actual_of(state, key_of(place)) for place in want}


_OBSERVE: dict[str, Any] = {
    "position": lambda _want, state, _legal: state_text(state),
    "piles": _observe_places(lambda s, p: _pile_text(s, parse_place(p))),
    "tops": _observe_places(lambda s, p: (s["piles"][parse_place(p)] or ["-"])[-1]),
    "counts": _observe_places(lambda s, p: len(s["piles"][parse_place(p)])),
    "hidden": _observe_places(lambda s, p: s.get("hidden", [0] * 16)[parse_place(p)]),
    "foundations": _observe_places(lambda s, f: s["foundations"].get(f), _foundation_key),
    "foundation_counts": _observe_places(_foundation_size, _foundation_key),
    "held": lambda _want, state, _legal: ",".join(state.get("held", [])) or "-",
    "legal_moves": lambda _want, _state, legal: list(legal or []),
    **{
        k: (lambda key: lambda _want, state, _legal: state.get(key))(k)
        for k in ("moves", "reshuffles", "status", "foundation_cards", "undo", "selected")
    },
}


@functools.lru_cache(maxsize=8192)
def canonical_action(text: str) -> str:
    """An action's canonical text (bad text as it is); remembered, as a run asks for the same ones often."""
    try:
        return str(Action.from_text(text))
    except NotationError:
        return text
