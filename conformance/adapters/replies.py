"""Every reply of an implementation read strictly, one field at a time (spec/protocol.md).

One reader for every command (run, smoke, perft, fuzz, winnable, the pytest plugin): a field of
the wrong type is an ``AdapterError`` naming the field and quoting the value (``reply field
"result.moves": expected a list of strings, got 5``), never a ``KeyError`` further on. JSON's
``true`` is no integer here and ``5.0`` no ``seq`` 5. Free text an implementation sends to be shown
(its name, a skip or error message, its stderr) has its control characters escaped: it is shown,
never obeyed by the terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from conformance.adapter import AdapterError, Reply, RuleError, Skip

EFFECTS = ("move", "select", "deselect", "reshuffle", "undo")
STATE_REQUIRED = ("piles", "hidden", "foundations", "held", "reshuffles", "moves", "status")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class Errored(AdapterError):
    """The implementation answered ``errored``: a well-formed reply saying it failed (the process goes on)."""


def shown(text: str, one_line: bool = True) -> str:
    """``text`` safe to print: control characters (ESC, CR, ...; newlines too when ``one_line``) as ``\\xNN``."""
    pattern = _CONTROL_ONE_LINE if one_line else _CONTROL
    return pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def bad(where: str, expected: str, value: Any) -> NoReturn:
    """Raise the AdapterError for a field of the wrong type."""
    kind = "handshake" if where.startswith("implementation") else "reply"
    raise AdapterError(f'{kind} field "{where}": expected {expected}, got {_quote(value)}')


def _quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return shown(text if len(text) <= 80 else text[:77] + "...")


def is_int(value: Any) -> bool:
    """A JSON integer (``true`` and ``5.0`` are not)."""
    return type(value) is int


def text_field(data: Mapping[str, Any], name: str, where: str, default: str | None = None) -> str:
    """A string field (``default`` when absent, if given)."""
    value = data.get(name, default)
    if not isinstance(value, str):
        bad(f"{where}{name}", "a string", value)
    return value


def texts(data: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    """A list-of-strings field (empty when absent; ``null`` is an error)."""
    if name not in data:
        return ()
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        bad(f"{where}{name}", "a list of strings", value)
    return tuple(value)


def check_seq(reply: Mapping[str, Any], seq: int) -> None:
    """The reply echoes the request's ``seq`` exactly (the same integer, not 5.0 nor true)."""
    got = reply.get("seq")
    if not is_int(got) or got != seq:
        raise AdapterError(f"replied with seq {_quote(got)} to request seq {seq}")


def result_of(reply: Mapping[str, Any], loading: bool = False) -> dict[str, Any]:
    """The ``result`` object of a reply; Skip for ``skipped``, RuleError for a refused ``new_game``
    (``loading``), AdapterError for any other ``errored`` or a malformed envelope."""
    kinds = [k for k in ("result", "skipped", "errored") if k in reply]
    if len(kinds) != 1:
        raise AdapterError(f"a reply holds exactly one of result, skipped, errored; this one holds {kinds or 'none'}")
    if "skipped" in reply:
        skipped = _object(reply["skipped"], "skipped")
        raise Skip(shown(text_field(skipped, "message", "skipped.", "")))
    if "errored" in reply:
        _raise_errored(_object(reply["errored"], "errored"), loading)
    return _object(reply["result"], "result")


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        bad(where, "an object", value)
    return value


def _raise_errored(errored: dict[str, Any], loading: bool) -> NoReturn:
    message = shown(text_field(errored, "message", "errored.", ""))
    refused = errored.get("refused", False)
    if not isinstance(refused, bool):
        bad("errored.refused", "true or false", refused)
    if refused and loading:
        raise RuleError(message)
    context = shown(clip_context(errored.get("context", "")), one_line=False)
    raise Errored(f"implementation errored: {message}", context)


def clip_context(context: Any, head: int = 300, tail: int = 1200) -> str:
    """An errored reply's context for the report: its start and its end (a traceback's last line names the
    exception), the middle left out when it is long."""
    text = context if isinstance(context, str) else json.dumps(context, ensure_ascii=False)
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[... {len(text) - head - tail} characters left out ...]\n{text[-tail:]}"


def state_of(result: Mapping[str, Any], asked: frozenset[str] | None = None) -> dict[str, Any]:
    """The ``state`` of a result, its fields typed; with state on demand (``asked``) only those are required."""
    if asked is not None and not asked and "state" not in result:
        return {}
    state = _object(result.get("state"), "result.state")
    needed = STATE_REQUIRED if asked is None else tuple(f for f in STATE_REQUIRED if f in asked)
    missing = [f for f in needed if f not in state]
    if missing:
        bad("result.state", f"an object with {', '.join(missing)}", state)
    for name, value in state.items():
        check = _STATE_FIELDS.get(name)
        if check is not None and not check(value):
            bad(f"result.state.{name}", _STATE_TYPES[name], value)
    return state


def _cards(value: Any) -> bool:
    return isinstance(value, list) and all(type(c) is str for c in value)


def _piles(value: Any) -> bool:
    return (
        isinstance(value, list)
        and all(type(p) is list for p in value)
        and all(type(c) is str for p in value for c in p)
    )


_STATE_FIELDS: dict[str, Any] = {
    "piles": _piles,
    "hidden": lambda v: isinstance(v, list) and all(is_int(n) for n in v),
    "foundations": lambda v: isinstance(v, dict) and all(isinstance(c, str) for c in v.values()),
    "held": _cards,
    "reshuffles": is_int,
    "moves": is_int,
    "status": lambda v: isinstance(v, str),
    "foundation_cards": is_int,
    "undo": is_int,
    "selected": lambda v: v is None or isinstance(v, str),
}
_STATE_TYPES = {
    "piles": "a list of lists of cards",
    "hidden": "a list of integers",
    "foundations": "an object of place: card",
    "held": "a list of cards",
    "status": "a string",
    "selected": "a place or null",
    **{k: "an integer" for k in ("reshuffles", "moves", "foundation_cards", "undo")},
}


def act_reply(result: Mapping[str, Any], asked: frozenset[str] | None = None) -> Reply:
    """An ``act`` result read into a Reply."""
    accepted = result.get("accepted")
    if not isinstance(accepted, bool):
        bad("result.accepted", "true or false", accepted)
    reason = result.get("reason")
    if reason is not None and not isinstance(reason, str):
        bad("result.reason", "a reason code or null", reason)
    effect = result.get("effect")
    if effect is not None and effect not in EFFECTS:
        bad("result.effect", f"one of {', '.join(EFFECTS)} or null", effect)
    return Reply(accepted, reason, effect, texts(result, "moves", "result."), state_of(result, asked))


def legal_moves(result: Mapping[str, Any]) -> list[str]:
    """A ``legal_moves`` result: the moves as strings."""
    if "moves" not in result:
        bad("result.moves", "a list of strings", None)
    return list(texts(result, "moves", "result."))


def message_text(result: Mapping[str, Any]) -> str:
    """A ``message`` result's text."""
    return text_field(result, "text", "result.")
