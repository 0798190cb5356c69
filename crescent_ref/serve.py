"""``crescent-ref serve``: the reference engine over the stdio adapter protocol (spec/protocol.md).

One JSON object a line on stdin, one reply a line on stdout; logs go to stderr only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

import crescent_ref
from crescent_ref.errors import CrescentError, NotationError
from crescent_ref.game import Game
from crescent_ref.messages import LANGUAGES, message
from crescent_ref.profiles import base_names, variant_names
from crescent_ref.state_json import game_state

CAPABILITIES = ["undo", "tap", "drop", "game-codes", "legal-moves", "selection", "messages"]
Reply = dict[str, Any]


def hello() -> Reply:
    """The handshake reply."""
    return {
        "version": 1,
        "implementation": {
            "name": "crescent_ref",
            "version": crescent_ref.__version__,
            "language": "python",
            "profiles": base_names(),
            "variants": variant_names(),
            "capabilities": CAPABILITIES,
            "languages": list(LANGUAGES),
        },
    }


class Server:
    """Holds the current game between requests."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def handle(self, request: dict[str, Any]) -> Reply | None:
        """The reply to one request (None for ``stop``)."""
        cmd = request.get("cmd")
        if cmd == "start":
            return hello()
        if cmd == "stop":
            return None
        handler: Callable[[dict[str, Any]], Reply] | None = getattr(self, f"_{cmd}", None)
        seq = request.get("seq")
        if handler is None:
            return {"seq": seq, "errored": {"message": f"unknown command {cmd!r}"}}
        try:
            return {"seq": seq, "result": handler(request)}
        except NotationError as err:
            return {"seq": seq, "errored": {"message": str(err), "refused": cmd == "new_game"}}
        except (CrescentError, KeyError, TypeError) as err:
            return {"seq": seq, "errored": {"message": f"{type(err).__name__}: {err}"}}

    def _new_game(self, req: dict[str, Any]) -> Reply:
        code = req.get("code")
        self.game = Game.deal(req["profile"], code) if code else Game.from_text(req["profile"], req["position"])
        return {"state": game_state(self.game)}

    def _current(self) -> Game:
        if self.game is None:
            raise CrescentError("no game: send new_game first")
        return self.game

    def _act(self, req: dict[str, Any]) -> Reply:
        game = self._current()
        out = game.apply(req["action"])
        return {
            "accepted": out.accepted,
            "reason": out.reason,
            "effect": out.effect,
            "moves": [str(m) for m in out.moves],
            "state": game_state(game),
        }

    def _legal_moves(self, req: dict[str, Any]) -> Reply:
        return {"moves": [str(m) for m in self._current().legal_moves()]}

    def _message(self, req: dict[str, Any]) -> Reply:
        return {"text": message(req["reason"], req["lang"])}


def serve(stdin: IO[str], stdout: IO[str]) -> int:
    """Answer requests until ``stop`` or end of input."""
    server = Server()
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as err:
            print(f"crescent-ref serve: not JSON: {line[:80]!r}: {err}", file=sys.stderr)
            continue
        reply = server.handle(request)
        if reply is None:
            break
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    """Serve on the process's stdin and stdout (UTF-8)."""
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    return serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
