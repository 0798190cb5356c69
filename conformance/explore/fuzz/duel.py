"""The reference and the implementation playing one game side by side, compared after every action.

The reference plays first, in process (a ``Game`` under the implementation's declared
deviations), choosing the actions as it goes and recording what it expects after each. Then the
implementation is asked the same game: step by step in process (stopping at the first
difference), or all at once over stdio (pipeline.py). Anything it does wrong at the protocol
level (crash, hang, garbage, an unreadable reply) becomes a ``fault`` difference: never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.adapter import Adapter, AdapterError, Reply, RuleError, Skip
from conformance.adapters.placing import silences
from conformance.adapters.replies import act_reply, legal_moves, result_of
from conformance.adapters.replies import state_of as reply_state
from conformance.adapters.stdio import StdioAdapter
from conformance.explore.fuzz.compare import Difference, compare_legal, compare_reply, compare_state
from conformance.explore.fuzz.observe import Observed
from conformance.explore.fuzz.pipeline import Request, exchange
from conformance.judging.state import canonical_action
from crescent_ref import movegen
from crescent_ref.actions import Action, place_text
from crescent_ref.cards import CARD_TEXT
from crescent_ref.game import Game, Outcome
from crescent_ref.position import Pile, Position
from crescent_ref.profiles import Profile
from crescent_ref.state_json import FOUNDATIONS

READ_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)
CACHE_LIMIT = 20_000  # entries per cache below; cleared when full, so a long run keeps memory flat
_PILES: dict[Pile, list[str]] = {}
_TOPS: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[str, str]] = {}
_ACTIONS: dict[str, Action] = {}
_TEXTS: dict[Action, str] = {}
Chooser = Callable[[Game, int], str | None]  # the next action after k actions, or None to stop
Sift = Callable[[Difference, Position], Difference | None]  # a legal-move difference less what is explained


class Skipped(Exception):
    """The implementation skipped the request (not a difference; the game ends)."""


View = tuple[Position, str, int, int | None]  # the reference's position, status, undo depth, selection


@dataclass(frozen=True, slots=True)
class Expected:
    """The reference after one action (``action`` None: the given position); the state JSON and the
    legal-move texts are made only when compared (over stdio, while the implementation works)."""

    action: str | None
    outcome: Outcome | None
    view: View
    moves: list[Action] | None

    @property
    def state(self) -> dict[str, Any]:
        """The reference's canonical state JSON."""
        return state_of(self.view)

    @property
    def legal(self) -> list[str] | None:
        """The reference's legal moves, as texts."""
        return None if self.moves is None else move_texts(self.moves)


@dataclass(frozen=True, slots=True)
class Answer:
    """The implementation after one action: its reply (None for the given), state and legal moves."""

    reply: Reply | None
    state: Any
    legal: list[str] | None


def _cached(cache: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    found = cache.get(key)
    if found is None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        found = cache[key] = make()
    return found


def view(game: Game) -> View:
    """What the state JSON is made of."""
    return game.position, game.status(), len(game.history), game.selected


def state_of(seen: View) -> dict[str, Any]:
    """The canonical state JSON of a view, built from caches."""
    pos, status, undo, selected = seen
    return {
        "piles": [_PILES.get(p) or _pile_texts(p) for p in pos.piles],
        "hidden": list(pos.hidden),
        "foundations": _cached(_TOPS, (pos.up, pos.down), lambda: _tops(pos.up, pos.down)),
        "held": [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(pos.held) if r],
        "reshuffles": pos.reshuffles,
        "moves": pos.moves,
        "foundation_cards": pos.foundation_count(),
        "status": status,
        "undo": undo,
        "selected": place_text(selected) if selected is not None else None,
    }


def _pile_texts(pile: Pile) -> list[str]:
    texts: list[str] = _cached(_PILES, pile, lambda: [CARD_TEXT[c] for c in pile])
    return texts


def _tops(up: tuple[int, ...], down: tuple[int, ...]) -> dict[str, str]:
    cards = [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(up)]
    return dict(zip(FOUNDATIONS, cards + [CARD_TEXT[s * 13 + r - 1] for s, r in enumerate(down)], strict=True))


def parsed(action: str) -> Action | str:
    """The parsed action (cached), or the text itself when it does not parse (the engine says why)."""
    found = _ACTIONS.get(action)
    if found is None:
        try:
            found = _cached(_ACTIONS, action, lambda: Action.from_text(action))
        except Exception:
            return action
    return found


def move_texts(moves: list[Action]) -> list[str]:
    """Action texts (cached per interned action)."""
    return [_TEXTS.get(m) or _move_text(m) for m in moves]


def _move_text(move: Action) -> str:
    text: str = _cached(_TEXTS, move, lambda: str(move))
    return text


def fixed(actions: Sequence[str]) -> Chooser:
    """A chooser playing ``actions`` in order."""
    return lambda game, k: actions[k] if k < len(actions) else None


def new_game(reference: Profile, given: dict[str, str]) -> Game:
    """The reference's game from ``given`` (a position text or a game code)."""
    code = given.get("code")
    return Game.deal(reference, code) if code else Game(reference, position_of(given["position"]))


@functools.lru_cache(maxsize=256)
def position_of(text: str) -> Position:
    """The position of a text form (cached: a game's start is parsed once for the generator, the
    reference and every shrinking replay)."""
    return Position.from_text(text)


class Duel:
    """Plays games on both sides: ``play`` returns the first difference (or None) and the actions played."""

    def __init__(self, impl: Adapter, profile: str, reference: Profile, seen: Observed,
                 sift: Sift | None = None) -> None:
        self.impl, self.profile, self.reference, self.seen = impl, profile, reference, seen
        self.sift = sift
        self._quiet_since = silences(impl)  # the adapter's silences when the last game ended without one

    def play(self, given: dict[str, str], choose: Chooser) -> tuple[Difference | None, tuple[str, ...]]:
        """The reference plays (``choose`` picks), then the implementation; compared step by step."""
        expected = self.expect(given, choose)
        actions = tuple(e.action for e in expected[1:] if e.action is not None)
        pipelined, before = self.pipelined, silences(self.impl)
        found = self._first(expected, self.answers(given, actions))
        if found is not None and found.kind == "fault" and pipelined:
            found = self._located(expected, given, actions, found)
        if silences(self.impl) == before:  # a game without a crash or hang: the next goes together
            self._quiet_since = before
        return found, actions

    def _first(self, expected: list[Expected], answers: Generator[Answer | Difference, None, None]
               ) -> Difference | None:
        """The first step where the implementation's answers differ from ``expected``."""
        try:
            for step, (want, got) in enumerate(zip(expected, answers, strict=False)):
                found = got if isinstance(got, Difference) else self.judge(step, want, got)
                if found is not None and self._ignored_move(expected[step - 1] if step else None, found):
                    found = Difference("ignored", step, found.action)
                if found is not None:
                    return found
        except Skipped:
            pass
        finally:
            answers.close()
        return None

    def _located(self, expected: list[Expected], given: dict[str, str], actions: Sequence[str],
                 fault: Difference) -> Difference:
        """A fault met in a game sent at once, placed at the request that caused it: the game played
        again a request at a time. An implementation that writes the replies of requests read together
        in one go loses them all when it crashes on the last, so the fault first shows at an earlier
        step (often the loading). A replay without a fault leaves ``fault`` as it was met."""
        again = self._first(expected, self._stepwise(given, actions))
        return again if again is not None and again.step >= fault.step else fault

    def expect(self, given: dict[str, str], choose: Chooser) -> list[Expected]:
        """The reference's outcome, state and legal moves after each action it chooses."""
        game = new_game(self.reference, given)
        expected = [Expected(None, None, view(game), self._legal(game))]
        while (action := choose(game, len(expected) - 1)) is not None:
            outcome = game.apply(parsed(action))
            expected.append(Expected(action, outcome, view(game), self._legal(game)))
        return expected

    def _legal(self, game: Game) -> list[Action] | None:
        return game.legal_moves() if self.seen.legal_moves else None

    def _ignored_move(self, before: Expected | None, found: Difference) -> bool:
        """A tap or drop whose effect differs because the implementation made a move the reference refuses
        for a reason the user ignores (``--ignore reason:pile-full``: a tap onto a full pile, where the
        reference selects): as ignored as that move's own refusal would be."""
        moves = found.meta.get("impl_moves") if found.kind == "reply" else None
        reasons = self.seen.ignore.reasons
        if before is None or not moves or not reasons:
            return False
        try:
            act = Action.from_text(str(moves[0]))  # any accepted spelling
        except ValueError:
            return False
        return act.kind == "move" and movegen.reason(self.reference, before.view[0], act.src, act.dst) in reasons

    def judge(self, step: int, want: Expected, got: Answer) -> Difference | None:
        """The difference between the reference's and the implementation's account of one step."""
        action = want.action
        if want.outcome is not None and got.reply is not None:
            found = compare_reply(step, action or "", want.outcome, got.reply, self.seen)
            if found is not None:
                return found
        if not isinstance(got.state, dict):
            return _fault(step, action, f"a state that is not an object: {str(got.state)[:80]!r}")
        found = compare_state(step, action, want.state, got.state, self.seen)
        wanted = want.legal
        if found is not None or wanted is None or got.legal is None:
            return found
        listed = got.legal if set(got.legal) == set(wanted) else [canonical_action(str(m)) for m in got.legal]
        found = compare_legal(step, action, wanted, listed)
        return found if found is None or self.sift is None else self.sift(found, want.view[0])

    def answers(self, given: dict[str, str], actions: Sequence[str]) -> Generator[Answer | Difference, None, None]:
        """The implementation's account of the game: sent all at once over stdio, else step by step (and over
        stdio too after a game that met a crash or hang: while they keep coming, each is met where it is
        made, with no replay, as in every door: conformance.adapters.placing)."""
        if self.pipelined:
            return self._pipelined(given, actions)
        return self._stepwise(given, actions)

    @property
    def pipelined(self) -> bool:
        """Whether a game's requests go together: over stdio, unless the last game met a crash or hang (after
        a fault that stays rare, games go together again: fuzz lives on throughput)."""
        return isinstance(self.impl, StdioAdapter) and silences(self.impl) == self._quiet_since

    def _stepwise(self, given: dict[str, str], actions: Sequence[str]) -> Generator[Answer | Difference, None, None]:
        legal = self.seen.legal_moves
        try:
            state = self.impl.start(self.profile, **given)
            yield Answer(None, state, self.impl.legal_moves() if legal else None)
        except RuleError as err:
            yield _refused(given, str(err))
            return
        except Skip as err:
            raise Skipped(str(err)) from None
        except Exception as err:  # whatever an in-process engine raises is an engine fault
            yield _fault(0, None, _said(err))
            return
        for step, action in enumerate(actions, 1):
            try:
                reply = self.impl.act(action)
                yield Answer(reply, reply.state, self.impl.legal_moves() if legal else None)
            except Skip as err:
                raise Skipped(str(err)) from None
            except Exception as err:  # whatever an in-process engine raises is an engine fault
                yield _fault(step, action, _said(err))
                return

    def _pipelined(self, given: dict[str, str], actions: Sequence[str]) -> Generator[Answer | Difference, None, None]:
        assert isinstance(self.impl, StdioAdapter)
        legal = self.seen.legal_moves
        requests: list[Request] = [({"cmd": "new_game", "profile": self.profile, **given}, "new-game-reply")]
        for action in (None, *actions):
            if action is not None:
                requests.append(({"cmd": "act", "action": action}, "act-reply"))
            if legal:
                requests.append(({"cmd": "legal_moves"}, "legal-moves-reply"))
        replies = exchange(self.impl, requests)
        try:
            yield from _read_answers(replies, given, (None, *actions), legal)
        finally:
            replies.close()


def _read_answers(replies: Iterator[dict[str, Any] | AdapterError], given: dict[str, str],
                  actions: Sequence[str | None], legal: bool) -> Iterator[Answer | Difference]:
    for step, action in enumerate(actions):
        try:
            body = _result(next(replies), action is None)
            reply = None if action is None else _reply(body)
            state = reply_state(body) if reply is None else reply.state
            moves = legal_moves(_result(next(replies), False)) if legal else None
            yield Answer(reply, state, moves)
        except StopIteration:
            return
        except RuleError as err:
            yield _refused(given, str(err))
            return
        except (AdapterError, *READ_ERRORS) as err:
            yield _fault(step, action, _said(err))
            return


def _result(reply: dict[str, Any] | AdapterError, loading: bool) -> dict[str, Any]:
    """A reply's result read strictly (conformance.adapters.replies); Skipped for a skipped reply."""
    if isinstance(reply, AdapterError):
        raise reply
    try:
        return result_of(reply, loading)
    except Skip as err:
        raise Skipped(str(err)) from None


def _reply(r: dict[str, Any]) -> Reply:
    return act_reply(r)


def _said(err: BaseException) -> str:
    text = str(err).splitlines()[0] if str(err) else ""
    if isinstance(err, AdapterError):
        return text
    if isinstance(err, READ_ERRORS):
        return f"an unreadable reply, or it raised {type(err).__name__}: {text}"
    return f"it raised {type(err).__name__}: {text}"


def _fault(step: int, action: str | None, what: str) -> Difference:
    doing = action or "loading the given position"
    return Difference("fault", step, action, message=f"engine fault on {doing}: {what}")


def _refused(given: dict[str, str], why: str) -> Difference:
    what = f"code {given['code']}" if "code" in given else "position"
    return Difference("refused", 0, message=f"the implementation refuses to load the given {what}: {why}")
