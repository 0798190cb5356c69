"""Replaying a game log on the reference engine and finding its first divergence.

Each record's action is applied to a ``crescent_ref.Game``; then what the log says (accepted or
refused, the reason, effect and card moves when given, each recorded state field) is compared with
what the reference did, field by field as spec/interpreting.md says. Only the recorded fields are
computed, straight from the engine (no state JSON round trip), so a log checks at engine speed.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.judging.state import Mismatch
from conformance.logs.model import GameLog, LogHeader, LogRecord
from conformance.logs.read import LogError, field_problem
from crescent_ref.actions import place_text
from crescent_ref.cards import CARD_TEXT
from crescent_ref.errors import NotationError
from crescent_ref.game import Game, Outcome
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, base_names, check_parameter, get_profile
from crescent_ref.state_json import FOUNDATIONS

REPLAY_FROM_START = 40  # a divergence this early replays the whole game; a later one replays from a recent point
REPLAY_TAIL = 10  # ... with no undo history and no selection, else from this many steps back


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where a log first parts from the reference: the record (None: the start), what differs, the tables.

    ``replay_start`` is the position text (or game code) the replay command starts from and
    ``replay_actions`` the actions it plays, the diverging one last.
    """

    record: LogRecord | None
    mismatches: tuple[Mismatch, ...]
    outcome: Outcome | None
    before: Position | None
    after: Position | None
    replay_start: str
    replay_actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LogVerdict:
    """The verdict on one log: consistent with the reference, or its first divergence."""

    log: GameLog
    profile: Profile
    checked: int
    divergence: Divergence | None
    seconds: float

    @property
    def consistent(self) -> bool:
        """Every record agrees with the reference."""
        return self.divergence is None


def judged_profile(log: GameLog, name: str | None = None) -> Profile:
    """The profile the log is judged in (``name`` or the header's), with the header's deviations for its base."""
    header = log.header
    try:
        profile = get_profile(name or header.profile)
        for base, changes in header.deviations.items():
            if base not in base_names():
                raise NotationError("deviations", base, f"not a base profile; known: {', '.join(base_names())}")
            for key, value in changes.items():
                check_parameter(key, value)
        return Profile.declared(profile.name, header.deviations.get(profile.name.split("+")[0], {}))
    except NotationError as err:
        raise LogError(log.file, header.line, _header_text(header), str(err)) from None


def _header_text(header: LogHeader) -> str:
    return f"profile {header.profile!r}, deviations {header.deviations}"


def check_log(log: GameLog, profile: str | None = None) -> LogVerdict:
    """Replay the log on the reference; the first divergence, or none. Raises LogError for a bad field."""
    began = time.perf_counter()
    judged = judged_profile(log, profile)
    divergence, checked = _replay(log, judged)
    return LogVerdict(log, judged, checked, divergence, time.perf_counter() - began)


def _start(log: GameLog, profile: Profile) -> Game:
    header = log.header
    return Game.deal(profile, header.code) if header.code else Game.from_text(profile, header.position or "")


def _replay(log: GameLog, profile: Profile) -> tuple[Divergence | None, int]:
    start = log.header.code or log.header.position or ""
    try:
        game = _start(log, profile)
    except NotationError as err:
        refused = Mismatch("start", f"refused in {profile.name}: {err.why}", "played")
        return Divergence(None, (refused,), None, None, None, start, ()), 0
    seen = Observed(game)
    found = seen.compare(log, log.header.line, log.header.state)
    if found:
        return Divergence(None, tuple(found), None, None, game.position, start, ()), 0
    recent: deque[tuple[Position, LogRecord, bool]] = deque(maxlen=REPLAY_FROM_START)
    for record in log.records:
        before = game.position
        recent.append((before, record, not game.history and game.selected is None))
        outcome = game.apply(record.action)
        found = judge(record, outcome, log.header) + seen.compare(log, record.line, record.state, record.text)
        if found:
            start, actions = _replay_path(log, record, recent)
            return Divergence(record, tuple(found), outcome, before, game.position, start, actions), record.number
    return None, len(log.records)


def _replay_path(
    log: GameLog, record: LogRecord, recent: deque[tuple[Position, LogRecord, bool]]
) -> tuple[str, tuple[str, ...]]:
    """Where the replay command starts and what it plays: the whole game when short, else from the
    latest recent point with nothing to undo and nothing selected, else the last few steps."""
    if record.number <= REPLAY_FROM_START:
        start = log.header.code or log.header.position or ""
        return start, tuple(str(r.action) for r in log.records[: record.number])
    steps = list(recent)
    clean = [n for n, (_, _, fresh) in enumerate(steps) if fresh]
    first = clean[-1] if clean else len(steps) - REPLAY_TAIL
    return steps[first][0].to_text(), tuple(str(r.action) for _, r, _ in steps[first:])


def observes(header: LogHeader, capability: str) -> bool:
    """Whether the game that wrote the log observes this part (a header without ``observes``: every part)."""
    return header.observes is None or capability in header.observes


def names_reason(header: LogHeader, reason: str | None) -> bool:
    """Whether a refusal for ``reason`` is judged on its reason (``reasons`` observed, ``reason`` named)."""
    named = header.reason_codes is None or reason in header.reason_codes
    return named and (observes(header, "reasons") or header.reason_codes is not None)


def judge(record: LogRecord, outcome: Outcome, header: LogHeader | None = None) -> list[Mismatch]:
    """What the log says of the outcome against what the reference did (only what the log says, and only
    what the game observes, as its header declares)."""
    header = header or LogHeader(0, "")
    if record.accepted != outcome.accepted:
        said = describe(record.accepted, record.reason)
        return [Mismatch("outcome", describe(outcome.accepted, outcome.reason), said)]
    found = []
    if record.reason is not None and record.reason != outcome.reason and names_reason(header, outcome.reason):
        found.append(Mismatch("reason", outcome.reason, record.reason))
    if record.effect is not None and record.effect != outcome.effect and observes(header, "effect"):
        found.append(Mismatch("effect", outcome.effect, record.effect))
    if (
        observes(header, "card-moves")
        and record.moves is not None
        and record.moves != tuple(str(m) for m in outcome.moves)
    ):
        found.append(Mismatch("card moves", [str(m) for m in outcome.moves], list(record.moves)))
    return found


def describe(accepted: bool, reason: str | None) -> str:
    """``accepted``, ``rejected (wrong-suit)`` or ``rejected`` (no reason given)."""
    if accepted:
        return "accepted"
    return f"rejected ({reason})" if reason else "rejected"


ACTUAL: dict[str, Callable[[Game], Any]] = {
    "piles": lambda g: [[CARD_TEXT[c] for c in pile] for pile in g.position.piles],
    "hidden": lambda g: list(g.position.hidden),
    "foundations": lambda g: foundation_tops(g.position),
    "held": lambda g: [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(g.position.held) if r],
    "reshuffles": lambda g: g.position.reshuffles,
    "moves": lambda g: g.position.moves,
    "status": lambda g: g.status(),
    "foundation_cards": lambda g: g.position.foundation_count(),
    "undo": lambda g: len(g.history),
    "selected": lambda g: place_text(g.selected) if g.selected is not None else None,
}
PER_POSITION = {"piles", "hidden", "foundations", "held", "foundation_cards", "status"}


def foundation_tops(pos: Position) -> dict[str, str]:
    """The top card of each foundation, keyed by its base card (``A♠`` .. ``K♣``); do not change it."""
    return _tops(pos.up, pos.down)


@functools.lru_cache(maxsize=1024)
def _tops(up: tuple[int, ...], down: tuple[int, ...]) -> dict[str, str]:
    tops = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(up)]
    tops += [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(down)]
    return dict(zip(FOUNDATIONS, tops, strict=True))


class Observed:
    """The reference's state fields, each computed when first asked and kept while the position stays
    (a refused action, a selection or an undo count asks again without rebuilding the table)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.position: Position | None = None
        self.kept: dict[str, Any] = {}

    def compare(self, log: GameLog, line: int, state: dict[str, Any], text: str = "") -> list[Mismatch]:
        """Each recorded state field against the reference's; a malformed field that differs is a LogError."""
        game = self.game
        if game.position is not self.position:
            self.position, self.kept = game.position, {}
        kept, found = self.kept, []
        for key, logged in state.items():
            actual = kept[key] if key in kept else ACTUAL[key](game)
            if key in PER_POSITION:
                kept[key] = actual
            if logged != actual and not (key == "foundations" and _subset(logged, actual)):
                if not observed(log.header, key, actual, logged):
                    continue
                problem = field_problem(key, logged)
                if problem:
                    raise LogError(log.file, line, text, problem)
                found.extend(_differences(key, actual, logged))
        return found


# A state field compared only when the game observes it; the others' values are not compared at all.
FIELD_OBSERVATION = {"moves": "move-count", "reshuffles": "reshuffle-count", "undo": "undo-count"}


def observed(header: LogHeader, key: str, actual: Any, logged: Any) -> bool:
    """Whether a difference in ``key`` counts: the game observes that field (or that status)."""
    if key in FIELD_OBSERVATION:
        return observes(header, FIELD_OBSERVATION[key])
    if key == "status" and (actual, logged) == ("waiting", "playing"):
        return observes(header, "waiting")
    if key == "status" and actual == "lost" and logged in ("playing", "waiting"):
        return observes(header, "lost")
    return True


def _subset(logged: Any, actual: dict[str, Any]) -> bool:
    """A log may record only some foundations (an object of some of the eight)."""
    return isinstance(logged, dict) and all(actual.get(k) == v for k, v in logged.items())


def _differences(key: str, reference: Any, logged: Any) -> list[Mismatch]:
    if key == "piles":
        return [
            Mismatch(f"pile p{n}", ",".join(r) or "-", ",".join(g) or "-")
            for n, (r, g) in enumerate(zip(reference, logged, strict=True), 1)
            if r != g
        ]
    if key == "foundations":
        return [
            Mismatch(f"top of foundation {k}", reference[k], v) for k, v in logged.items() if reference.get(k) != v
        ]
    return [Mismatch(key, reference, logged)]
