#!/usr/bin/env python3
"""A minimal Crescent adapter (spec/protocol.md), to copy and fill in: docs/writing-an-adapter.md.

    crescent-conformance smoke --cmd "python3 docs/skeletons/skeleton_adapter.py"

It speaks the whole protocol loop: the handshake, new_game, act, stop; one JSON line a reply on
stdout, everything else on stderr. The rules live in ``YourEngine`` below: as shipped it can only
load a position and report it, and answers every action with ``skipped`` ("not implemented yet"),
so the kit runs what it can (the scenarios that check a starting position) and skips the rest.
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
    "version": 2,  # protocol version 2: declare only the parts of a reply your game observes (spec/protocol.md)
    "implementation": {
        "name": "my-crescent",  # your game's name and version
        "version": "0.0.1",
        "language": "python",
        "profiles": ["app"],  # the rule profiles your game plays (spec/profiles.yaml)
        # add "undo", "tap", ... as your adapter learns them (spec/protocol.md); "state-on-demand": the
        # runner names the state fields it needs in each request (with_state below honours it)
        "capabilities": ["state-on-demand"],
    },
}


def handle(engine: YourEngine, request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request (not ``start`` or ``stop``)."""
    seq, cmd = request.get("seq"), request.get("cmd")
    try:
        if cmd == "new_game":
            if "position" not in request:
                raise NotImplementedYet("new_game from a game code: not implemented yet")
            engine.new_game(request["profile"], request["position"])
            return {"seq": seq, "result": with_state({}, engine, request)}
        if cmd == "act":
            outcome = engine.act(request["action"])
            return {"seq": seq, "result": with_state(outcome, engine, request)}
        return {"seq": seq, "errored": {"message": f"unknown command {cmd!r}"}}
    except NotImplementedYet as err:
        return {"seq": seq, "skipped": {"message": str(err)}}
    except (KeyError, ValueError) as err:  # a position or request the engine cannot read
        return {"seq": seq, "errored": {"message": f"{type(err).__name__}: {err}", "refused": cmd == "new_game"}}


def with_state(result: dict[str, Any], engine: YourEngine, request: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the state the request asks for (state on demand, spec/protocol.md): no ``state``
    field, the whole state; a list of field names, only those; ``[]``, none."""
    wanted = request.get("state")
    if wanted == []:
        return result
    state = engine.state()
    return {**result, "state": state if wanted is None else {k: v for k, v in state.items() if k in wanted}}


def main() -> int:
    """Answer requests on stdin until ``stop``: one JSON line each on stdout, flushed."""
    engine = YourEngine()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("cmd") == "stop":
            break
        reply = HELLO if request.get("cmd") == "start" else handle(engine, request)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    raise SystemExit(main())
