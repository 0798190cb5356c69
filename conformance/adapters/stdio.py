"""An implementation in any language, driven over stdin/stdout JSON lines (spec/protocol.md).

The process is started lazily and kept for the whole run. When it crashes, hangs past the timeout,
writes something that is not a reply, echoes the wrong ``seq`` or breaks the message schema, the
request fails with AdapterError (the scenario is recorded as errored, with what was seen), the
process is killed, and the next game starts a fresh one.
"""

from __future__ import annotations

import collections
import functools
import json
import os
import select
import shlex
import subprocess
import threading
import time
from typing import Any

import jsonschema

from conformance.adapter import AdapterError, Info, Reply, RuleError, Skip
from crescent_ref.spec_files import spec_dir

PROTOCOL_VERSION = 1


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


class _Process:
    """A running implementation: stdout read here with select (no thread), stderr's tail kept by a thread."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        self.buffer = b""
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.proc.stdin.fileno(), data) :]

    def receive(self, timeout: float) -> str | None:
        """The next stdout line; None at end of output; raises TimeoutError after ``timeout`` seconds."""
        assert self.proc.stdout is not None
        fd, deadline = self.proc.stdout.fileno(), time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if not select.select([fd], [], [], max(deadline - time.monotonic(), 0))[0]:
                raise TimeoutError
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class StdioAdapter:
    """The adapter protocol spoken to a subprocess."""

    def __init__(self, command: str, timeout: float = 10.0, validate: bool = False) -> None:
        self.argv = shlex.split(command)
        self.timeout = timeout
        self.validate = validate
        self.seq = 0
        self.process: _Process | None = None
        self._info: Info | None = None
        self.restarts = 0

    def info(self) -> Info:
        """The handshake's answer (starting the process if needed)."""
        self._ensure()
        assert self._info is not None
        return self._info

    def _ensure(self) -> _Process:
        if self.process is not None and self.process.proc.poll() is None:
            return self.process
        if self.process is not None:
            self.restarts += 1
        try:
            self.process = _Process(self.argv)
        except OSError as err:
            raise AdapterError(f"cannot start {shlex.join(self.argv)}: {err}") from None
        self._handshake(self.process)
        return self.process

    def _handshake(self, process: _Process) -> None:
        try:
            process.send({"cmd": "start", "version": PROTOCOL_VERSION})
        except OSError:
            process.proc.wait()
            self._fail(process, "exited before the handshake (crash)")
        reply = self._read(process, "start-reply", None)
        if reply.get("version") != PROTOCOL_VERSION:
            self._fail(process, f"protocol version {reply.get('version')!r}, expected {PROTOCOL_VERSION}")
        impl = reply.get("implementation") or {}
        self._info = Info(
            name=str(impl.get("name", "?")),
            version=str(impl.get("version", "?")),
            language=str(impl.get("language", "?")),
            profiles=tuple(impl.get("profiles", ())),
            variants=tuple(impl.get("variants", ())),
            capabilities=frozenset(impl.get("capabilities", ())),
            languages=tuple(impl.get("languages", ())),
        )

    def _fail(self, process: _Process, what: str, seen: str = "") -> None:
        process.kill()
        tail = "\n".join(process.stderr)
        context = (f"seen on stdout: {seen[:300]!r}\n" if seen else "") + (f"stderr tail:\n{tail}" if tail else "")
        code = process.proc.returncode
        raise AdapterError(f"implementation {shlex.join(self.argv)}: {what} (exit code {code})", context.rstrip())

    def _read(self, process: _Process, schema: str, seq: int | None) -> dict[str, Any]:
        try:
            line = process.receive(self.timeout)
        except TimeoutError:
            self._fail(process, f"no reply within {self.timeout:g}s (hang)")
            raise AssertionError("unreachable") from None
        if line is None:
            process.proc.wait()
            self._fail(process, "exited (crash)" if process.proc.returncode else "closed its output")
        assert line is not None
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            self._fail(process, "wrote a line that is not JSON (garbage)", line)
        if not isinstance(reply, dict):
            self._fail(process, "wrote JSON that is not an object", line)
        if seq is not None and reply.get("seq") != seq:
            self._fail(process, f"replied with seq {reply.get('seq')!r} to request seq {seq}", line)
        problem = schema_problem(schema, reply) if self.validate or not _looks_right(schema, reply) else None
        if problem:
            self._fail(process, f"reply breaks the protocol schema: {problem}", line)
        result: dict[str, Any] = reply
        return result

    def _request(self, message: dict[str, Any], schema: str) -> dict[str, Any]:
        process = self._ensure()
        self.seq += 1
        message = {**message, "seq": self.seq}
        try:
            process.send(message)
        except (BrokenPipeError, OSError):
            self._fail(process, "stopped reading its input (crash)")
        reply = self._read(process, schema, self.seq)
        if "skipped" in reply:
            raise Skip(reply["skipped"].get("message", ""))
        if "errored" in reply:
            err = reply["errored"]
            if err.get("refused"):
                raise RuleError(err.get("message", ""))
            raise AdapterError(
                f"implementation errored: {err.get('message', '')}", json.dumps(err.get("context", ""))[:500]
            )
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
        """Ask the process to stop; kill it if it lingers."""
        if self.process is None:
            return
        try:
            self.process.send({"cmd": "stop"})
            self.process.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.process.kill()
        self.process = None


_KINDS = ("result", "skipped", "errored")


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
