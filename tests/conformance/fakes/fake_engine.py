"""A misbehaving stdio implementation: crescent_ref's Server with one fault, for the runner's tests.

Usage: ``python fake_engine.py MODE N FLAG``. The process answers like ``crescent-ref serve``
except once: at the Nth ``act`` (or, for ``refuse`` and ``skip``, the Nth ``new_game``; for the
``hs-`` modes, the handshake) of a process, and only while the file FLAG does not exist, it
creates FLAG and misbehaves as MODE says. A restarted process finds FLAG and behaves, so only one
scenario of a run is affected. Every start appends the process id to FLAG + ``.starts``.

``MODES`` maps every mode to what it does; the hostile-adapter tests take their list from it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crescent_ref.serve import Server

Request = dict[str, Any]
Fault = Callable[[Request, dict[str, Any]], "dict[str, Any] | bytes | None"]


def say(data: str | bytes) -> None:
    """Write one line on stdout (bytes as they are)."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    sys.stdout.buffer.write(raw + b"\n")
    sys.stdout.buffer.flush()


def crash(request: Request, reply: dict[str, Any]) -> None:
    print("fake-engine: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


def exit_quietly(request: Request, reply: dict[str, Any]) -> None:
    os._exit(0)


def hang(request: Request, reply: dict[str, Any]) -> None:
    time.sleep(60)


def endless(request: Request, reply: dict[str, Any]) -> None:
    """Output without a newline, forever."""
    block = b"x" * 65536
    while True:
        sys.stdout.buffer.write(block)
        sys.stdout.buffer.flush()


def trickle(request: Request, reply: dict[str, Any]) -> None:
    """A byte every 50 ms and never a newline: the deadline must hold while data streams in."""
    while True:
        sys.stdout.buffer.write(b"{")
        sys.stdout.buffer.flush()
        time.sleep(0.05)


def huge_stderr(request: Request, reply: dict[str, Any]) -> dict[str, Any]:
    """20 MB on stderr, then the right reply (a chatty implementation is no fault)."""
    line = b"fake-engine chatter " + b"." * 1000 + b"\n"
    for _ in range(20_000):
        sys.stderr.buffer.write(line)
    sys.stderr.buffer.write(b"fake-engine: last words\n")
    sys.stderr.buffer.flush()
    return reply


def orphan(request: Request, reply: dict[str, Any]) -> None:
    """Start a grandchild that sleeps (its pid in FLAG.orphan), then crash."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdout=subprocess.DEVNULL)
    Path(sys.argv[3] + ".orphan").write_text(str(child.pid))
    os._exit(3)


def pipe_held(request: Request, reply: dict[str, Any]) -> None:
    """Start a grandchild that keeps stdout and stderr open, then exit."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    os._exit(4)


def half_line(request: Request, reply: dict[str, Any]) -> None:
    """Half a reply, no newline, and exit."""
    sys.stdout.buffer.write(b'{"seq": 1, "res')
    sys.stdout.buffer.flush()
    os._exit(5)


def stderr_flood(request: Request, reply: dict[str, Any]) -> None:
    """20 MB on stderr, then a crash: the report keeps only the tail."""
    huge_stderr(request, reply)
    os._exit(3)


def close_stdin(request: Request, reply: dict[str, Any]) -> None:
    """Answer, then close stdin and live on: the next request meets a closed pipe, no exit."""
    say(json.dumps(reply, ensure_ascii=False))
    os.close(0)
    time.sleep(60)


def exit_between(request: Request, reply: dict[str, Any]) -> None:
    """Answer, then exit at once (between two requests)."""
    say(json.dumps(reply, ensure_ascii=False))
    os._exit(0)


def _line(data: bytes) -> Fault:
    def fault(request: Request, reply: dict[str, Any]) -> bytes:
        return data.replace(b"SEQ", json.dumps(request.get("seq")).encode())

    return fault


def _bent(change: Callable[[Request, dict[str, Any]], dict[str, Any]]) -> Fault:
    def fault(request: Request, reply: dict[str, Any]) -> dict[str, Any]:
        return change(request, reply)

    return fault


def stdout_log(request: Request, reply: dict[str, Any]) -> dict[str, Any]:
    say(f"fake-engine log: applying {request.get('action')}")
    return reply


MODES: dict[str, Fault] = {
    "crash": crash,
    "exit-0": exit_quietly,
    "hang": hang,
    "garbage": _line(b"%%% this is no JSON %%%"),
    "wrong-seq": _bent(lambda q, r: {**r, "seq": int(q.get("seq") or 0) + 1000}),
    "bad-schema": _bent(lambda q, r: {**r, "result": {**r["result"], "accepted": "yes"}}),
    "stdout-log": stdout_log,
    "not-object": _line(b"[1, 2, 3]"),
    "nan": _line(b'{"seq": SEQ, "result": {"accepted": NaN, "state": {}}}'),
    "infinity": _line(b'{"seq": SEQ, "result": {"accepted": true, "score": -Infinity, "state": {}}}'),
    "lone-surrogate": _line(b'{"seq": SEQ, "result": {"accepted": true, "reason": "\\ud800", "state": {}}}'),
    "non-utf8": _line(b'{"seq": SEQ, "result": {"accepted": true, "reason": "\xff\xfe", "state": {}}}'),
    "deep": _line(b"[" * 100_000 + b"]" * 100_000),
    "huge-line": _line(b'{"seq": SEQ, "pad": "' + b"y" * (2 << 20) + b'"}'),
    "endless": endless,
    "trickle": trickle,
    "half-line": half_line,
    "huge-stderr": huge_stderr,
    "stderr-flood": stderr_flood,
    "orphan": orphan,
    "pipe-held": pipe_held,
    "refuse": _bent(
        lambda q, r: {"seq": q.get("seq"), "errored": {"message": "the fake refuses this position", "refused": True}}
    ),
    "skip": _bent(lambda q, r: {"seq": q.get("seq"), "skipped": {"message": "the fake does not play this one"}}),
    "close-stdin": close_stdin,
    "exit-between": exit_between,
    "seq-float": _line(b'{"seq": SEQ.0, "result": {"accepted": true, "state": {}}}'),
    "seq-true": _bent(lambda q, r: {**r, "seq": True}),
    "result-null": _bent(lambda q, r: {"seq": q.get("seq"), "result": None}),
    "moves-int": _bent(lambda q, r: {**r, "result": {**r["result"], "moves": 5}}),
    "state-null": _bent(lambda q, r: {**r, "result": {**r["result"], "state": None}}),
    "status-int": _bent(lambda q, r: {**r, "result": {**r["result"], "state": {**r["result"].get("state", {}),
                                                                              "status": 7}}}),
    "errored-int": _bent(lambda q, r: {"seq": q.get("seq"), "errored": 7}),
    "skipped-not-string": _bent(lambda q, r: {"seq": q.get("seq"), "skipped": {"message": ["no"]}}),
    "errored-act": _bent(lambda q, r: {"seq": q.get("seq"), "errored": {"message": "the fake fails here",
                                                                        "refused": True}}),
    "ansi-error": _bent(lambda q, r: {"seq": q.get("seq"), "errored": {"message": "\x1b[2J\x1b[32mall passed"}}),
    "legal-objects": _bent(lambda q, r: {**r, "result": {"moves": [{"from": "p1"}]}}),
}
LEGAL_FAULTS = ("legal-objects",)
START_FAULTS = ("refuse", "skip")
HANDSHAKE = {
    "hs-" + name: MODES[name]
    for name in ("crash", "exit-0", "hang", "garbage", "not-object", "nan", "non-utf8", "endless", "pipe-held")
}
HANDSHAKE["hs-version"] = _bent(lambda q, r: {**r, "version": 99})
HANDSHAKE["hs-version-true"] = _bent(lambda q, r: {**r, "version": True})
HANDSHAKE["hs-profiles-string"] = _bent(
    lambda q, r: {**r, "implementation": {**r["implementation"], "profiles": "app"}}
)
HANDSHAKE["hs-profiles-int"] = _bent(lambda q, r: {**r, "implementation": {**r["implementation"], "profiles": 7}})
HANDSHAKE["hs-capabilities-null"] = _bent(
    lambda q, r: {**r, "implementation": {**r["implementation"], "capabilities": None}}
)
MODES.update(HANDSHAKE)
# not a fault: a name holding terminal escapes, which must be shown escaped and never obeyed
MODES["hs-ansi-name"] = _bent(
    lambda q, r: {**r, "implementation": {**r["implementation"], "name": "\x1b[2J\x1b[32m749 passed\x1b[0m"}}
)
HANDSHAKE["hs-no-implementation"] = _bent(lambda q, r: {"version": 1})
MODES.update(HANDSHAKE)


def trigger(mode: str) -> str:
    """The request a mode faults on."""
    if mode.startswith("hs-"):
        return "start"
    return "new_game" if mode in START_FAULTS else "legal_moves" if mode in LEGAL_FAULTS else "act"


def _without_batch(reply: dict[str, Any] | bytes) -> dict[str, Any] | bytes:
    """The handshake reply without the capability ``batch``."""
    if not isinstance(reply, dict):
        return reply
    impl = reply["implementation"]
    return {**reply, "implementation": {**impl, "capabilities": [c for c in impl["capabilities"] if c != "batch"]}}


def serve(mode: str, nth: int, flag: Path) -> int:
    """Answer requests on stdin until ``stop``, with the one fault."""
    server, seen = Server(), Counter[str]()
    for line in sys.stdin:
        request = json.loads(line)
        seen[str(request.get("cmd"))] += 1
        reply: dict[str, Any] | bytes | None = server.handle(request)
        if reply is None:
            return 0
        if request.get("cmd") == "start":  # one request a line: the faults are counted by request
            reply = _without_batch(reply)
        if request.get("cmd") == trigger(mode) and seen[trigger(mode)] == nth and not flag.exists():
            flag.touch()
            assert isinstance(reply, dict)
            reply = MODES[mode](request, reply)
        if isinstance(reply, bytes):
            say(reply)
        elif reply is not None:
            say(json.dumps(reply, ensure_ascii=False))
    return 0


def main(argv: list[str]) -> int:
    """Entry point: MODE N FLAG."""
    mode, nth, flag = argv[1], int(argv[2]), Path(argv[3])
    if mode not in MODES:
        print(f"fake_engine: unknown mode {mode!r}; known: {', '.join(MODES)}", file=sys.stderr)
        return 2
    with open(str(flag) + ".starts", "a", encoding="utf-8") as starts:
        starts.write(f"{os.getpid()}\n")
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    return serve(mode, nth, flag)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
