"""A misbehaving stdio implementation: crescent_ref's Server with one fault, for the runner's tests.

Usage: ``python fake_engine.py MODE N FLAG``. The process answers like ``crescent-ref serve``
except once: at the Nth ``act`` (or, for ``refuse`` and ``skip``, the Nth ``new_game``) of a
process, and only while the file FLAG does not exist, it creates FLAG and misbehaves as MODE says.
A restarted process finds FLAG and behaves, so only one scenario of a run is affected.

Modes: crash (a line on stderr, exit 3), hang (sleep 60 s), garbage (a non-JSON line instead of
the reply), wrong-seq, bad-schema (``accepted`` as a string), stdout-log (a log line on stdout
before the reply), refuse (``errored`` with ``refused: true``), skip (``skipped``).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from crescent_ref.serve import Server

ACT_FAULTS = ("crash", "hang", "garbage", "wrong-seq", "bad-schema", "stdout-log")
START_FAULTS = ("refuse", "skip")
MODES = ACT_FAULTS + START_FAULTS


def say(text: str) -> None:
    """Write one line on stdout."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def misbehave(mode: str, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
    """The faulty reply for ``mode`` (None: nothing more to write)."""
    if mode == "crash":
        print("fake-engine: crashing on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "hang":
        time.sleep(60)
    if mode == "garbage":
        say("%%% this is no JSON %%%")
        return None
    if mode == "stdout-log":
        say(f"fake-engine log: applying {request.get('action')}")
        return reply
    return _bent(mode, request, reply)


def _bent(mode: str, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
    seq = request.get("seq")
    if mode == "wrong-seq":
        return {**reply, "seq": int(seq or 0) + 1000}
    if mode == "bad-schema":
        return {**reply, "result": {**reply["result"], "accepted": "yes"}}
    if mode == "refuse":
        return {"seq": seq, "errored": {"message": "the fake refuses this position", "refused": True}}
    return {"seq": seq, "skipped": {"message": "the fake does not play this one"}}


def serve(mode: str, nth: int, flag: Path) -> int:
    """Answer requests on stdin until ``stop``, with the one fault."""
    server, seen = Server(), Counter[str]()
    trigger = "new_game" if mode in START_FAULTS else "act"
    for line in sys.stdin:
        request = json.loads(line)
        seen[str(request.get("cmd"))] += 1
        reply = server.handle(request)
        if reply is None:
            return 0
        if request.get("cmd") == trigger and seen[trigger] == nth and not flag.exists():
            flag.touch()
            reply = misbehave(mode, request, reply)
        if reply is not None:
            say(json.dumps(reply, ensure_ascii=False))
    return 0


def main(argv: list[str]) -> int:
    """Entry point: MODE N FLAG."""
    mode, nth, flag = argv[1], int(argv[2]), Path(argv[3])
    if mode not in MODES:
        print(f"fake_engine: unknown mode {mode!r}; known: {', '.join(MODES)}", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    return serve(mode, nth, flag)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
