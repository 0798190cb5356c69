"""The stdio adapter's quick reader and writer: msgspec's C codec, typed as spec/protocol.md says.

A request line is written in one call; a reply line that is a well-formed ``result`` to its request
is read, type-checked and turned into what the runner wants (a Reply, a state, moves, a text) in one
pass. Every reader returns None when it declines a line: anything but exactly such a reply (a skip,
an error, a field of another type, the wrong ``seq``, NaN, a lone surrogate, bytes that are not
UTF-8, a number out of range, a deep nest). The adapter then reads the line again with the strict
reader (``stdio.parse_line`` and ``replies``), which names the fault or reads what it accepts. So
this module changes how fast a reply is read, never what it is read as: whatever it accepts, the
strict reader accepts with the same value (tests/conformance/test_quick_codec.py checks this on
random and hostile lines).

msgspec is a dependency of the kit; without it (``AVAILABLE`` is False) every line takes the strict
path and requests are written by the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from conformance.adapter import Reply
from conformance.adapters.replies import STATE_REQUIRED

try:
    import msgspec
except ImportError:  # pragma: no cover - msgspec is a dependency; the strict path still works without it
    msgspec = None  # type: ignore[assignment]

AVAILABLE = msgspec is not None
T = TypeVar("T")
Effect = Literal["move", "select", "deselect", "reshuffle", "undo"]


def encoder() -> Callable[[dict[str, Any]], bytes]:
    """A function writing one request object as a JSON line (UTF-8, no ASCII escapes, with its newline)."""
    if AVAILABLE:
        encode = msgspec.json.Encoder().encode
        return lambda message: encode(message) + b"\n"
    return lambda message: (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


if AVAILABLE:

    class _Envelope(msgspec.Struct):
        """What every reply holds beside its result; a skipped or errored field present makes it declined."""

        seq: int | msgspec.UnsetType = msgspec.UNSET  # absent in a batch's inner replies
        skipped: Any = msgspec.UNSET
        errored: Any = msgspec.UNSET

    class _State(msgspec.Struct, forbid_unknown_fields=True):
        """The typed fields of STATE (``replies._STATE_FIELDS`` in C). A state with any other field is
        declined: the strict reader keeps such fields, unchecked, and this reader could not."""

        piles: list[list[str]] | msgspec.UnsetType = msgspec.UNSET
        hidden: list[int] | msgspec.UnsetType = msgspec.UNSET
        foundations: dict[str, str] | msgspec.UnsetType = msgspec.UNSET
        held: list[str] | msgspec.UnsetType = msgspec.UNSET
        reshuffles: int | msgspec.UnsetType = msgspec.UNSET
        moves: int | msgspec.UnsetType = msgspec.UNSET
        status: str | msgspec.UnsetType = msgspec.UNSET
        foundation_cards: int | msgspec.UnsetType = msgspec.UNSET
        undo: int | msgspec.UnsetType = msgspec.UNSET
        selected: str | msgspec.UnsetType | None = msgspec.UNSET

    class _ActResult(msgspec.Struct):
        accepted: bool
        reason: str | None = None
        effect: Effect | None = None
        moves: list[str] = msgspec.field(default_factory=list)
        state: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET

    class _StartResult(msgspec.Struct):
        state: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET

    class _MovesResult(msgspec.Struct):
        moves: list[str]

    class _TextResult(msgspec.Struct):
        text: str

    class _Act(_Envelope):
        result: _ActResult | msgspec.UnsetType = msgspec.UNSET

    class _Start(_Envelope):
        result: _StartResult | msgspec.UnsetType = msgspec.UNSET

    class _Moves(_Envelope):
        result: _MovesResult | msgspec.UnsetType = msgspec.UNSET

    class _Text(_Envelope):
        result: _TextResult | msgspec.UnsetType = msgspec.UNSET

    class _BatchResult(msgspec.Struct):
        replies: list[msgspec.Raw]

    class _Batch(_Envelope):
        result: _BatchResult | msgspec.UnsetType = msgspec.UNSET

    class _AnyResult(msgspec.Struct):
        """The result of any announced call (new_game, act, legal_moves), every field typed as there; which
        must be present is decided by the call it answers (``_answer``)."""

        accepted: bool | msgspec.UnsetType = msgspec.UNSET
        reason: str | None = None
        effect: Effect | None = None
        moves: list[str] | msgspec.UnsetType = msgspec.UNSET
        state: _State | msgspec.UnsetType = msgspec.UNSET

    class _AnyReply(_Envelope):
        result: _AnyResult | msgspec.UnsetType = msgspec.UNSET

    class _TypedBatchResult(msgspec.Struct):
        replies: list[_AnyReply]

    class _TypedBatch(_Envelope):
        result: _TypedBatchResult | msgspec.UnsetType = msgspec.UNSET

    _DECODERS: dict[str, Any] = {
        "batch-reply": msgspec.json.Decoder(_Batch),
        "typed-batch-reply": msgspec.json.Decoder(_TypedBatch),
        "act-reply": msgspec.json.Decoder(_Act),
        "new-game-reply": msgspec.json.Decoder(_Start),
        "legal-moves-reply": msgspec.json.Decoder(_Moves),
        "message-reply": msgspec.json.Decoder(_Text),
    }
    _READ_STATE = msgspec.json.Decoder(_State).decode
    _STATE_NAMES = _State.__struct_fields__
    _DECLINED: tuple[type[BaseException], ...] = (msgspec.MsgspecError, RecursionError, UnicodeDecodeError)


Line = Any  # a reply line (bytes), or one inner reply of a batch (msgspec.Raw, in a line already read)


def _result(line: Line, schema: str, seq: int | None) -> Any:
    """The typed ``result`` of a well-formed reply of kind ``schema`` to request ``seq`` (None: an inner
    reply of a batch, which has no seq), else None."""
    if not AVAILABLE:
        return None
    try:
        if isinstance(line, bytes) and not line.isascii():
            line.decode("utf-8")  # msgspec checks the strings it reads, not those of fields it skips
        reply = _DECODERS[schema].decode(line)
    except _DECLINED:
        return None
    if seq is not None and reply.seq != seq:
        return None
    if reply.skipped is not msgspec.UNSET or reply.errored is not msgspec.UNSET:
        return None
    return None if reply.result is msgspec.UNSET else reply.result


def _state(raw: Any, asked: frozenset[str] | None) -> dict[str, Any] | None:
    """The state (its raw JSON) checked as ``replies.state_of`` checks it; None where that would raise."""
    if raw is msgspec.UNSET:
        return {} if asked is not None and not asked else None
    try:
        typed = _READ_STATE(raw)  # one pass: every field known and of its type
    except _DECLINED:
        return None
    return _typed_state(typed, asked)


def _typed_state(typed: Any, asked: frozenset[str] | None) -> dict[str, Any] | None:
    """A state read into ``_State`` as a dict, or None when a field ``replies.state_of`` needs is missing."""
    if typed is msgspec.UNSET:
        return {} if asked is not None and not asked else None
    state = {name: value for name in _STATE_NAMES if (value := getattr(typed, name)) is not msgspec.UNSET}
    needed = STATE_REQUIRED if asked is None else asked.intersection(STATE_REQUIRED)
    return state if all(name in state for name in needed) else None


def act_reply(line: Line, seq: int | None, asked: frozenset[str] | None) -> Reply | None:
    """An ``act`` reply read into a Reply (``asked``: the state fields asked for, under state on demand)."""
    result = _result(line, "act-reply", seq)
    if result is None:
        return None
    state = _state(result.state, asked)
    if state is None:
        return None
    return Reply(result.accepted, result.reason, result.effect, tuple(result.moves), state)


def start_state(line: Line, seq: int | None, asked: frozenset[str] | None) -> dict[str, Any] | None:
    """A ``new_game`` reply's state."""
    result = _result(line, "new-game-reply", seq)
    return None if result is None else _state(result.state, asked)


def legal_moves(line: Line, seq: int | None, asked: frozenset[str] | None = None) -> list[str] | None:
    """A ``legal_moves`` reply's moves."""
    result = _result(line, "legal-moves-reply", seq)
    return None if result is None else list(result.moves)


def message_text(line: Line, seq: int | None, asked: frozenset[str] | None = None) -> str | None:
    """A ``message`` reply's text."""
    result = _result(line, "message-reply", seq)
    return None if result is None else str(result.text)


def batch_replies(line: bytes, seq: int, size: int) -> list[Any] | None:
    """The ``size`` inner replies of a ``batch`` reply to request ``seq``, each unread (msgspec.Raw)."""
    result = _result(line, "batch-reply", seq)
    return None if result is None or len(result.replies) != size else list(result.replies)


Called = tuple[str, "frozenset[str] | None"]  # an announced call's command and the state fields it asked for


def batch_answers(line: bytes, seq: int, calls: tuple[Called, ...]) -> list[Any] | None:
    """Every inner reply of a ``batch`` reply to request ``seq`` read into its call's answer (a Reply for
    ``act``, a state for ``new_game``, the moves for ``legal_moves``) in one typed pass of the line, each
    read as act_reply, start_state or legal_moves reads it; None when any of them is not a well-formed
    result of its call (each is then read on its own, as before). One loop, no call a reply: it runs for
    every step of the corpus."""
    result = _result(line, "typed-batch-reply", seq)
    if result is None or len(result.replies) != len(calls):
        return None
    answers: list[Any] = []
    unset = msgspec.UNSET
    for reply, (cmd, asked) in zip(result.replies, calls, strict=True):
        got = reply.result
        if got is unset or reply.skipped is not unset or reply.errored is not unset:
            return None
        if cmd == "legal_moves":
            if got.moves is unset:
                return None
            answers.append(list(got.moves))
            continue
        typed = got.state
        state = {} if typed is unset and asked is not None and not asked else _typed_state(typed, asked)
        if state is None or (cmd == "act" and got.accepted is unset):
            return None
        if cmd == "act":
            moves = () if got.moves is unset else tuple(got.moves)
            answers.append(Reply(got.accepted, got.reason, got.effect, moves, state))
        else:
            answers.append(state)
    return answers
