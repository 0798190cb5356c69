"""Which core a solve runs on: the compiled one (``csrc/*.c``) where it is built, else the Python one.

The compiled core restates, in C, the functions of the search's inner loop: ``movegen.pile_moves``
and ``foundation_moves``, ``game.status_of``, ``search.choices`` (``safe.safe_move`` and
``canon.steps``), ``canon.after`` (``transitions.move``, ``reshuffle``, ``autoplay``),
``canon.key``, ``orders.Promise`` (and ``orders.noise``), ``dead.witness`` and ``waits.stuck``, one
whole ``Search.expand``, and the loop itself (``search``: the frontier, the seen table, the budget,
``suits.py`` and ``last.py``'s one-suit rules). Each gives the Python function's answer in the same order, so a
search on it expands the same positions in the same order, with the same node counts and the same
lines (tests/solver/test_solver_fast.py); ``two.py`` and the text of the proofs stay in Python.

``CRESCENT_SOLVER_CORE`` chooses: ``auto`` (the default: compiled when it is built and covers the
profile), ``python`` (the pure-Python path, for re-proving an answer another way) or ``compiled``
(the compiled core or an error). The answer says which ran (``Answer.core``).
``CRESCENT_SOLVER_LOOP=python`` runs the compiled core's primitives under search.py's Python loop
(the way of the previous round, to compare or re-prove).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from crescent_ref.actions import MOVES, RESHUFFLE
from crescent_ref.cards import KING
from crescent_ref.errors import CrescentError
from crescent_ref.position import Position
from crescent_ref.profiles import Profile
from crescent_ref.solver.orders import Order, Promise, depth_first
from crescent_ref.transitions import scan_order

if TYPE_CHECKING:
    from crescent_ref.solver._core import Core as Core
    from crescent_ref.solver.search import Answer, Search

try:
    from crescent_ref.solver import _core
except ImportError as err:  # not built (no compiler at install time): the Python path
    _core = None  # type: ignore[assignment]
    MISSING = f"the compiled core is not built ({err})"
else:
    MISSING = ""

ENV = "CRESCENT_SOLVER_CORE"
LOOP_ENV = "CRESCENT_SOLVER_LOOP"  # "python": the compiled core's primitives under the Python loop
LOOP = os.environ.get(LOOP_ENV, "compiled").strip().lower() != "python"  # the search loop in C (Core.search)
OUTCOMES = ("found", "ran dry", "nodes", "stored", "seconds")  # Core.search's first value, by index
CHOICES = ("auto", "python", "compiled")
PYTHON, COMPILED = "python", "compiled"
MAX_PILE = 104  # the compiled core's pile capacity: the whole double deck


class CoreUnavailable(CrescentError):
    """``CRESCENT_SOLVER_CORE=compiled`` was asked for and the compiled core cannot run (the caller's
    setting: build the extension or choose another core)."""


def choice(asked: str | None = None) -> str:
    """The core ``asked`` for, else by ``CRESCENT_SOLVER_CORE`` (``auto`` when unset)."""
    value = (os.environ.get(ENV, "auto") if asked is None else asked).strip().lower() or "auto"
    if value not in CHOICES:
        where = f"{ENV}={value!r}" if asked is None else f"core {value!r}"
        raise CoreUnavailable(f"{where}: expected one of {', '.join(CHOICES)}")
    return value


def refusal(profile: Profile) -> str:
    """Why the compiled core does not run ``profile`` (empty when it does)."""
    if _core is None:
        return MISSING
    if profile.pile_limit is not None and profile.pile_limit > MAX_PILE:
        return f"pile_limit {profile.pile_limit} is above the compiled core's {MAX_PILE}"
    return ""


_CORES: dict[Profile, Core] = {}


def core_for(profile: Profile, asked: str | None = None) -> Core | None:
    """The compiled core for ``profile``, or None for the Python path (by ``asked``, else
    ``CRESCENT_SOLVER_CORE``, and what the compiled core covers; ``compiled`` with no core raises
    CoreUnavailable)."""
    asked = choice(asked)
    if asked == PYTHON:
        return None
    why = refusal(profile)
    if why:
        if asked == COMPILED:
            raise CoreUnavailable(f"the compiled core was asked for, but {why}")
        return None
    found = _CORES.get(profile)
    if found is None:
        found = _CORES[profile] = build(profile)
    return found


def build(profile: Profile) -> Core:
    """A new compiled core for ``profile`` (``refusal`` must be empty)."""
    if _core is None:
        raise CoreUnavailable(MISSING)
    return _core.Core(
        wrap=profile.pile_wrap, limit=KING * 8 if profile.pile_limit is None else profile.pile_limit,
        between=profile.between_foundations, give_backs=profile.give_backs, autoplay=profile.autoplay,
        order=scan_order(profile.autoplay_order), hold=profile.hold_double_fit,
        stuck_no_move=profile.stuck_when == "no-move", position=Position, moves=MOVES, reshuffle=RESHUFFLE)


def name(core: Core | None) -> str:
    """``compiled`` or ``python``: which core a search with ``core`` runs on."""
    return PYTHON if core is None else COMPILED


def order_params(order: Order) -> tuple[int, ...] | None:
    """What the compiled core reads of an order: a Promise's weights (and its seed and spread when
    it has a spread: ``orders.noise``), or None for ``depth_first`` (TypeError for another order:
    the compiled core does not score it)."""
    if isinstance(order, Promise):
        weights = order.home, order.kept, order.buried, order.tangled
        return (*weights, order.seed, order.spread) if order.spread else weights
    if order is depth_first:
        return None
    raise TypeError(f"the compiled core scores Promise orders and depth_first, not {order!r}")


def expand(search: Search, core: Core, pos_key: bytes, pos: Position) -> bytes | None:
    """``Search.expand`` on the compiled core: the same children, recorded and queued the same way."""
    won, made = core.expand(pos, pos_key, search.parents, search.frontier, search.ticks,
                            order_params(search.order), search.prune)
    search.nodes += made
    return won


def _decide_nodes(profile: Profile) -> int:
    """onesuit.c's budget for this profile's one-suit questions (0: the general one-suit search)."""
    from crescent_ref.solver import search as settings

    return settings.SUIT_DECIDE_NODES if settings.SUIT_DECIDE_WRAP or not profile.pile_wrap else 0


def search(search: Search, core: Core, start: Position) -> Answer:
    """``Search.loop`` from ``start`` on the compiled core's own loop (``Core.search``): the same
    positions in the same order, the same nodes, verdict and line. The loop asks waits.py, suits.py
    and last.py in C too; only two.py (``Search.relaxed``, two reshuffles left) and pairs.py
    (``Search.pair_lost``, after the core's own rules) are asked of Python."""
    from crescent_ref.solver import search as settings
    from crescent_ref.solver.search import CHECK_EVERY, LAST_NODES, LOST_SIZE

    suits_here = search.prune and search.relax and not search.profile.autoplay
    most = 2 if suits_here and search.last and search.two_left else -1  # two.py stays in Python
    ask: Callable[[Position], tuple[bool, int]] | None = search.relaxed if most >= 0 else None
    if search.prune and search.relax and search.suit_rules()[0] is not search.profile:  # autoplay: unforced.py,
        ask, most = search.suit_ask, 2 if search.last and search.two_left else int(search.last)  # asked of Python
    covered = int(search.last) if suits_here else -1  # where this core runs the one-suit rules itself
    if ask is not None or (search.prune and search.relax and search.pairs):  # and pairs.py, when asked for
        ask = search.asker(ask, most, covered)
        most = max(most, int(search.last) if search.pairs else -1)
    outcome, line, made, met = core.search(
        start, order_params(search.order), search.prune, search.lost, ask, most,
        search.lost if search.keep_met else None, LOST_SIZE, search.budget.nodes, search.budget.stored,
        search.started, search.budget.seconds, CHECK_EVERY, search.tick, search.memo if suits_here else None,
        search.suit_verdict, search.last, search.waits_most, LAST_NODES, _decide_nodes(search.profile),
        settings.SUIT_DECIDE_COUNTED)
    search.nodes, search.met = made, met
    found = OUTCOMES[outcome]
    if found == "found":
        return search.answer("winnable", line=tuple(line or ()))
    if found == "ran dry":
        return search.exhausted_answer(met)
    return search.answer("unknown", limit=found)
