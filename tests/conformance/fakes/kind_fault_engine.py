"""A stdio implementation that faults on one kind of request only: for the give-up rule per kind.

Usage: ``python kind_fault_engine.py MODE KIND FAULTS [batch]``. Requests are answered as
``crescent-ref serve`` answers them (its handshake without ``batch`` unless ``batch`` is given),
but a request of KIND (``legal_moves``, ``message``, an action's first word: ``reshuffle``,
``undo``; ``move`` for a card move; ``code`` or ``position`` for a ``new_game`` given that way)
appends a line to the file FAULTS and then, by MODE:

- ``hang``: no reply (the process sleeps);
- ``crash``: exits with code 3;
- ``some``: exits with code 3 unless the game was dealt from CR1-N-BAAAAAA (the give-up rule's plain
  game), so the kind works in some games.

A batch holding a request of KIND faults as that request would.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from crescent_ref.serve import Server

PLAIN = "CR1-N-BAAAAAA"


def kind(request: Any) -> str | None:
    """The request's kind, as conformance.adapters.kinds names it."""
    if not isinstance(request, dict):
        return None
    if request.get("cmd") == "new_game":
        return "code" if request.get("code") else "position"
    if request.get("cmd") != "act":
        return str(request.get("cmd"))
    word = str(request.get("action", "")).split(" ", 1)[0]
    return word if word in ("undo", "reshuffle", "tap", "drop") else "move"


def main(mode: str, wanted: str, faults: Path, batch: bool) -> int:
    server, plain = Server(), False
    for line in sys.stdin:
        request = json.loads(line)
        inner = request.get("requests", []) if request.get("cmd") == "batch" else [request]
        for one in inner:
            if isinstance(one, dict) and one.get("cmd") == "new_game":
                plain = one.get("code") == PLAIN
        if any(kind(one) == wanted for one in inner) and not (mode == "some" and plain):
            with faults.open("a") as log:
                log.write(f"{wanted} {os.getpid()} {json.dumps(request)[:150]}\n")
            if mode == "hang":
                time.sleep(60)
            os._exit(3)
        reply = server.handle(request)
        if reply is None:
            return 0
        if request.get("cmd") == "start" and not batch:
            impl = reply["implementation"]
            impl["capabilities"] = [c for c in impl["capabilities"] if c != "batch"]
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2], Path(sys.argv[3]), "batch" in sys.argv[4:]))
