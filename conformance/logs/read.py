"""Reading a game log: every line checked as it is read; a bad line is a LogError naming file and line.

The checks here follow spec/schema/game-log.schema.json (tests hold the two together) and cost little
per line: the value of a recorded state field is checked against its schema only when it differs
from the reference's (``field_problem``; a value equal to the reference's is well-formed), so long
logs read fast.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, NoReturn

from conformance.adapter import OBSERVATIONS
from conformance.logs.model import EFFECTS, FORMAT_VERSION, STATE_FIELDS, GameLog, LogHeader, LogRecord
from conformance.reading import InputFileError, parse_json, read_text
from crescent_ref.actions import Action
from crescent_ref.deal import parse_code
from crescent_ref.errors import CrescentError, NotationError
from crescent_ref.position import Position
from crescent_ref.spec_files import load_yaml

MAX_LOG_BYTES = 256 * 2**20  # a log of 100,000 actions with the whole state on every line is about 200 MiB
_FIELDS = frozenset(STATE_FIELDS)
HEADER_KEYS = {"crescent_log", "profile", "position", "code", "implementation", "deviations", "state", "meta",
               "observes", "reason_codes"}  # fmt: skip
RECORD_KEYS = {"action", "accepted", "reason", "effect", "moves", "state", "meta"}


class LogError(CrescentError):
    """A game log line that is not what spec/game-log.md says; names file, line and the offending text."""

    def __init__(self, file: str, line: int, text: str, why: str) -> None:
        self.file = file
        self.line = line
        self.text = text
        self.why = why
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(f"{file}:{line}: {why}: {shown}")


def read_log(path: Path) -> GameLog:
    """Read and check a log file; raises LogError for the first bad line (or an unreadable file).

    Lines end at a newline only: U+2028 and the other breaks ``str.splitlines`` knows may stand raw
    inside a JSON string.
    """
    try:
        text = read_text(path, "log", MAX_LOG_BYTES)
    except InputFileError as err:
        raise LogError(str(path), err.line or 0, str(path), err.why) from None
    return read_lines(str(path), [line.removesuffix("\r") for line in text.split("\n")])


def read_lines(file: str, lines: list[str]) -> GameLog:
    """A log from its lines (blank lines are skipped); the first line that is not blank is the header."""
    header: LogHeader | None = None
    records: list[LogRecord] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        line = _Line(file, number, text)
        if header is None:
            header = _header(line, line.object())
        else:
            records.append(_record(line, line.object(), len(records) + 1))
    if header is None:
        raise LogError(file, 1, "", "empty log: the first line must be the header")
    return GameLog(file, header, tuple(records))


class _Line:
    """One line being read, to name it in errors."""

    def __init__(self, file: str, number: int, text: str) -> None:
        self.file = file
        self.number = number
        self.text = text

    def fail(self, why: str) -> NoReturn:
        raise LogError(self.file, self.number, self.text, why)

    def object(self) -> dict[str, Any]:
        try:
            data = parse_json(self.text, self.file, self.number)
        except InputFileError as err:
            self.fail(err.why)
        if not isinstance(data, dict):
            self.fail("not a JSON object")
        return data


def _header(line: _Line, data: dict[str, Any]) -> LogHeader:
    _only(line, data, HEADER_KEYS, "header")
    if data.get("crescent_log") != FORMAT_VERSION:
        line.fail(f"the header must start the log with \"crescent_log\": {FORMAT_VERSION}")
    profile = data.get("profile")
    if not isinstance(profile, str) or not profile:
        line.fail("the header needs a profile (a string such as \"app\" or \"open+four\")")
    position, code = data.get("position"), data.get("code")
    if (position is None) == (code is None):
        line.fail("the header needs exactly one of position and code")
    _start(line, position, code)
    return LogHeader(
        line=line.number,
        profile=profile,
        position=position,
        code=code,
        implementation=_implementation(line, data.get("implementation", {})),
        deviations=_deviations(line, data.get("deviations", {})),
        state=_state(line, data.get("state", {})),
        observes=_names(line, data.get("observes"), "observes", tuple(OBSERVATIONS)),
        reason_codes=_names(line, data.get("reason_codes"), "reason_codes", reason_codes()),
    )


def reason_codes() -> tuple[str, ...]:
    """The reason codes of spec/reasons.yaml."""
    return tuple(str(r["code"]) for r in load_yaml("reasons.yaml")["reasons"])


def _names(line: _Line, value: Any, what: str, known: tuple[str, ...]) -> frozenset[str] | None:
    """A header list of names from ``known`` (absent: None)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        line.fail(f"{what} must be a list of names")
    unknown = sorted(set(value) - set(known))
    if unknown:
        line.fail(f"{what}: unknown name {unknown[0]!r}; known: {', '.join(known)}")
    return frozenset(value)


def _start(line: _Line, position: Any, code: Any) -> None:
    try:
        if position is not None:
            Position.from_text(_string(line, position, "position"))
        else:
            parse_code(_string(line, code, "code"))
    except NotationError as err:
        line.fail(str(err))


def _implementation(line: _Line, value: Any) -> str:
    if not isinstance(value, dict) or set(value) - {"name", "version"}:
        line.fail("implementation must be an object with name and version")
    return " ".join(_string(line, value[k], f"implementation {k}") for k in ("name", "version") if k in value)


def _deviations(line: _Line, value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        line.fail("deviations must map base profiles to {parameter: value} objects")
    return value


def _record(line: _Line, data: dict[str, Any], number: int) -> LogRecord:
    _only(line, data, RECORD_KEYS, "record")
    if "action" not in data or not isinstance(data.get("accepted"), bool):
        line.fail("a record needs action (text) and accepted (true or false)")
    accepted, reason, effect = data["accepted"], data.get("reason"), data.get("effect")
    if reason is not None and (accepted or not isinstance(reason, str)):
        line.fail("reason is a reason code of a refused action, or null")
    if effect is not None and effect not in EFFECTS:
        line.fail(f"effect must be one of {', '.join(EFFECTS)} or null")
    return LogRecord(
        number=number,
        line=line.number,
        action=_action(line, data["action"]),
        accepted=accepted,
        reason=reason,
        effect=effect,
        moves=_moves(line, data["moves"]) if "moves" in data else None,
        state=_state(line, data.get("state", {})),
        text=line.text,
    )


def _only(line: _Line, data: dict[str, Any], keys: set[str], what: str) -> None:
    unknown = sorted(set(data) - keys)
    if unknown:
        line.fail(f"unknown {what} field {unknown[0]!r} (known: {', '.join(sorted(keys))})")


def _string(line: _Line, value: Any, what: str) -> str:
    if not isinstance(value, str):
        line.fail(f"{what} must be a string")
    return value


@functools.lru_cache(maxsize=4096)
def parse_action(text: str) -> Action:
    """An action's notation, read once per distinct text."""
    return Action.from_text(text)


@functools.lru_cache(maxsize=4096)
def card_move(text: Any) -> str:
    """A card move's canonical text, read once per distinct text; NotationError for anything else."""
    action = Action.from_text(text) if isinstance(text, str) else None
    if action is None or action.kind != "move":
        raise NotationError("card move", str(text), "moves lists card moves only (p3-p11, p5-A♠, ...)")
    return str(action)


def _action(line: _Line, value: Any) -> Action:
    try:
        return parse_action(_string(line, value, "action"))
    except NotationError as err:
        line.fail(str(err))


def _moves(line: _Line, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        line.fail("moves must be a list of card moves")
    try:
        return tuple(map(card_move, value))
    except TypeError:  # an unhashable item: not a card move
        line.fail("moves lists card moves only (p3-p11, p5-A♠, ...)")
    except NotationError as err:
        line.fail(str(err))


def _state(line: _Line, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        line.fail("state must be an object of canonical state fields")
    unknown = sorted(value.keys() - _FIELDS)
    if unknown:
        line.fail(f"unknown state field {unknown[0]!r} (known: {', '.join(STATE_FIELDS)})")
    return value


@functools.cache
def log_schema() -> dict[str, Any]:
    """spec/schema/game-log.schema.json."""
    from crescent_ref.spec_files import spec_dir

    schema: dict[str, Any] = json.loads((spec_dir() / "schema" / "game-log.schema.json").read_text("utf-8"))
    return schema


@functools.cache
def _field_validator(key: str) -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(log_schema()["$defs"]["state"]["properties"][key])


def field_problem(key: str, value: Any) -> str | None:
    """Why a recorded state field is not well-formed (its schema), or None."""
    import jsonschema

    error = jsonschema.exceptions.best_match(_field_validator(key).iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"state field {key!r}{'/' + where if where else ''}: {error.message[:160]}"
