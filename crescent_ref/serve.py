"""``crescent-ref serve``: the reference engine over the stdio adapter protocol (spec/protocol.md).

One JSON object a line on stdin, one reply a line on stdout; logs go to stderr only. Every request
line gets a reply: a malformed one (not UTF-8, not JSON, not an object, an unknown command, a field
missing or of the wrong type, an unknown profile) is answered with ``errored``, as spec/protocol.md
says; a position or game code that is not valid with ``errored`` and ``refused: true``.

Lines are read and written by msgspec's C codec when it is installed (a dependency of the kit); a
request it declines (NaN, a lone surrogate's escape, bytes that are not UTF-8, a number out of
range, a deep nest, garbage) is read again by the standard library, which accepts what it accepts
and words the ``errored`` reply, so the codec changes the speed only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

import crescent_ref
from crescent_ref.errors import CrescentError, NotationError, quoted
from crescent_ref.game import Game
from crescent_ref.messages import LANGUAGES, message
from crescent_ref.profiles import base_names, get_profile, variant_names
from crescent_ref.state_json import game_state, state_fields

try:
    import msgspec
except ImportError:  # pragma: no cover - a dependency; the standard library path below still serves
    msgspec = None  # type: ignore[assignment]

PROTOCOL_VERSION = 3
CAPABILITIES = ["undo", "tap", "drop", "game-codes", "legal-moves", "selection", "messages"]
OBSERVATIONS = ["reasons", "waiting", "undo-count", "effect", "card-moves", "move-count", "reshuffle-count", "lost"]
ON_DEMAND = "state-on-demand"  # a request's "state": [field, ...] asks for only those fields
BATCH = "batch"  # {"cmd": "batch", "requests": [...]} is answered {"replies": [...]}, one per request
Reply = dict[str, Any]


def hello() -> Reply:
    """The handshake reply."""
    return {
        "version": PROTOCOL_VERSION,
        "implementation": {
            "name": "crescent_ref",
            "version": crescent_ref.__version__,
            "language": "python",
            "profiles": base_names(),
            "variants": variant_names(),
            "capabilities": CAPABILITIES + OBSERVATIONS + [ON_DEMAND, BATCH],
            "languages": list(LANGUAGES),
        },
    }


class Server:
    """Holds the current game between requests."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.handlers: dict[str, Callable[[dict[str, Any]], Reply]] = {
            "new_game": self._new_game,
            "act": self._act,
            "legal_moves": self._legal_moves,
            "message": self._message,
            "batch": self._batch,
        }

    def handle(self, request: Any) -> Reply | None:
        """The reply to one request (None for ``stop``); a malformed request gets ``errored``."""
        if not isinstance(request, dict):
            return errored(None, f"a request is a JSON object, not {type(request).__name__}")
        cmd, seq = request.get("cmd"), request.get("seq")
        if cmd == "start":
            return hello()
        if cmd == "stop":
            return None
        return {"seq": seq, **self.outcome(cmd, request)}

    def outcome(self, cmd: Any, request: dict[str, Any]) -> Reply:
        """A request's reply without its seq: ``{"result": ...}``, or ``{"errored": ...}`` for an unknown
        command or a request the engine refuses (a position or code that is not valid: ``refused``)."""
        handler = self.handlers.get(cmd) if isinstance(cmd, str) else None
        if handler is None:
            return _errored(f"unknown command {quoted(repr(cmd))}")
        try:
            return {"result": handler(request)}
        except NotationError as err:
            return _errored(str(err), refused=cmd == "new_game" and err.kind in REFUSABLE)
        except CrescentError as err:
            return _errored(f"{type(err).__name__}: {err}")

    def _new_game(self, req: dict[str, Any]) -> Reply:
        profile = _text(req, "profile")
        _wanted(req)  # a bad "state" field is refused before the game changes
        get_profile(profile)  # an unknown profile is no refused position
        if req.get("code") is not None:
            self.game = Game.deal(profile, _text(req, "code"))
        else:
            self.game = Game.from_text(profile, _text(req, "position"))
        return _with_state({}, self.game, req)

    def _current(self) -> Game:
        if self.game is None:
            raise CrescentError("no game: send new_game first")
        return self.game

    def _act(self, req: dict[str, Any]) -> Reply:
        """An action's outcome and the state asked for (the path of nearly every request: no call it can
        spare; the checks are _current's, _wanted's and _text's)."""
        game = self.game if self.game is not None else self._current()
        wanted = _wanted(req)  # read before the action: a bad field changes nothing
        action = req.get("action")
        out = game.apply(action if isinstance(action, str) else _text(req, "action"))
        moves = [str(m) for m in out.moves]
        reply: Reply = {"accepted": out.accepted, "reason": out.reason, "effect": out.effect, "moves": moves}
        if wanted is None:
            reply["state"] = game_state(game)
        elif wanted:
            reply["state"] = state_fields(game, wanted)
        return reply

    def _legal_moves(self, req: dict[str, Any]) -> Reply:
        return {"moves": [str(m) for m in self._current().legal_moves()]}

    def _message(self, req: dict[str, Any]) -> Reply:
        return {"text": message(_text(req, "reason"), _text(req, "lang"))}

    def _batch(self, req: dict[str, Any]) -> Reply:
        """The replies to a batch's requests, in order, each as if sent alone (without its seq)."""
        requests = req.get("requests")
        if not isinstance(requests, list):
            raise RequestError(f"field 'requests' must be a list of requests, got {quoted(json.dumps(requests))}")
        return {"replies": [self._inner(request) for request in requests]}

    def _inner(self, request: Any) -> Reply:
        """One request of a batch answered as if sent alone, without its seq."""
        if not isinstance(request, dict):
            return _errored(f"a request is a JSON object, not {type(request).__name__}")
        cmd = request.get("cmd")
        if cmd in ("start", "stop", "batch"):
            return _errored(f"{quoted(repr(cmd))} cannot be sent inside a batch")
        try:
            return self.outcome(cmd, request)
        except BUGS as err:
            return _errored(_bug(err))


def _wanted(req: dict[str, Any]) -> list[str] | None:
    """The state fields a request asks for (``"state": [...]``, state on demand), None for the whole state."""
    names = req.get("state", _ABSENT)
    if names is _ABSENT:
        return None
    if isinstance(names, list) and (not names or all(isinstance(n, str) for n in names)):
        return names
    raise RequestError(f"field 'state' must be a list of state field names, got {quoted(json.dumps(names))}")


_ABSENT = object()


def _with_state(reply: Reply, game: Game, req: dict[str, Any], wanted: list[str] | None = None) -> Reply:
    """``reply`` with the state the request asked for: all of it, only some fields, or none (``[]``)."""
    names = _wanted(req) if wanted is None else wanted
    if names is None:
        reply["state"] = game_state(game)
    elif names:
        reply["state"] = state_fields(game, names)
    return reply


REFUSABLE = ("position", "game code", "card", "place")  # what a new_game's position or code may fail as


class RequestError(CrescentError):
    """A request the server cannot read (a field missing or of the wrong type, an unknown name)."""


def _text(req: dict[str, Any], name: str) -> str:
    value = req.get(name)
    if not isinstance(value, str):
        raise RequestError(f"field {name!r} must be a string, got {quoted(json.dumps(value))}")
    return value


def errored(seq: Any, text: str, refused: bool = False) -> Reply:
    """An ``errored`` reply."""
    return {"seq": seq, **_errored(text, refused)}


def _errored(text: str, refused: bool = False) -> Reply:
    """An ``errored`` reply without its seq (as inside a batch)."""
    body: dict[str, Any] = {"message": text}
    if refused:
        body["refused"] = True
    return {"errored": body}


def read_request(raw: bytes) -> tuple[Any, Reply | None]:
    """A request line read strictly (UTF-8, JSON, no NaN); the second value is the errored reply if not."""
    if _QUICK_DECODE is not None:
        try:
            return _QUICK_DECODE(raw), None
        except _DECLINED:
            pass  # read again below, which words the fault (or reads what the standard library accepts)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, errored(None, f"the request is not UTF-8 (byte {err.start})")
    try:
        return json.loads(text, parse_constant=_no_constant), None
    except (ValueError, RecursionError) as err:
        return None, errored(None, f"the request is not JSON: {quoted(text.strip())}: {str(err)[:100]}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def reply_line(reply: Reply) -> bytes:
    """One reply as a JSON line in UTF-8 (lone surrogates echoed from a request's escapes as U+FFFD)."""
    if _QUICK_ENCODE is not None:
        try:
            return _QUICK_ENCODE(reply) + b"\n"
        except (UnicodeEncodeError, OverflowError, TypeError):
            pass  # a lone surrogate echoed: replaced below
    return encoded(json.dumps(reply, ensure_ascii=False)) + b"\n"


if msgspec is not None:
    _QUICK_DECODE: Callable[[bytes], Any] | None = msgspec.json.Decoder().decode
    _QUICK_ENCODE: Callable[[Reply], bytes] | None = msgspec.json.Encoder().encode
    _DECLINED: tuple[type[BaseException], ...] = (msgspec.MsgspecError, RecursionError)
else:  # pragma: no cover
    _QUICK_DECODE = _QUICK_ENCODE = None
    _DECLINED = ()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer requests until ``stop`` or end of input; every line gets a reply (malformed: ``errored``).

    The requests that have arrived together (a runner pipelining a scenario) are answered together:
    their replies go out in one write, flushed before the next wait for input.
    """
    server, pending = Server(), b""
    while chunk := _read_some(stdin):
        *lines, pending = (pending + chunk).split(b"\n")
        replies, stopped = _answer_all(server, lines)
        if replies:
            stdout.write(b"".join(replies))
            stdout.flush()
        if stopped:
            return 0
    if pending.strip():
        replies, _ = _answer_all(server, [pending])
        stdout.write(b"".join(replies))
        stdout.flush()
    return 0


def _read_some(stdin: IO[bytes]) -> bytes:
    """What has arrived on ``stdin`` (waiting only when nothing has); b"" at its end."""
    read1 = getattr(stdin, "read1", None)
    return bytes(read1(1 << 16) if read1 is not None else stdin.readline())


def _answer_all(server: Server, lines: list[bytes]) -> tuple[list[bytes], bool]:
    """The reply lines to ``lines`` in order, and whether a ``stop`` came (lines after it are not read)."""
    replies: list[bytes] = []
    for raw in lines:
        if not raw.strip():
            continue
        request, reply = read_request(raw)
        if reply is None:
            reply = _answer(server, request)
            if reply is None:
                return replies, True
        replies.append(reply_line(reply))
    return replies, False


def _answer(server: Server, request: Any) -> Reply | None:
    try:
        return server.handle(request)
    except BUGS as err:
        seq = request.get("seq") if isinstance(request, dict) else None
        return errored(seq, _bug(err))


BUGS = (RecursionError, MemoryError, ValueError, TypeError, KeyError, AttributeError)  # the server's own faults


def _bug(err: BaseException) -> str:
    """Say on stderr what went wrong inside the server; the words of its ``errored`` reply."""
    print(f"crescent-ref serve: {type(err).__name__} on a request: {err}", file=sys.stderr)
    return f"the server could not handle this request: {type(err).__name__}"


def encoded(text: str) -> bytes:
    """``text`` in UTF-8, lone surrogates (from a request's escapes) replaced by U+FFFD (one pass when none)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return clean(text).encode("utf-8")


def clean(text: str) -> str:
    """``text`` with lone surrogates (from a request's escapes) replaced by U+FFFD."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def main() -> int:
    """Serve on the process's stdin and stdout (bytes, UTF-8 checked per line)."""
    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    raise SystemExit(main())
