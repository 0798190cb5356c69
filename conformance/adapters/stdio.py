"""An implementation in any language, driven over stdin/stdout JSON lines (spec/protocol.md).

The process is started lazily and kept for the whole run. When it crashes, hangs past the timeout,
writes something that is not a reply (not UTF-8, not JSON, NaN, a lone surrogate, a line past
``max_line`` bytes), echoes the wrong ``seq`` or breaks the message schema, the request fails with
AdapterError (the scenario is recorded as errored, with what was seen), the process group is
killed, and the next game starts a fresh one. A failed handshake is not retried: every later
request fails at once with it. The pipes themselves are bounded by conformance.adapters.pipes.
"""

from __future__ import annotations

import contextlib
import functools
import json
import shlex
import subprocess
import time
from typing import Any, NoReturn

import jsonschema

from conformance.adapter import AdapterError, Info, Reply, RuleError, Skip
from conformance.adapters.handshake import PROTOCOL_VERSION, info_from_handshake
from conformance.adapters.pipes import MAX_LINE, Child, LineTooLong
from crescent_ref.spec_files import spec_dir

__all__ = ["PROTOCOL_VERSION", "StdioAdapter", "clip_context", "schema_problem"]


@functools.cache
def protocol_validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one message of spec/schema/protocol.schema.json (``$defs`` entry ``name``)."""
    folder = spec_dir() / "schema"
    schemas = {f: json.loads((folder / f).read_text("utf-8")) for f in ("protocol.schema.json", "state.schema.json")}
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    root = schemas["protocol.schema.json"]
    return jsonschema.Draft202012Validator({"$ref": f"{root['$id']}#/$defs/{name}"}, registry=registry)


def schema_problem(name: str, message: Any) -> str | None:
    """None when ``message`` is a valid ``name`` message, else the first problem."""
    error = jsonschema.exceptions.best_match(protocol_validator(name).iter_errors(message))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(top)"
    return f"{name} at {where}: {error.message[:200]}"


class StdioAdapter:
    """The adapter protocol spoken to a subprocess."""

    def __init__(
        self, command: str, timeout: float = 10.0, validate: bool = False, max_line: int = MAX_LINE
    ) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the command line is empty")
        self.timeout = timeout
        self.validate = validate
        self.max_line = max_line
        self.seq = 0
        self.process: Child | None = None
        self._info: Info | None = None
        self._broken: AdapterError | None = None
        self.restarts = 0

    def info(self) -> Info:
        """The handshake's answer (starting the process if needed)."""
        self._ensure()
        assert self._info is not None
        return self._info

    def _ensure(self) -> Child:
        """The running process, started (and shaken hands with) when needed.

        A failed handshake is remembered: every later request fails at once with the same fault.
        """
        if self._broken is not None:
            raise AdapterError(self._broken.message, self._broken.context)
        if self.process is not None and self.process.proc.poll() is None:
            return self.process
        if self.process is not None:
            self.process.kill()
            self.restarts += 1
        try:
            self.process = Child(self.argv, self.max_line)
        except (OSError, ValueError) as err:
            self.process = None
            self._broken = AdapterError(f"cannot start {shlex.join(self.argv)}: {err}")
            raise self._broken from None
        try:
            self._handshake(self.process)
        except AdapterError as err:
            self._broken = AdapterError(f"handshake failed: {err.message}", err.context)
            raise self._broken from None
        return self.process

    def _handshake(self, process: Child) -> None:
        deadline = time.monotonic() + self.timeout
        self._send(process, {"cmd": "start", "version": PROTOCOL_VERSION}, deadline)
        reply = self._read(process, "start-reply", None, deadline)
        try:
            self._info = info_from_handshake(reply)
        except AdapterError as err:
            self._fail(process, str(err))

    def _fail(self, process: Child, what: str, seen: str | bytes = "") -> NoReturn:
        process.kill()
        tail = process.stderr.text()
        context = (f"seen on stdout: {seen[:300]!r}\n" if seen else "") + (f"stderr tail:\n{tail}" if tail else "")
        code = process.proc.returncode
        raise AdapterError(f"implementation {shlex.join(self.argv)}: {what} (exit code {code})", context.rstrip())

    def _send(self, process: Child, message: dict[str, Any], deadline: float) -> None:
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            process.send(data, deadline)
        except TimeoutError:
            self._fail(process, f"did not read its input within {self.timeout:g}s (hang)")
        except OSError:
            process.proc.wait()
            self._fail(process, "stopped reading its input (crash)")

    def _read(self, process: Child, schema: str, seq: int | None, deadline: float) -> dict[str, Any]:
        try:
            line = process.receive(deadline)
        except TimeoutError:
            self._fail(process, f"no reply within {self.timeout:g}s (hang)", bytes(process.pending[:300]))
        except LineTooLong as err:
            self._fail(process, f"wrote {err} (raise the limit with --max-line)", bytes(process.pending[:300]))
        if line is None:
            process.kill()
            self._fail(process, "exited (crash)" if process.proc.returncode else "closed its output")
        reply = self._parse(process, line)
        if seq is not None and reply.get("seq") != seq:
            self._fail(process, f"replied with seq {reply.get('seq')!r} to request seq {seq}", line)
        problem = schema_problem(schema, reply) if self.validate or not _looks_right(schema, reply) else None
        if problem:
            self._fail(process, f"reply breaks the protocol schema: {problem}", line)
        return reply

    def _parse(self, process: Child, line: bytes) -> dict[str, Any]:
        reply, fault = parse_line(line)
        if fault:
            self._fail(process, fault, line)
        assert reply is not None
        return reply

    def _request(self, message: dict[str, Any], schema: str) -> dict[str, Any]:
        process = self._ensure()
        self.seq += 1
        message = {**message, "seq": self.seq}
        deadline = time.monotonic() + self.timeout
        self._send(process, message, deadline)
        reply = self._read(process, schema, self.seq, deadline)
        if "skipped" in reply:
            raise Skip(str(reply["skipped"].get("message", "")))
        if "errored" in reply:
            err = reply["errored"]
            if err.get("refused"):
                raise RuleError(str(err.get("message", "")))
            context = clip_context(err.get("context", ""))
            raise AdapterError(f"implementation errored: {err.get('message', '')}", context)
        result: dict[str, Any] = reply["result"]
        return result

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start a game."""
        given = {"code": code} if code else {"position": position}
        state: dict[str, Any] = self._request({"cmd": "new_game", "profile": profile, **given}, "new-game-reply")[
            "state"
        ]
        return state

    def act(self, action: str) -> Reply:
        """Apply an action."""
        r = self._request({"cmd": "act", "action": action}, "act-reply")
        return Reply(bool(r["accepted"]), r.get("reason"), r.get("effect"), tuple(r.get("moves", ())), r["state"])

    def legal_moves(self) -> list[str]:
        """The legal card moves."""
        return list(self._request({"cmd": "legal_moves"}, "legal-moves-reply")["moves"])

    def message(self, reason: str, lang: str) -> str:
        """The message text for a reason code."""
        return str(self._request({"cmd": "message", "reason": reason, "lang": lang}, "message-reply")["text"])

    def close(self) -> None:
        """Ask the process to stop, give it a moment (at most 2 s) to exit, then kill its whole group."""
        process, self.process = self.process, None
        if process is None:
            return
        grace = min(2.0, self.timeout)
        if process.proc.poll() is None:
            with contextlib.suppress(OSError, TimeoutError):
                process.send(b'{"cmd": "stop"}\n', time.monotonic() + grace)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.proc.wait(timeout=grace)
        process.kill()


class _NonFinite(ValueError):
    """NaN or an infinity in a reply (not JSON, though Python's json module reads it)."""


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


def parse_line(line: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """A reply line read strictly: UTF-8, JSON without NaN or Infinity, no lone surrogates, an object.

    Returns the object and None, or None and the fault in words.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, f"wrote bytes that are not UTF-8 (byte {err.start} of the line)"
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except _NonFinite as err:
        return None, f"wrote {err} in a reply, which JSON does not allow"
    except (ValueError, RecursionError):
        return None, "wrote a line that is not JSON (garbage)"
    if not isinstance(value, dict):
        return None, "wrote JSON that is not an object"
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, "wrote a string holding a lone surrogate (an escape like \\ud800 that is no character)"
    return value, None


_KINDS = ("result", "skipped", "errored")


def clip_context(context: Any, head: int = 300, tail: int = 1200) -> str:
    """An errored reply's context for the report: its start and its end (a traceback's last line names the
    exception), the middle left out when it is long."""
    text = context if isinstance(context, str) else json.dumps(context, ensure_ascii=False)
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[... {len(text) - head - tail} characters left out ...]\n{text[-tail:]}"


def _looks_right(schema: str, reply: dict[str, Any]) -> bool:
    """A cheap envelope check; anything odd gets the full schema check for a precise message."""
    if schema == "start-reply":
        return isinstance(reply.get("implementation"), dict)
    if sum(k in reply for k in _KINDS) != 1:
        return False
    result = reply.get("result")
    if result is None:
        return True
    if schema == "act-reply":
        return (
            isinstance(result, dict)
            and isinstance(result.get("accepted"), bool)
            and isinstance(result.get("state"), dict)
        )
    if schema == "new-game-reply":
        return isinstance(result, dict) and isinstance(result.get("state"), dict)
    return isinstance(result, dict)
