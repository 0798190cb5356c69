"""perft through an adapter: checks an implementation's move generation against spec/perft/.

The adapter needs the ``legal-moves`` capability. A node is reached by starting the game from the
root position and replaying the path; its actions are the adapter's legal moves plus ``reshuffle``
when one is left and the game is not over (spec/perft.md).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.adapter import Adapter, Call, Info, Reply, announce
from conformance.adapters.placing import placed
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.perft import actions, perft
from crescent_ref.profiles import Profile, get_profile
from crescent_ref.spec_files import spec_dir


@dataclass(frozen=True, slots=True)
class PerftCase:
    """A position, a profile, and the expected counts by depth."""

    name: str
    profile: str
    position: str
    counts: dict[int, int]


def cases(folder: Path | None = None) -> list[PerftCase]:
    """Every case of spec/perft/*.yaml, in file order."""
    found = []
    for path in sorted((folder or spec_dir() / "perft").glob("*.yaml")):
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
        for c in data["cases"]:
            for profile, counts in c["counts"].items():
                found.append(PerftCase(c["name"], profile, c["position"], {int(d): int(n) for d, n in counts.items()}))
    return found


class ActionRefused(Exception):
    """The implementation refused an action perft replays: one it counted, or a reshuffle counted for it."""

    def __init__(self, path: tuple[str, ...], reason: str | None) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"the implementation refused {path[-1]!r} after {' '.join(path[:-1]) or 'the start'} "
                         f"({reason or 'no reason'}), which it counted")  # fmt: skip


class NotAnAction(Exception):
    """The implementation accepted, as one it counted, an action the spec's notation cannot read."""

    def __init__(self, action: str) -> None:
        self.action = action
        super().__init__(f"the implementation counted and accepted {action!r}, which is not an action "
                         "(spec/notation.md)")  # fmt: skip


def replay(adapter: Adapter, profile: str, position: str, path: tuple[str, ...]) -> dict[str, Any]:
    """The state after starting from ``position`` and playing ``path``; ActionRefused when one is refused,
    a fault named with the request it was met by (``placed``)."""
    with placed("starting the game"):
        state = adapter.start(profile, position=position)
    for number, action in enumerate(path, 1):
        with placed(f"playing {' '.join(path[:number])}"):
            reply = adapter.act(action)
        if not reply.accepted:
            raise ActionRefused(path[:number], reply.reason)
        state = reply.state
    return state


def node_actions(adapter: Adapter, state: dict[str, Any], path: tuple[str, ...] = ()) -> list[str]:
    """The actions perft counts at the adapter's current state (reached by ``path``)."""
    with placed(f"asking the legal moves after {' '.join(path)}" if path else "asking the legal moves"):
        moves = list(adapter.legal_moves())
    if state["reshuffles"] and state["status"] not in ("won", "lost"):
        moves.append("reshuffle")
    return moves


def adapter_perft(
    adapter: Adapter, profile: str, position: str, depth: int, path: tuple[str, ...] = (), *, announced: bool = False
) -> int:
    """Leaves at ``depth`` below the node reached by ``path`` from ``position`` (every action replayed is
    checked accepted: ActionRefused). ``announced``: the node's calls were announced with its siblings'."""
    if not announced:
        announce(adapter, _node_calls(profile, position, path))
    state = replay(adapter, profile, position, path)
    todo = node_actions(adapter, state, path)
    if depth <= 1:
        return len(todo) if depth == 1 else 1
    children = [(*path, a) for a in todo]
    if depth == 2:  # the children are counted from their legal moves alone: all of theirs in one write
        announce(adapter, [call for child in children for call in _node_calls(profile, position, child)])
    return sum(adapter_perft(adapter, profile, position, depth - 1, c, announced=depth == 2) for c in children)


def _node_calls(profile: str, position: str, path: tuple[str, ...]) -> list[Call]:
    """The calls that reach a node and ask its legal moves: announced, an adapter that pipelines sends
    them in one write (``conformance.adapter.announce``); a refusal on the way drops the rest unread."""
    acts: list[Call] = [("act", {"action": action}) for action in path]
    return [("start", {"profile": profile, "position": position}), *acts, ("legal_moves", {})]


def adapter_divide(adapter: Adapter, profile: str, position: str, depth: int) -> dict[str, int]:
    """Counts split by first action."""
    state = adapter.start(profile, position=position)
    return {a: adapter_perft(adapter, profile, position, depth - 1, (a,)) for a in node_actions(adapter, state)}


class CountersFromReference:
    """An adapter whose states carry the reference's reshuffle counter on the same path, for an
    implementation that does not observe its own (no ``reshuffle-count``): perft counts a reshuffle
    where the declared rules leave one, and the acceptance check finds a game that refuses it."""

    def __init__(self, inner: Adapter, rules: Profile) -> None:
        self.inner, self.rules = inner, rules
        self.game: Game | None = None

    def info(self) -> Info:
        """The inner adapter's."""
        return self.inner.info()

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start both; the state with the reference's counter."""
        self.game = Game.deal(self.rules, code) if code else Game.from_text(self.rules, position or "")
        return self._counted(self.inner.start(profile, position=position, code=code))

    def act(self, action: str) -> Reply:
        """Play on both (the reference only when the implementation accepts)."""
        reply = self.inner.act(action)
        if reply.accepted and self.game is not None:
            _follow(self.game, action)
        return dataclasses.replace(reply, state=self._counted(reply.state))

    def _counted(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "reshuffles": self.game.position.reshuffles if self.game else 0}

    def legal_moves(self) -> list[str]:
        """The implementation's."""
        return self.inner.legal_moves()

    def message(self, reason: str, lang: str) -> str:
        """The implementation's."""
        return self.inner.message(reason, lang)

    def close(self) -> None:
        """Nothing of its own (the inner adapter is closed by who made it)."""


def _follow(game: Game, action: str) -> None:
    """Play on the reference an action the implementation accepted (NotAnAction when it is unreadable)."""
    try:
        game.apply(action)
    except NotationError:
        raise NotAnAction(action) from None


def check(adapter: Adapter, case: PerftCase, rules: Profile | None = None, reshuffle_count: bool = True) -> list[str]:
    """Differences between the adapter's counts and the case's, divided down at the shallowest one.

    ``rules``: the profile the implementation declares (with deviations); the expected counts are then
    the reference's under those rules, not the file's. ``reshuffle_count`` False: the implementation does
    not observe its reshuffle counter, so the reference's on the same path is used (CountersFromReference).
    """
    if not reshuffle_count:
        adapter = CountersFromReference(adapter, rules or get_profile(case.profile))
    expected_counts = case.counts if rules is None else _reference_counts(case, rules)
    try:
        _root_actions_accepted(adapter, case)
        return _counts_differ(adapter, case, expected_counts, rules)
    except ActionRefused as err:
        return [f"{case.name} [{case.profile}]: {err}", *_refused_lines(case, err.path, rules)]
    except NotAnAction as err:
        return [f"{case.name} [{case.profile}]: {err}"]


def _root_actions_accepted(adapter: Adapter, case: PerftCase) -> None:
    """Play each action counted at the root once (a reshuffle counted but refused is found at any depth)."""
    state = adapter.start(case.profile, position=case.position)
    for action in node_actions(adapter, state):
        replay(adapter, case.profile, case.position, (action,))


def _refused_lines(case: PerftCase, path: tuple[str, ...], rules: Profile | None) -> list[str]:
    game = _reference_node(case, rules, path[:-1])
    try:
        said = "accepts" if game.apply(path[-1], dry_run=True).accepted else "refuses it too"
    except NotationError:
        return ["  it is not an action (spec/notation.md)", f"  reference: {_play_line(case, path[:-1], rules)}"]
    return [f"  the reference {said}", f"  reference: {_play_line(case, path, rules)}"]


def _counts_differ(
    adapter: Adapter, case: PerftCase, expected_counts: dict[int, int], rules: Profile | None
) -> list[str]:
    for depth, expected in sorted(expected_counts.items()):
        got = adapter_perft(adapter, case.profile, case.position, depth)
        if got != expected:
            head = f"{case.name} [{case.profile}] depth {depth}: expected {expected}, got {got}"
            return [head, *shortest_difference(adapter, case, depth, rules)]
    return []


def _reference_counts(case: PerftCase, rules: Profile) -> dict[int, int]:
    return {depth: perft(Game.from_text(rules, case.position), depth) for depth in case.counts}


def _reference_node(case: PerftCase, rules: Profile | None, path: tuple[str, ...]) -> Game:
    game = Game.from_text(rules or case.profile, case.position)
    for action in path:
        game.apply(action)
    return game


def _adapter_node(adapter: Adapter, case: PerftCase, path: tuple[str, ...]) -> list[str]:
    return sorted(node_actions(adapter, replay(adapter, case.profile, case.position, path)))


def shortest_difference(adapter: Adapter, case: PerftCase, depth: int, rules: Profile | None = None) -> list[str]:
    """Divide by itself, breadth first, down to the shortest path of actions after which the actions
    counted differ (or, failing that, the deepest node whose counts differ)."""
    queue: collections.deque[tuple[tuple[str, ...], int]] = collections.deque([((), depth)])
    last: tuple[str, ...] = ()
    while queue:
        path, left = queue.popleft()
        last = path
        want = sorted(str(a) for a in actions(_reference_node(case, rules, path)))
        got = _adapter_node(adapter, case, path)
        if want != got:
            return _node_difference(case, path, want, got, rules)
        queue.extend(
            ((*path, a), left - 1) for a in want if left > 1 and _child_differs(adapter, case, rules, path, a, left)
        )
    return [f"  the counts differ below {' '.join(last) or 'the root'}, but no node's actions do"]


def _child_differs(
    adapter: Adapter, case: PerftCase, rules: Profile | None, path: tuple[str, ...], action: str, left: int
) -> bool:
    ours = perft(_reference_node(case, rules, (*path, action)), left - 1)
    return ours != adapter_perft(adapter, case.profile, case.position, left - 1, (*path, action))


def _node_difference(
    case: PerftCase, path: tuple[str, ...], want: list[str], got: list[str], rules: Profile | None = None
) -> list[str]:
    where = " ".join(path) or "(the root)"
    lines = [f"  shortest differing path: {where}"]
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    lines += [f"  missing actions: {', '.join(missing)}"] if missing else []
    lines += [f"  extra actions: {', '.join(extra)}"] if extra else []
    return [*lines, f"  reference: {_play_line(case, path, rules)}"]


def _play_line(case: PerftCase, path: tuple[str, ...], rules: Profile | None) -> str:
    """``crescent-ref play`` at this node, under the declared rules when there are any."""
    words = ["crescent-ref", "play", "--profile", case.profile, "--position", case.position]
    if rules is not None and "[" in rules.name:
        words += ["--deviations", json.dumps({case.profile.split("+")[0]: rules.changes()}, separators=(",", ":"))]
    return shlex.join([*words, *path])
