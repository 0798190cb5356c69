"""The reference and the implementation playing one game side by side, compared after every action.

The reference is played in process (a ``Game`` under the implementation's declared deviations); the
implementation through its adapter. Anything the implementation does wrong at the protocol level
(crash, hang, garbage, an unreadable reply) becomes a ``fault`` difference: never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from conformance.adapter import Adapter, AdapterError, RuleError, Skip
from conformance.explore.fuzz.compare import Difference, compare_legal, compare_reply, compare_state
from conformance.explore.fuzz.observe import Observed
from conformance.judging.state import canonical_action
from crescent_ref.actions import Action, place_text
from crescent_ref.cards import CARD_TEXT
from crescent_ref.game import Game
from crescent_ref.position import Pile
from crescent_ref.profiles import Profile
from crescent_ref.state_json import FOUNDATIONS

T = TypeVar("T")
READ_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)
CACHE_LIMIT = 50_000  # entries per cache below; cleared when full, so a long run keeps memory flat
_PILES: dict[Pile, list[str]] = {}
_TOPS: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[str, str]] = {}
_ACTIONS: dict[str, Action] = {}
_TEXTS: dict[Action, str] = {}


def _cached(cache: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    found = cache.get(key)
    if found is None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        found = cache[key] = make()
    return found


def reference_state(game: Game) -> dict[str, Any]:
    """The reference's canonical state JSON (as crescent_ref.state_json writes it), built from caches."""
    pos = game.position
    return {
        "piles": [_cached(_PILES, p, lambda p=p: [CARD_TEXT[c] for c in p]) for p in pos.piles],
        "hidden": list(pos.hidden),
        "foundations": _cached(_TOPS, (pos.up, pos.down), lambda: _tops(pos.up, pos.down)),
        "held": [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.held) if r],
        "reshuffles": pos.reshuffles,
        "moves": pos.moves,
        "foundation_cards": pos.foundation_count(),
        "status": game.status(),
        "undo": len(game.history),
        "selected": place_text(game.selected) if game.selected is not None else None,
    }


def _tops(up: tuple[int, ...], down: tuple[int, ...]) -> dict[str, str]:
    cards = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(up)] + [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(down)]
    return dict(zip(FOUNDATIONS, cards, strict=True))


def parsed(action: str) -> Action | str:
    """The parsed action (cached), or the text itself when it does not parse (the engine says why)."""
    found = _ACTIONS.get(action)
    if found is None:
        try:
            found = _cached(_ACTIONS, action, lambda: Action.from_text(action))
        except Exception:  # noqa: BLE001 - an unreadable action is the engine's to refuse
            return action
    return found


def move_texts(moves: list[Action]) -> list[str]:
    """Action texts (cached per interned action)."""
    return [_cached(_TEXTS, m, lambda m=m: str(m)) for m in moves]


class Skipped(Exception):
    """The implementation skipped the request (not a difference; the game ends)."""


class Duel:
    """One game on both sides: ``start`` then ``step``; each returns the first difference or None."""

    def __init__(self, impl: Adapter, profile: str, reference: Profile, seen: Observed) -> None:
        self.impl, self.profile, self.reference, self.seen = impl, profile, reference, seen
        self.game: Game | None = None
        self.steps = 0

    def start(self, given: dict[str, str]) -> Difference | None:
        """Start both sides from ``given`` (a position text or a game code) and compare."""
        self.steps = 0
        code = given.get("code")
        self.game = Game.deal(self.reference, code) if code else Game.from_text(self.reference, given["position"])
        try:
            state = self._ask("loading the given position", lambda: self.impl.start(self.profile, **given))
        except RuleError as err:
            return Difference("refused", 0, message=f"the implementation refuses to load the given {_what(given)}: {err}")
        except _Fault as fault:
            return fault.difference
        return self._compare(None, reference_state(self.game), state)

    def step(self, action: str) -> Difference | None:
        """Apply ``action`` on both sides and compare reply, state and legal moves."""
        game = self.game
        assert game is not None
        self.steps += 1
        out = game.apply(parsed(action))
        try:
            reply = self._ask(action, lambda: self.impl.act(action))
            found = compare_reply(self.steps, action, out, reply, self.seen)
            return found or self._compare(action, reference_state(game), reply.state)
        except _Fault as fault:
            return fault.difference
        except RuleError as err:
            return self._fault(action, f"refused the action as a request: {err}")

    def _compare(self, action: str | None, want: dict[str, Any], got: Any) -> Difference | None:
        if not isinstance(got, dict):
            return self._fault(action, f"a state that is not an object: {str(got)[:80]!r}")
        found = compare_state(self.steps, action, want, got, self.seen)
        if found or not self.seen.legal_moves:
            return found
        assert self.game is not None
        wanted = move_texts(self.game.legal_moves())
        listed = self._ask(action or "listing legal moves", self.impl.legal_moves)
        if set(wanted) != set(listed):
            listed = [canonical_action(str(m)) for m in listed]
        return compare_legal(self.steps, action, wanted, listed)

    def _ask(self, doing: str, call: Callable[[], T]) -> T:
        try:
            return call()
        except Skip as err:
            raise Skipped(str(err)) from None
        except AdapterError as err:
            raise _Fault(self._fault(doing, str(err).splitlines()[0])) from None
        except READ_ERRORS as err:
            raise _Fault(self._fault(doing, f"an unreadable reply ({type(err).__name__}: {err})")) from None

    def _fault(self, doing: str | None, what: str) -> Difference:
        return Difference("fault", self.steps, doing, message=f"engine fault on {doing}: {what}")


class _Fault(Exception):
    def __init__(self, difference: Difference) -> None:
        super().__init__(difference.message)
        self.difference = difference


def _what(given: dict[str, str]) -> str:
    return f"code {given['code']}" if "code" in given else "position"


def replay(duel: Duel, given: dict[str, str], actions: Sequence[str]) -> Difference | None:
    """Play ``actions`` from ``given`` on both sides; the first difference (ignored ones included) or None."""
    try:
        found = duel.start(given)
        for action in actions:
            if found:
                break
            found = duel.step(action)
    except Skipped:
        return None
    return found
