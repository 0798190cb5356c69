#!/usr/bin/env python3
"""A minimal Crescent adapter (spec/protocol.md), to copy and fill in: docs/writing-an-adapter.md.

    crescent-conformance smoke --cmd "python3 docs/skeletons/skeleton_adapter.py"

It speaks the whole protocol loop of version 3: the handshake, new_game, act, stop, the state on
demand and batches; one JSON line a reply on stdout, everything else on stderr. The rules live in
``YourEngine`` below: as shipped it can only load a position and report it, and answers every action
with ``skipped`` ("not implemented yet"), so the kit runs what it can (the scenarios that check a
starting position) and skips the rest.
Replace its methods with calls into your game. It needs nothing but the Python standard library.
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
FOUNDATIONS = ["A♠", "A♥", "A♦", "A♣", "K♠", "K♥", "K♦", "K♣"]


class NotImplementedYet(Exception):
    """A request the engine cannot serve yet: the adapter answers ``skipped``, the kit skips the scenario."""


# ---------------------------------------------------------------------------------------------
# YOUR ENGINE HERE: replace the body of each method with calls into your game.
# ---------------------------------------------------------------------------------------------
class YourEngine:
    """Holds one game. As shipped: a table read from a position text that takes no actions."""

    def __init__(self) -> None:
        self.table: dict[str, Any] = {}

    def new_game(self, profile: str, position: str) -> None:
        """Set up the game from a position text (spec/notation.md §5).

        If your engine can only deal, see "Loading a given position" in docs/writing-an-adapter.md.
        """
        self.table = read_position(position)

    def act(self, action: str) -> dict[str, Any]:
        """Apply one action (canonical text: p10-p14, p5-A♠, reshuffle, undo, tap p5, drop p5).

        Return {"accepted", "reason", "effect", "moves"}; the adapter adds the state.
        """
        raise NotImplementedYet(f"act {action!r}: not implemented yet (YOUR ENGINE HERE in {__file__})")

    def state(self) -> dict[str, Any]:
        """The canonical state JSON (spec/interpreting.md): read it off your engine's table."""
        table = self.table
        return {**table, "status": "playing", "foundation_cards": foundation_cards(table["foundations"])}
# ---------------------------------------------------------------------------------------------


def rank(card: str) -> int:
    """The rank of a card in canonical text: A=1 ... K=13."""
    return RANKS.get(card[:-1]) or int(card[:-1])


def foundation_cards(tops: dict[str, str]) -> int:
    """Cards on the eight foundations, from their top cards."""
    return sum(rank(top) if base[0] == "A" else 14 - rank(top) for base, top in tops.items())


def read_position(text: str) -> dict[str, Any]:
    """The table of a position text, as the state JSON writes it (piles bottom card first)."""
    fields = dict(part.split(":", 1) for part in text.split())
    piles, hidden = [], []
    for pile in fields["piles"].split("/"):
        face_down: list[str] = []
        if pile.startswith("["):
            inside, _, pile = pile[1:].partition("],")
            face_down = inside.split(",")
        piles.append(face_down + ([] if pile in ("", "-") else pile.split(",")))
        hidden.append(len(face_down))
    return {
        "piles": piles,
        "hidden": hidden,
        "foundations": dict(zip(FOUNDATIONS, fields["up"].split(",") + fields["down"].split(","), strict=True)),
        "held": fields["held"].split(",") if "held" in fields else [],
        "reshuffles": int(fields["reshuffles"]),
        "moves": int(fields["moves"]),
    }


HELLO = {
    "version": 3,  # protocol version 3 (spec/protocol.md, Versions)
    "implementation": {
        "name": "my-crescent",  # your game's name and version
        "version": "0.0.1",
        "language": "python",
        "profiles": ["app"],  # the rule profiles your game plays (spec/profiles.yaml)
        # What the adapter offers and observes (spec/protocol.md, Capabilities); add "undo", "tap", "reasons",
        # ... as it learns them, and declare only what it really reports:
        # - "move-count", "reshuffle-count": state() reports the game's own counters (drop one your game lacks);
        #   status is always "playing" here, so "lost" is not declared;
        # - "state-on-demand": a request's "state" names the fields wanted (with_state below);
        # - "batch": several requests in one line (answer_batch below). Both only make a run cheaper.
        "capabilities": ["move-count", "reshuffle-count", "state-on-demand", "batch"],
    },
}


class Malformed(Exception):
    """A request the adapter cannot read (a field missing or of the wrong type): ``errored``, nothing changed."""


def reply_to(engine: YourEngine, request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request line (not ``start`` or ``stop``): ``seq`` echoed, then the answer."""
    if request.get("cmd") == "batch":
        return {"seq": request.get("seq"), **answer_batch(engine, request.get("requests"))}
    return {"seq": request.get("seq"), **answer(engine, request)}


def answer_batch(engine: YourEngine, requests: Any) -> dict[str, Any]:
    """A batch (spec/protocol.md, Batches): each request answered in order as if it came alone, without seq."""
    if not isinstance(requests, list):
        return {"errored": {"message": f"batch: requests is not a list: {requests!r}"}}
    not_object = {"errored": {"message": "batch: a request that is not an object"}}
    return {"result": {"replies": [answer(engine, r) if isinstance(r, dict) else not_object for r in requests]}}


def answer(engine: YourEngine, request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request: exactly one of ``result``, ``skipped`` or ``errored``."""
    cmd = request.get("cmd")
    try:
        if cmd == "new_game":
            wanted = wanted_fields(request)
            if "position" not in request:
                raise NotImplementedYet("new_game from a game code: not implemented yet")
            engine.new_game(request["profile"], request["position"])
            return {"result": with_state({}, engine, wanted)}
        if cmd == "act":
            wanted = wanted_fields(request)
            return {"result": with_state(engine.act(request["action"]), engine, wanted)}
        return {"errored": {"message": f"unknown command {cmd!r}"}}
    except NotImplementedYet as err:
        return {"skipped": {"message": str(err)}}
    except Malformed as err:
        return {"errored": {"message": str(err)}}
    except (KeyError, ValueError) as err:  # a position or request the engine cannot read
        return {"errored": {"message": f"{type(err).__name__}: {err}", "refused": cmd == "new_game"}}


def wanted_fields(request: dict[str, Any]) -> list[str] | None:
    """The state fields a request asks for (state on demand): None when it has no ``state`` (the whole state)."""
    if "state" not in request:
        return None
    wanted = request["state"]
    if not isinstance(wanted, list) or not all(isinstance(name, str) for name in wanted):
        raise Malformed(f"state: expected a list of state fields, got {wanted!r}")
    return wanted


def with_state(result: dict[str, Any], engine: YourEngine, wanted: list[str] | None) -> dict[str, Any]:
    """``result`` with the state asked for: None, the whole state; a list of fields, only those; ``[]``, none."""
    if wanted == []:
        return result
    state = engine.state()
    return {**result, "state": state if wanted is None else {k: v for k, v in state.items() if k in wanted}}


def read_request(line: str) -> dict[str, Any] | str:
    """The request object of a line, or why it cannot be read."""
    try:
        request = json.loads(line)
    except ValueError as err:
        return f"not a JSON request: {err}"
    return request if isinstance(request, dict) else "not a JSON object"


def main() -> int:
    """Answer requests on stdin until ``stop``: one JSON line each on stdout, flushed."""
    engine = YourEngine()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = read_request(line)
        if isinstance(request, str):  # not JSON, or not an object: answered with seq null
            reply: dict[str, Any] = {"seq": None, "errored": {"message": request}}
        elif request.get("cmd") == "stop":
            break
        else:
            reply = HELLO if request.get("cmd") == "start" else reply_to(engine, request)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    raise SystemExit(main())
