"""The exact solver: best-first graph searches over the engine's own moves, restarted in turn.

Every step uses the engine: ``movegen`` lists the legal moves, ``transitions`` carries them out
(and 001's autoplay), ``game.status_of`` judges the position. A reshuffle is a step like a move.

One ``Search`` keeps every position it has met (by its canonical key, ``canon.key``) with the step
that first reached it, and a frontier of positions still to expand, taken most promising first
(an order from ``orders``). The game has one player and no chance, so a position is won or not
whatever the path to it: expanding each key once is enough, and cycles (moves between foundations
make them) end at a seen key. Positions proved dead (``dead``: a locked card that can never be
placed; ``suits``: with no reshuffle left, a suit that cannot be won alone; ``last`` (and, when
asked, ``two``): the same with one or two reshuffles left; when asked, ``pairs``: two suits lost
together) are dropped like lost ones, and so are
the positions an exhausted one-suit search met (every one of them is proved not winnable: ``lost``, kept for the
whole solve). So each search is exact: ``winnable`` comes with the line to the first won position,
``not winnable`` means the frontier ran dry (every reachable position seen or proved dead, none
won).

``solve`` runs searches one after another with the orders of ``orders.PORTFOLIO``, each for a
slice of nodes that doubles each round (from the second round on with a seeded tie-break,
``orders.noise``), until one answers or the budget (nodes, seconds, stored
positions: the memory bound) is spent, which answers ``unknown``.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from crescent_ref import movegen
from crescent_ref.actions import RESHUFFLE, Action
from crescent_ref.game import Game, status_of
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver import fast, last, orders, pairs, suits, two, unforced, waits
from crescent_ref.solver.canon import after, key, steps
from crescent_ref.solver.dead import dead, explain
from crescent_ref.solver.orders import FIRST_SLICE, PORTFOLIO, Order, depth_first, noise, slices
from crescent_ref.solver.safe import safe_move

Verdict = Literal["winnable", "not winnable", "unknown"]
Step = tuple[Action, ...]  # one search step: a move, a reshuffle, or slides then a move (canon.py)
CHECK_EVERY = 64  # expansions between looks at the clock
SUIT_NODES = 3_000  # the budget of one suit's own search (suits.py)
SUIT_DECIDE_NODES = 30_000  # > 0: the compiled loop decides a one-suit position with no reshuffle left by onesuit.c's
# own exhaustive search within this many positions, in place of SUIT_NODES' general search (0: the general search).
# Chosen on the 34 training unknowns of hoffmann-1892 at 10 CPU s (docs/solver.md): the general search won 3, this
# 4 at 10,000, 7 at 30,000, 5 at 100,000 (counted); held out, 6 of 33 against 3
SUIT_DECIDE_COUNTED = True  # its positions count as the solve's nodes (and so in the restarts' slices), as the
# general one-suit search's nodes do; not counted, 10,000 won 3 of the 34 and 100,000 won 2
SUIT_DECIDE_WRAP = False  # onesuit.c also in the profiles with the pile wrap (app, morehead-1949 and their variants):
# measured only without it (hoffmann-1892), so off there; bench_solver.py --suit-decide turns it on everywhere
LAST_NODES = 3_000  # the budget of one suit's search before its last reshuffle (last.py)
TWO_NODES = 2_000  # the budget of one suit's search before its last two reshuffles (two.py)
LAST_FROM = 1  # rounds of restarts before it skip last.py (the first: its proofs cost more than an easy win)
TWO_FROM = 1_000_000  # two.py: never in the portfolio (measured: 10 app deals won in 1.5-6 s at 10 s each,
# 8 won in 33.6 CPU s with it from round two, 10 in 19.5 s without; it pruned nothing on the 8)
WAITS_MOST = 1  # waits.py on positions with at most this many reshuffles left (-1: never), every profile; with it in
# C (measured, 5 CPU s a deal, 8 unknowns of each 10 s run): hoffmann-1892 1 won with it, 0 without, at the same node
# rate (509,000 n/s against 511,000); app 3 won either way, in 4.7 M nodes against 6.6 M; at most 3 left won the same
LOST_SIZE = 1_000_000  # keys proved not winnable kept before the set is cleared
PAIRS_FROM = 1_000_000  # pairs.py in the portfolio from this search on (not yet: see docs/solver.md)
PAIR_NODES = 20_000  # the budget of one two-suit search (pairs.py), when asked (Search(pairs=True))
PAIR_LAST_NODES = 2_000  # the budget of one two-suit search before its last reshuffle (pairs.py)


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one solve: nodes (positions generated), seconds (CPU seconds of this process, so
    that a loaded machine does not shrink the budget), and positions stored by one search (with the
    frontier about 250 bytes each in the compiled loop, 530 in the Python one: the default keeps a
    solve near 0.9 GiB, 1.8 GiB)."""

    nodes: int = 500_000_000  # the compiled core makes 0.3 to 3.7 million a CPU second: the seconds bind first
    seconds: float = 60.0
    stored: int = 3_500_000


@dataclass(frozen=True, slots=True)
class Answer:
    """The verdict, the winning line (actions as ``crescent-ref play`` takes them), and the cost."""

    verdict: Verdict
    line: tuple[Action, ...] = ()
    nodes: int = 0
    seconds: float = 0.0  # CPU seconds
    stored: int = 0  # the most positions one search stored
    thoughtful: bool = False
    limit: str = ""  # for ``unknown``: the budget that ran out (nodes, seconds, stored)
    searches: int = 1  # searches run (restarts + 1)
    proof: str = ""  # for ``not winnable``: how it was proved
    core: str = fast.PYTHON  # which core ran the searches (fast.py): python or compiled

    def line_text(self) -> str:
        """The line in action notation, one space between actions."""
        return " ".join(str(a) for a in self.line)


def choices(profile: Profile, pos: Position, pile_moves: list[Action], *, prune: bool = True) -> list[Step]:
    """The steps searched from a position that is not over: a proved safe move alone, or every
    legal move (as ``canon.steps`` groups them), then the reshuffle while one is left."""
    safe = safe_move(profile, pos, pile_moves) if prune else None
    if safe is not None:
        return [(safe,)]
    return steps(profile, pos, pile_moves) + ([(RESHUFFLE,)] if pos.reshuffles else [])


@dataclass(slots=True)
class Search:
    """One best-first search (see the module doc). ``memo`` (one-suit answers) and ``lost`` (keys
    of positions proved not winnable) may be shared."""

    profile: Profile
    budget: Budget
    prune: bool = True
    order: Order = PORTFOLIO[0]
    relax: bool = True
    last: bool = True  # also the one-suit rule with one reshuffle left (last.py)
    two_left: bool = False  # and with two left (two.py; sound, but it costs more than it prunes)
    waits_most: int = -1  # cards that wait on each other (waits.py), up to this many reshuffles left
    pairs: bool = False  # two suits lost together (pairs.py), at most one reshuffle left (with ``last``)
    tick: Callable[[int], object] | None = None  # told the node count now and then (progress)
    core: fast.Core | None = None  # the compiled core (fast.py), or None: the Python path
    keep_met: bool = False  # an exhausted search adds every key it met to ``lost`` (the compiled loop)
    reasons: bool = True  # a start proved dead says why (off in the one-suit and two-suit searches: only their
    # verdicts are read; measured, hoffmann-1892 at 3 M nodes, 16 pairs: 1.04 times faster without the sentences)
    memo: dict[bytes, str] = field(default_factory=dict)
    lost: set[bytes] = field(default_factory=set)
    parents: dict[bytes, tuple[bytes, Step]] = field(default_factory=dict)
    frontier: list[tuple[int, int, bytes, Position]] = field(default_factory=list)
    nodes: int = 0
    met: int = 0  # positions the compiled loop met (its table is its own, not ``parents``)
    started: float = field(default_factory=time.process_time)
    ticks: itertools.count[int] = field(default_factory=itertools.count)

    def run(self, start: Position) -> Answer:
        """Search from ``start``."""
        status = self.judge(start)[0]
        if status in ("won", "lost"):
            return self.answer("winnable" if status == "won" else "not winnable", proof="the game is lost already")
        if self.prune and (why := self.dead_at_start(start)):
            return self.answer("not winnable", proof=f"dead at the start: {why}")
        if self.core is not None and fast.LOOP:
            return fast.search(self, self.core, start)
        root = key(self.profile, start)
        self.parents[root] = (b"", ())
        self.push(root, start)
        return self.loop()

    def dead_at_start(self, start: Position) -> str:
        """Why ``start`` is proved dead (dead.py, then waits.py), or an empty string; without
        ``reasons``, only which rule proved it (the same verdict, without the sentence's cost)."""
        if not self.reasons:
            return self.rule_at_start(start)
        if self.core is None:
            return explain(self.profile, start) or waits.explain(self.profile, start)
        if self.core.dead(start):
            return explain(self.profile, start)
        return waits.explain(self.profile, start) if self.core.waits(start) else ""

    def rule_at_start(self, start: Position) -> str:
        """Which rule proves ``start`` dead (dead.py, then waits.py), or an empty string: the
        questions ``dead_at_start`` asks, without the sentence."""
        if dead(self.profile, start) if self.core is None else self.core.dead(start):
            return "a locked card (dead.py)"
        if waits.dead(self.profile, start) if self.core is None else self.core.waits(start):
            return "cards that wait on each other (waits.py)"
        return ""

    def judge(self, pos: Position) -> tuple[str, list[Action]]:
        if self.core is not None:
            return self.core.status(pos), []  # the compiled expand lists the moves itself
        moves = movegen.pile_moves(self.profile, pos)
        return status_of(self.profile, pos, moves), moves

    def push(self, pos_key: bytes, pos: Position) -> None:
        """Queue a position; its moves are listed when it is expanded (most queued ones never are)."""
        score = self.order(pos) + noise(self.order, pos_key)
        heapq.heappush(self.frontier, (-score, -next(self.ticks), pos_key, pos))

    def loop(self) -> Answer:
        expanded = 0
        while self.frontier:
            _, _, pos_key, pos = heapq.heappop(self.frontier)
            status, moves = self.judge(pos)
            if status == "lost" or pos_key in self.lost or self.hopeless(pos):
                continue
            won = self.expand(pos_key, pos, moves)
            if won is not None:
                return self.answer("winnable", won)
            expanded += 1
            if expanded % CHECK_EVERY == 0:
                if self.tick is not None:
                    self.tick(self.nodes)
                if limit := self.exhausted():
                    return self.answer("unknown", limit=limit)
        return self.exhausted_answer(len(self.parents))

    def exhausted_answer(self, met: int) -> Answer:
        return self.answer("not winnable", proof=f"search space exhausted: {met} positions met, none won, "
                                                 "the rest proved dead")

    def hopeless(self, pos: Position) -> bool:
        """Proved dead (dead.py, waits.py, suits.py), when pruning."""
        if not self.prune:
            return False
        dead_here = dead(self.profile, pos) if self.core is None else self.core.dead(pos)
        return dead_here or self.relaxed(pos)[0]

    def relaxed(self, pos: Position) -> tuple[bool, int]:
        """Proved dead by waits.py or suits.py (the rules the compiled loop asks of Python), and
        the nodes that took (the one-suit searches')."""
        before = self.nodes
        found = (pos.reshuffles <= self.waits_most and waits.dead(self.profile, pos)) or self.suit_lost(pos)
        return found or self.pair_lost(pos), self.nodes - before

    def suit_ask(self, pos: Position) -> tuple[bool, int]:
        """``suit_lost`` and the nodes it made (the compiled loop's question where its own one-suit
        rules do not run: with autoplay, unforced)."""
        before = self.nodes
        return self.suit_lost(pos), self.nodes - before

    def suit_lost(self, pos: Position) -> bool:
        """Some suit is lost alone (suits.py, last.py, two.py), under ``suit_rules``."""
        if not self.relax:
            return False
        rules, suit_core = self.suit_rules()
        return suits.applies(rules, pos) and suits.some_suit_lost(
            rules, pos, self.solve_suit, self.memo, self.solve_last if self.last else None,
            self.solve_two if self.last and self.two_left else None, suit_core)

    def pair_lost(self, pos: Position) -> bool:
        """Some two suits are lost together (pairs.py), under ``suit_rules``, when ``pairs`` is on."""
        rules = self.suit_rules()[0]
        if not (self.pairs and self.relax and pairs.applies(rules, pos, self.last)):
            return False
        return pairs.some_pair_lost(rules, pos, self.solve_pair, self.solve_pair_last if self.last else None,
                                    self.memo)

    def asker(self, ask: Callable[[Position], tuple[bool, int]] | None, most: int,
              covered: int) -> Callable[[Position], tuple[bool, int]]:
        """The compiled loop's question with pairs.py after ``ask`` (asked up to ``most`` reshuffles
        left, but not up to ``covered``, where the compiled core ran those rules itself)."""
        def asked(pos: Position) -> tuple[bool, int]:
            before = self.nodes
            found = ask(pos)[0] if ask is not None and covered < pos.reshuffles <= most else False
            return found or self.pair_lost(pos), self.nodes - before  # ask's nodes are counted in self.nodes too
        return asked

    def solve_pair(self, part: Position) -> str:
        """A two-suit position with no reshuffle left (pairs.py), by a search with the one-suit rules
        on, within PAIR_NODES positions; what an exhausted one met joins ``lost``."""
        left = self.budget.seconds - (time.process_time() - self.started)
        if left <= 0:
            return "unknown"
        rules, suit_core = self.suit_rules()
        inner = Search(rules, Budget(nodes=PAIR_NODES, seconds=left), order=self.order, memo=self.memo,
                       lost=self.lost, core=suit_core, keep_met=True, waits_most=self.waits_most, reasons=False)
        answer = inner.run(part)
        self.nodes += answer.nodes
        if answer.verdict == "not winnable":
            self.remember_lost(inner.parents)
        return answer.verdict

    def solve_pair_last(self, part: Position, marks: tuple[bool, ...]) -> str:
        """A two-suit position with its last reshuffle (pairs.py, by last.py's search)."""
        rules, suit_core = self.suit_rules()
        verdict, made = last.solve(rules, part, marks, self.solve_pair_after, PAIR_LAST_NODES, suit_core)
        self.nodes += made
        return verdict

    def solve_pair_after(self, after: Position) -> str:
        if time.process_time() - self.started >= self.budget.seconds:
            return "unknown"
        return pairs.zero(self.suit_rules()[0], after, self.solve_pair, self.memo)

    def suit_rules(self) -> tuple[Profile, fast.Core | None]:
        """The profile and core of the one-suit searches: with autoplay, unforced (unforced.py)."""
        return unforced.relaxed(self.profile), unforced.core(self.profile, self.core)

    def solve_suit(self, part: Position) -> str:
        left = self.budget.seconds - (time.process_time() - self.started)
        if left <= 0:
            return "unknown"  # the budget is spent: the loop stops at its next look at the clock
        rules, suit_core = self.suit_rules()
        inner = Search(rules, Budget(nodes=SUIT_NODES, seconds=left), order=self.order, relax=False,
                       lost=self.lost, core=suit_core, keep_met=True, reasons=False)
        answer = inner.run(part)
        self.nodes += answer.nodes
        if answer.verdict == "not winnable":
            self.remember_lost(inner.parents)
        return answer.verdict

    def suit_verdict(self, part: Position) -> tuple[str, int]:
        """``solve_suit`` and the nodes it made (the compiled loop's question on a memo miss)."""
        before = self.nodes
        verdict = self.solve_suit(part)
        return verdict, self.nodes - before

    def solve_last(self, part: Position, marks: tuple[bool, ...]) -> str:
        """A one-suit position with its last reshuffle (last.py), within LAST_NODES positions."""
        rules, suit_core = self.suit_rules()
        verdict, made = last.solve(rules, part, marks, self.solve_after, LAST_NODES, suit_core)
        self.nodes += made
        return verdict

    def solve_two(self, part: Position, piles: two.Piles, free: tuple[bool, ...]) -> str:
        """A one-suit position with its last two reshuffles (two.py), within TWO_NODES positions."""
        verdict, made = two.solve(self.suit_rules()[0], part, piles, free, self.solve_one_left, TWO_NODES)
        self.nodes += made
        return verdict

    def solve_one_left(self, part: Position, marks: tuple[bool, ...]) -> str:
        """``two.py``'s question about a position after its first reshuffle (remembered, and
        "unknown" once the time budget is spent)."""
        if time.process_time() - self.started >= self.budget.seconds:
            return "unknown"
        return suits.one_left(part, marks, self.solve_last, self.memo)

    def solve_after(self, after: Position) -> str:
        """``last.py``'s question about a position after its reshuffle; "unknown" once the time
        budget is spent (remembered answers too, so that a long run of them cannot overshoot)."""
        if time.process_time() - self.started >= self.budget.seconds:
            return "unknown"
        return suits.zero(self.suit_rules()[0], after, self.solve_suit, self.memo)

    def remember_lost(self, met: dict[bytes, tuple[bytes, Step]]) -> None:
        """An exhausted search proves every position it met not winnable: each was expanded (a
        winnable one has a winnable child among those generated, so a win would have been met)
        or proved dead."""
        if len(self.lost) + len(met) > LOST_SIZE:
            self.lost.clear()
        self.lost.update(met)

    def expand(self, pos_key: bytes, pos: Position, moves: list[Action]) -> bytes | None:
        """Generate the children of one position; the key of a won child, if any."""
        if self.core is not None:
            return fast.expand(self, self.core, pos_key, pos)
        for step in choices(self.profile, pos, moves, prune=self.prune):
            self.nodes += 1
            child = after(self.profile, pos, step)
            child_key = key(self.profile, child)
            if child_key in self.parents:
                continue
            self.parents[child_key] = (pos_key, step)
            if child.won():
                return child_key
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
        found: list[Step] = []
        while end:
            end, step = self.parents[end]
            found.append(step)
        return tuple(a for step in reversed(found) for a in step)

    def answer(self, verdict: Verdict, won: bytes = b"", limit: str = "", proof: str = "",
               line: tuple[Action, ...] = ()) -> Answer:
        line = self.line_to(won) if won else line
        return Answer(verdict, line, self.nodes, time.process_time() - self.started, max(len(self.parents), self.met),
                      self.profile.closed, limit, proof=proof, core=fast.name(self.core))


ORDERS = ("portfolio", "depth-first")


def waits_most(profile: Profile) -> int:
    """The most reshuffles left at which the solve asks waits.py (WAITS_MOST; the rule itself never
    judges a profile with give-backs)."""
    return WAITS_MOST


def solve(game: Game, budget: Budget | None = None, *, prune: bool = True, order: str = "portfolio",
          tick: Callable[[int], object] | None = None, core: str | None = None) -> Answer:
    """Solve the game's current position with full information (closed deals too: ``thoughtful``).
    ``order``: ``portfolio`` (restarts, see the module doc) or ``depth-first`` (one search, for
    re-proving an answer another way); ``tick`` is told the node count now and then; ``core``: auto,
    python or compiled (fast.py; None: ``CRESCENT_SOLVER_CORE``)."""
    budget, compiled = budget or Budget(), fast.core_for(game.profile, core)
    if order == "depth-first":
        return Search(game.profile, budget, prune, depth_first, tick=tick, core=compiled,
                      waits_most=waits_most(game.profile), pairs=PAIRS_FROM <= 0).run(game.position)
    return Restarts(game.profile, budget, prune, tick, compiled, first=orders.first_slice(game.profile)).run(
        game.position)


@dataclass(slots=True)
class Restarts:
    """The portfolio: searches in turn, each for its slice, within one budget."""

    profile: Profile
    budget: Budget
    prune: bool
    tick: Callable[[int], object] | None
    core: fast.Core | None = None  # the compiled core (fast.py), or None: the Python path
    memo: dict[bytes, str] = field(default_factory=dict)  # one-suit answers hold for every order
    lost: set[bytes] = field(default_factory=set)  # so do positions proved not winnable
    orders: tuple[Order, ...] = PORTFOLIO  # the schedule of restarts (orders.slices)
    first: int = FIRST_SLICE
    spread: int | None = None  # the tie-break's spread from the second round on (None: orders.SPREAD)
    plan: Callable[[], Iterator[tuple[Order, int]]] | None = None  # another schedule (None: orders.slices)

    def run(self, start: Position) -> Answer:
        began, nodes, stored, count = time.process_time(), 0, 0, 0
        answer = Answer("unknown")
        spread = orders.SPREAD if self.spread is None else self.spread
        plan = slices(self.orders, self.first, spread) if self.plan is None else self.plan()
        for order, size in plan:
            left = Budget(min(size, self.budget.nodes - nodes), self.budget.seconds - (time.process_time() - began),
                          self.budget.stored)
            search = Search(self.profile, left, self.prune, order, tick=self.progress(nodes), memo=self.memo,
                            lost=self.lost, last=count >= LAST_FROM * len(self.orders),
                            two_left=count >= TWO_FROM, core=self.core,
                            waits_most=waits_most(self.profile), pairs=count >= PAIRS_FROM)
            answer = search.run(start)
            nodes, stored, count = nodes + answer.nodes, max(stored, answer.stored), count + 1
            if answer.verdict != "unknown" or answer.limit == "stored" or self.spent(nodes, began):
                break
        limit = answer.limit if answer.limit == "stored" else self.spent(nodes, began)
        return Answer(answer.verdict, answer.line, nodes, time.process_time() - began, stored, answer.thoughtful,
                      limit if answer.verdict == "unknown" else "", count, answer.proof, fast.name(self.core))

    def spent(self, nodes: int, began: float) -> str:
        if nodes >= self.budget.nodes:
            return "nodes"
        return "seconds" if time.process_time() - began >= self.budget.seconds else ""

    def progress(self, done: int) -> Callable[[int], object] | None:
        tick = self.tick
        return None if tick is None else (lambda n: tick(done + n))


def replay(game: Game, line: tuple[Action, ...]) -> str:
    """Play ``line`` on ``game`` (IllegalActionError if a step is refused); the final status."""
    for action in line:
        game.play(action)
    return game.status()
