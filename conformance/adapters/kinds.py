"""The give-up rule per kind of request: a kind an implementation keeps faulting on is not sent any more.

The stdio adapter gives an implementation up when its processes fault before answering any action
(conformance.adapters.stdio). One that answers most requests but hangs or crashes on every request
of one kind (every ``legal_moves``, every ``message``, every ``reshuffle``) would still cost a
timeout, or a process start, per scenario sending that kind: 157 of the corpus's runs send a
reshuffle, so 26 minutes of timeouts at the default 10 s. So faults are counted per kind, too:

- A call's kind is its command, for ``act`` the kind of action (``undo``, ``reshuffle``, ``tap``,
  ``drop``, or a card move), and for ``new_game`` the way the game is given (``code``: a game code;
  ``position``: a position text).
- A fault met by a call counts against its kind, and against the kinds of the calls after it in the
  same batch (one reply line holds them all, so any of them may have caused it). Any answer to a
  call of a kind (a refusal, ``errored`` and ``skipped`` too) sets its count back to 0.
- Once a kind has faulted ``limit`` times in a row, the next fresh process is asked a plain game and
  one request of that kind (``probe``). An answer says the faults were the games' own: the count goes
  back to 0. A fault there too, and the kind is *lost*: a call of it fails at once with that fault,
  and the calls announced for a scenario stop before it (a batch holding it would fault again).

An implementation that faults on a kind only in some positions is judged on the rest: the plain
game answers for it. The rule for processes asks the plain game too, given one way and then, if that
faults, the other: one that crashes on every game code but loads position texts loses the ``code``
way and is judged on every game given by position (``StdioAdapter._probe``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.adapter import NOT_SENT, AdapterError, Info

ACT_KINDS = ("undo", "reshuffle", "tap", "drop")  # an action's first word; any other action is a card move
WAYS = ("code", "position")  # the kinds of new_game: how the game is given
LABELS = {
    "legal_moves": "legal_moves requests",
    "message": "message requests",
    "move": "card moves",
    "code": "games given by game code",
    "position": "games given by position text",
}
PROBE_CODE = "CR1-N-BAAAAAA"  # the plain game of a probe: a game code, or its deal's position text


def kind_of(key: tuple[Any, ...]) -> str:
    """The kind of the call ``key`` (conformance.adapters.stdio's keys: ``("act", "p3-p11", None)``)."""
    cmd = key[0]
    if cmd == "act":
        word = str(key[1]).split(" ", 1)[0]
        return word if word in ACT_KINDS else "move"
    if cmd == "new_game":
        return "code" if key[3] else "position"
    return str(cmd)


def request_kind(request: dict[str, Any]) -> str:
    """The kind of a request message (``{"cmd": "act", "action": "undo"}``)."""
    cmd = request.get("cmd")
    if cmd == "new_game":
        return "code" if request.get("code") else "position"
    return kind_of((cmd, request.get("action")))


def label(kind: str) -> str:
    """``reshuffle actions``, ``legal_moves requests``: the kind in words."""
    return LABELS.get(kind, f"{kind} actions")


@dataclass
class Ledger:
    """The faults in a row per kind of call, and the kinds lost (never sent again)."""

    limit: int  # faults in a row before a probe (0: the rule is off)
    faults: dict[str, int] = field(default_factory=dict)  # only kinds with a fault since their last answer
    lost: dict[str, AdapterError] = field(default_factory=dict)

    def answered(self, kind: str) -> None:
        """A call of ``kind`` got an answer."""
        self.faults.pop(kind, None)

    def faulted(self, kinds: set[str]) -> None:
        """A fault was met by a call that may have been one of ``kinds``."""
        if self.limit:
            for kind in kinds - self.lost.keys():
                self.faults[kind] = self.faults.get(kind, 0) + 1

    def due(self) -> list[str]:
        """The kinds to probe on the next fresh process."""
        return [kind for kind, count in self.faults.items() if count >= self.limit > 0]

    def lose(self, kind: str, err: AdapterError, where: str, count: int = 0) -> None:
        """The probe of ``kind`` faulted too: every later call of it fails at once with ``err`` (``count``: the
        faults in a row before it, when not counted here)."""
        count = self.faults.pop(kind, 0) or count
        what = f"{label(kind)} {NOT_SENT}: {count} in a row faulted, and so did one in a plain game ({where})"
        self.lost[kind] = AdapterError(f"{what}: {err.message}", err.context)

    def before_lost(self, keys: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The announced calls ``keys`` up to the first of a lost kind (that call fails at once when made)."""
        for n, key in enumerate(keys):
            if kind_of(key) in self.lost:
                return keys[:n]
        return keys

    def check(self, kind: str) -> None:
        """Raise the fault a lost ``kind`` was lost for."""
        if kind in self.lost:
            raise self.fault(kind)

    def fault(self, kind: str) -> AdapterError:
        """The fault the lost ``kind`` was lost for, to raise again."""
        lost = self.lost[kind]
        return AdapterError(lost.message, lost.context)


def probe_requests(
    info: Info, seq: int, lean: bool, kind: str = "move", way: str = ""
) -> list[tuple[dict[str, Any], str]]:
    """The requests of a probe, each with its reply's schema: ``new_game`` of the plain game in the
    implementation's first profile (given ``way``; by default by code when it deals codes, else by the
    deal's position text), then requests of ``kind`` that the reference answers there (``move``: the first
    move it allows; ``undo``: that move and an undo; a refusal is an answer too; none for a way of giving
    a game, which the ``new_game`` itself probes); no state asked for under state on demand."""
    from crescent_ref.game import Game

    profile = info.profiles[0] if info.profiles else "app"
    game = Game.deal(profile, PROBE_CODE)
    way = kind if kind in WAYS else way or ("code" if "game-codes" in info.capabilities else "position")
    start: dict[str, Any] = {"cmd": "new_game", "profile": profile}
    if way == "code":
        start["code"] = PROBE_CODE
    else:
        start["position"] = game.position.to_text()
    requests = [start, *([] if kind in WAYS else _requests_of(kind, game, info))]
    for n, request in enumerate(requests, seq + 1):
        request["seq"] = n
        if lean and request["cmd"] in ("new_game", "act"):
            request["state"] = []
    return [(request, _SCHEMAS[request["cmd"]]) for request in requests]


def ways(info: Info, ledger: Ledger) -> list[str]:
    """The ways of giving the plain game to try, in turn, while each faults: the one with the fewest faults
    in a row first (game codes on a tie), then any other that has not faulted since its last answer (a way
    lost, or offered by no capability, is not tried)."""
    offered = ["code", "position"] if "game-codes" in info.capabilities else ["position"]
    left = sorted((way for way in offered if way not in ledger.lost), key=lambda way: ledger.faults.get(way, 0))
    return left[:1] + [way for way in left[1:] if way not in ledger.faults]


def probe_place(info: Info) -> str:
    """Where a probe plays: ``app CR1-N-BAAAAAA``."""
    return f"{info.profiles[0] if info.profiles else 'app'} {PROBE_CODE}"


_SCHEMAS = {
    "new_game": "new-game-reply",
    "act": "act-reply",
    "legal_moves": "legal-moves-reply",
    "message": "message-reply",
}


def _requests_of(kind: str, game: Any, info: Info) -> list[dict[str, Any]]:
    """The requests that probe ``kind`` in the plain game ``game``."""
    first = str(game.legal_moves()[0])
    if kind in ("legal_moves", "message"):
        return [{"cmd": kind, **(_message_args(game, info) if kind == "message" else {})}]
    actions = {"move": [first], "undo": [first, "undo"], "reshuffle": ["reshuffle"]}.get(kind)
    actions = actions or [_place_action(kind, game)]
    return [{"cmd": "act", "action": action} for action in actions]


def _message_args(game: Any, info: Info) -> dict[str, str]:
    """A reason the reference gives in the plain game (a card moved onto a pile it does not fit), in the
    implementation's first language."""
    reason = next((r for r in (game.apply(f"p1-p{n}", dry_run=True).reason for n in range(2, 17)) if r), "wrong-suit")
    return {"reason": reason, "lang": info.languages[0] if info.languages else "en"}


def _place_action(kind: str, game: Any) -> str:
    """The first ``tap pN`` (``drop pN``) the reference accepts in the plain game, else ``tap p1``."""
    actions = [f"{kind} p{n}" for n in range(1, 17)]
    return next((a for a in actions if game.apply(a, dry_run=True).accepted), actions[0])
