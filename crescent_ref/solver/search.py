"""The exact solver: a best-first graph search over the engine's own moves.

Every step uses the engine: ``movegen`` lists the legal moves, ``transitions`` carries them out
(and 001's autoplay), ``game.status_of`` judges the position. A reshuffle is a step like a move.

The search keeps every position it has met (by its canonical key, ``canon.key``) with the step
that first reached it, and a frontier of positions still to expand, taken most promising first
(``promise``: cards home, then reshuffles kept; the order never decides a verdict). The game has
one player and no chance, so a position is won or not whatever the path to it: expanding each
key once is enough, and cycles (moves between foundations make them) end at a seen key. So the
answers are exact: ``winnable`` comes with the line to the first won position, ``not winnable``
means the frontier ran dry (every reachable position seen, none won), and a search cut short by
its budget (nodes, seconds, stored positions: the memory bound) answers ``unknown``.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from crescent_ref import movegen, transitions
from crescent_ref.actions import RESHUFFLE, Action
from crescent_ref.cards import ACE, KING
from crescent_ref.game import Game, status_of
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver.canon import key
from crescent_ref.solver.dead import dead
from crescent_ref.solver.safe import safe_move

Verdict = Literal["winnable", "not winnable", "unknown"]
Step = tuple[Action, ...]  # one search step: a move, a reshuffle, or slides then a move (canon.py)
CHECK_EVERY = 512
DEEP = 20  # a card not in the piles counts as this deep in ``promise``  # expansions between looks at the clock


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one solve: nodes (positions generated), seconds (CPU seconds of this process, so
    that a loaded machine does not shrink the budget), and positions stored (about
    400 bytes each with the frontier: the default keeps a solve near 1.5 GiB)."""

    nodes: int = 2_000_000
    seconds: float = 60.0
    stored: int = 3_500_000


@dataclass(frozen=True, slots=True)
class Answer:
    """The verdict, the winning line (actions as ``crescent-ref play`` takes them), and the cost."""

    verdict: Verdict
    line: tuple[Action, ...] = ()
    nodes: int = 0
    seconds: float = 0.0  # CPU seconds
    stored: int = 0
    thoughtful: bool = False
    limit: str = ""  # for ``unknown``: the budget that ran out (nodes, seconds, stored)

    def line_text(self) -> str:
        """The line in action notation, one space between actions."""
        return " ".join(str(a) for a in self.line)


def after(profile: Profile, pos: Position, step: Step) -> Position:
    """The position after the accepted actions of ``step``, the profile's autoplay included."""
    for action in step:
        if action is RESHUFFLE:
            pos = transitions.reshuffle(pos)
        else:
            pos = transitions.move(pos, action.src, action.dst, count=1)
        if profile.autoplay:
            pos = transitions.autoplay(profile, pos)[0]
    return pos


def choices(profile: Profile, pos: Position, pile_moves: list[Action], *, prune: bool = True) -> list[Step]:
    """The steps searched from a position that is not over: a proved safe move alone, or every
    legal move (as ``canon.steps`` groups them), then the reshuffle while one is left."""
    from crescent_ref.solver.canon import steps

    safe = safe_move(profile, pos, pile_moves) if prune else None
    if safe is not None:
        return [(safe,)]
    return steps(profile, pos, pile_moves) + ([(RESHUFFLE,)] if pos.reshuffles else [])


def promise(pos: Position) -> int:
    """Larger is expanded sooner (search order only, never a verdict): cards home, reshuffles kept,
    and how shallow the cards the foundations take next lie in their piles."""
    depth: dict[int, int] = {}
    for pile in pos.piles:
        below = len(pile) - 1
        for i, card in enumerate(pile):
            if depth.get(card, DEEP) > below - i:
                depth[card] = below - i
    buried = 0
    for suit in range(4):
        if pos.up[suit] < KING:
            buried += min(depth.get(suit * 13 + pos.up[suit], DEEP), DEEP)
        if pos.down[suit] > ACE:
            buried += min(depth.get(suit * 13 + pos.down[suit] - 2, DEEP), DEEP)
    return pos.foundation_count() * 8 + pos.reshuffles * 24 - 2 * buried


def depth_first(pos: Position) -> int:
    """An alternative order (later positions first), for re-proving an answer another way."""
    return 0


Order = Callable[[Position], int]
ORDERS: dict[str, Order] = {"promise": promise, "depth-first": depth_first}


@dataclass(slots=True)
class Search:
    """One solve in progress (see the module doc)."""

    profile: Profile
    budget: Budget
    prune: bool = True
    order: Order = promise
    tick: Callable[[int], object] | None = None  # told the node count now and then (progress)
    parents: dict[bytes, tuple[bytes, Step]] = field(default_factory=dict)
    frontier: list[tuple[int, int, bytes, Position]] = field(default_factory=list)
    nodes: int = 0
    started: float = field(default_factory=time.process_time)
    ticks: itertools.count[int] = field(default_factory=itertools.count)

    def run(self, start: Position) -> Answer:
        """Search from ``start``."""
        status, _ = self.judge(start)
        if status in ("won", "lost"):
            return self.answer("winnable" if status == "won" else "not winnable")
        root = key(self.profile, start)
        self.parents[root] = (b"", ())
        self.push(root, start)
        return self.loop()

    def judge(self, pos: Position) -> tuple[str, list[Action]]:
        moves = movegen.pile_moves(self.profile, pos)
        return status_of(self.profile, pos, moves), moves

    def push(self, pos_key: bytes, pos: Position) -> None:
        heapq.heappush(self.frontier, (-self.order(pos), -next(self.ticks), pos_key, pos))

    def loop(self) -> Answer:
        expanded = 0
        while self.frontier:
            _, _, pos_key, pos = heapq.heappop(self.frontier)
            won = self.expand(pos_key, pos)
            if won is not None:
                return self.answer("winnable", won)
            expanded += 1
            if expanded % CHECK_EVERY == 0:
                if self.tick is not None:
                    self.tick(self.nodes)
                if limit := self.exhausted():
                    return self.answer("unknown", limit=limit)
        return self.answer("not winnable")

    def expand(self, pos_key: bytes, pos: Position) -> bytes | None:
        """Generate the children of one position; the key of a won child, if any."""
        _, moves = self.judge(pos)
        for step in choices(self.profile, pos, moves, prune=self.prune):
            self.nodes += 1
            child = after(self.profile, pos, step)
            child_key = key(self.profile, child)
            if child_key in self.parents:
                continue
            self.parents[child_key] = (pos_key, step)
            status, _ = self.judge(child)
            if status == "won":
                return child_key
            if status != "lost" and not (self.prune and dead(self.profile, child)):
                self.push(child_key, child)
        return None

    def exhausted(self) -> str:
        """The budget that ran out, or an empty string."""
        if self.nodes >= self.budget.nodes:
            return "nodes"
        if len(self.parents) >= self.budget.stored:
            return "stored"
        return "seconds" if time.process_time() - self.started >= self.budget.seconds else ""

    def line_to(self, end: bytes) -> tuple[Action, ...]:
        steps: list[Step] = []
        while end:
            end, step = self.parents[end]
            steps.append(step)
        return tuple(a for step in reversed(steps) for a in step)

    def answer(self, verdict: Verdict, won: bytes = b"", limit: str = "") -> Answer:
        line = self.line_to(won) if won else ()
        return Answer(verdict, line, self.nodes, time.process_time() - self.started, len(self.parents),
                      self.profile.closed, limit)


def solve(game: Game, budget: Budget | None = None, *, prune: bool = True, order: str = "promise",
          tick: Callable[[int], object] | None = None) -> Answer:
    """Solve the game's current position with full information (closed deals too: ``thoughtful``).
    ``order`` names the search order (ORDERS); ``tick`` is told the node count now and then."""
    return Search(game.profile, budget or Budget(), prune, ORDERS[order], tick=tick).run(game.position)


def replay(game: Game, line: tuple[Action, ...]) -> str:
    """Play ``line`` on ``game`` (IllegalActionError if a step is refused); the final status."""
    for action in line:
        game.play(action)
    return game.status()
