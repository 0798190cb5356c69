"""A stdio implementation that faults on every game, or on every game of one kind: for the give-up rule.

Usage: ``python doomed_engine.py MODE STARTS``. Every start appends a line to the file STARTS. The
handshake is answered as ``crescent-ref serve`` answers it (without ``batch``, so each request is a
line); then, by MODE:

- ``hang``: no reply to any request;
- ``crash``: exits with code 3 at the first request;
- ``positions``: exits with code 3 at a ``new_game`` given a position text, and answers the rest
  (a game code's deal among them) as the reference does;
- ``refusing``: the same, but a game code is refused (``errored`` with ``refused``);
- ``acts``: starts every game, then hangs on every action.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from crescent_ref.serve import Server


def doomed(mode: str, request: dict[str, object]) -> bool:
    """Whether MODE faults on this request."""
    if mode == "acts":
        return request.get("cmd") == "act"
    return mode in ("hang", "crash") or (request.get("cmd") == "new_game" and "position" in request)


def refused(mode: str, request: dict[str, object]) -> bool:
    """Whether MODE refuses this request (a game code's deal, in ``refusing``)."""
    return mode == "refusing" and request.get("cmd") == "new_game" and "code" in request


def main(mode: str, starts: Path) -> int:
    with starts.open("a") as log:
        log.write(f"{os.getpid()}\n")
    server = Server()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") != "start" and doomed(mode, request):
            if mode in ("hang", "acts"):
                time.sleep(60)
            os._exit(3)
        if refused(mode, request):
            message = {"message": "this fake deals no codes", "refused": True}
            sys.stdout.write(json.dumps({"seq": request.get("seq"), "errored": message}) + "\n")
            sys.stdout.flush()
            continue
        reply = server.handle(request)
        if reply is None:
            return 0
        if request.get("cmd") == "start":
            impl = reply["implementation"]
            impl["capabilities"] = [c for c in impl["capabilities"] if c != "batch"]
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], Path(sys.argv[2])))
