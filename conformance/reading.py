"""Reading the files the kit is handed: bounded in size, nesting and number length; one error per bad file.

Every file a command reads from its user (run reports, game logs, expectations and allow files,
scenario YAML) comes through here. A file is read whole but never more than ``MAX_BYTES``, decoded
as strict UTF-8, and parsed with limits a hostile file cannot get past: at most ``MAX_DEPTH``
levels of nesting, integers of at most ``MAX_DIGITS`` digits, no NaN or infinity. Lone surrogates
(``"\\ud800"`` escapes, which no UTF-8 file can hold once written back) become U+FFFD. Whatever is
wrong is one ``InputFileError`` naming the file, the line and what is wrong there; the CLIs turn
it into one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NoReturn

from crescent_ref.errors import ScenarioError, quoted

MAX_BYTES = 64 * 2**20  # a run report of the whole corpus with every run failing is about 2 MiB
MAX_DEPTH = 64  # the deepest file the kit writes nests 6 levels
MAX_DIGITS = 24  # a 64-bit integer has 20 digits

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class InputFileError(ScenarioError):
    """A file given to the kit that it cannot take: unreadable, too large, not the format, a field mistyped.

    ``file``, ``line`` (None when the fault is the whole file), ``where`` (the field, as a JSON
    path) and ``why`` are kept; the message is ``file:line: field: why``.
    """


def fail(file: str | Path, line: int | None, where: str, why: str) -> NoReturn:
    """Raise the InputFileError of a file (a shorthand for parsers)."""
    raise InputFileError(str(file), line, where, why)


def read_bytes(path: Path, what: str = "file", limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them; InputFileError for a folder, an unreadable
    file or a larger one (a device such as /dev/zero is read no further than the limit)."""
    try:
        with open(path, "rb") as source:  # a folder: IsADirectoryError
            data = source.read(limit + 1)
    except OSError as err:
        fail(path, None, "", f"cannot read the {what}: {err.strerror or err}")
    if len(data) > limit:
        fail(path, None, "", f"the {what} is larger than {limit // 2**20} MiB: not read")
    return data


def decode(data: bytes, path: str | Path, what: str = "file") -> str:
    """``data`` as UTF-8 (a leading byte-order mark dropped); InputFileError naming the line of a bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        fail(path, line, "", f"the {what} is not UTF-8 text (byte 0x{data[err.start]:02x})")


def read_text(path: Path, what: str = "file", limit: int = MAX_BYTES) -> str:
    """``read_bytes`` then ``decode``."""
    return decode(read_bytes(path, what, limit), path, what)


class _Refused(ValueError):
    """A number the bounded parser will not take (raised from inside json's hooks)."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__(why)
        self.text = text
        self.why = why


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(text, f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(text, f"the number {quoted(text, 40)} is out of range")
    return value


def _constant(text: str) -> float:
    raise _Refused(text, f"{text} is not JSON")


def parse_json(text: str, file: str | Path, first_line: int = 1) -> Any:
    """Parse one JSON document with the bounds above; ``first_line`` is the file line ``text`` starts on.

    Raises:
        InputFileError: not JSON, nested too deeply, a number out of bounds.
    """
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as err:
        where = f" at column {err.colno}" if err.lineno == 1 else f" at line {err.lineno} column {err.colno}"
        fail(file, first_line + err.lineno - 1, "", f"not JSON ({err.msg}{where})")
    except _Refused as err:
        fail(file, first_line + _line_of(text, err.text), "", err.why)
    except RecursionError:  # deeper than the interpreter goes: certainly deeper than MAX_DEPTH
        _check_depth(text, file, first_line)
        fail(file, first_line, "", f"nested more than {MAX_DEPTH} levels deep")
    except ValueError as err:  # kept so that no input can trace back
        fail(file, first_line, "", f"not readable JSON ({str(err)[:120]})")
    if text.count("[") + text.count("{") > MAX_DEPTH and too_deep(value):  # fewer brackets: cannot be
        _check_depth(text, file, first_line)  # names the line
        fail(file, first_line, "", f"nested more than {MAX_DEPTH} levels deep")
    return clean(value) if _SURROGATE_ESCAPE.search(text) else value


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects nest more than ``limit`` levels in ``value`` (walked without recursion)."""
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _check_depth(text: str, file: str | Path, first_line: int) -> None:
    """InputFileError naming the line where brackets outside strings nest deeper than MAX_DEPTH."""
    bare = _STRING.sub('""', text) if '"' in text else text
    depth = 0
    for found in _BRACKET.finditer(bare):
        depth += _DEPTH_STEP[found.group()]
        if depth > MAX_DEPTH:
            line = first_line + bare.count("\n", 0, found.start())
            fail(file, line, "", f"nested more than {MAX_DEPTH} levels deep")


def _line_of(text: str, literal: str) -> int:
    """Lines after the first to the first place ``literal`` appears (0 when not found)."""
    at = text.find(literal)
    return text.count("\n", 0, at) if at >= 0 else 0


def clean(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    return value


def load_json(path: Path, what: str = "file", limit: int = MAX_BYTES) -> tuple[Any, str]:
    """A JSON file's value and its text (to locate fields in errors)."""
    text = read_text(path, what, limit)
    return parse_json(text, path), text


def json_path(path: tuple[str | int, ...] | list[str | int]) -> str:
    """``$.results[3].id`` for ``("results", 3, "id")``."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


_TOKEN = re.compile(r'\s*(?:(?P<s>"(?:[^"\\]|\\.)*")|(?P<p>[\[\]{},:])|(?P<v>[^\s\[\]{},:"]+))', re.DOTALL)


def line_of_path(text: str, path: tuple[str | int, ...] | list[str | int]) -> int | None:
    """The line of the value at ``path`` in the JSON ``text`` (None when it is not there).

    A small scanner that follows keys and indices; used only to name the line of a bad field.
    """
    want = list(path)
    stack: list[list[Any]] = []  # per open container: [kind, key or index, expecting a key]
    for token in _TOKEN.finditer(text):
        kind, value = token.lastgroup, token.group(token.lastgroup or "v")
        if value in (":", ","):
            if value == "," and stack:
                top = stack[-1]
                top[1] = top[1] + 1 if top[0] == "[" else None
                top[2] = top[0] == "{"
            continue
        if value in ("]", "}"):
            stack.pop()
            continue
        if stack and stack[-1][2]:  # an object's key
            stack[-1][1], stack[-1][2] = json.loads(value) if kind == "s" else value, False
            continue
        current = [frame[1] for frame in stack]
        if current == want:
            return text.count("\n", 0, token.start(token.lastgroup or "v")) + 1
        if value in ("[", "{"):
            stack.append(["[", 0, False] if value == "[" else ["{", None, True])
    return None
