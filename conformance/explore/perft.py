"""perft through an adapter: checks an implementation's move generation against spec/perft/.

The adapter needs the ``legal-moves`` capability. A node is reached by starting the game from the
root position and replaying the path; its actions are the adapter's legal moves plus ``reshuffle``
when one is left and the game is not over (spec/perft.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.adapter import Adapter
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


def node_actions(adapter: Adapter, state: dict[str, Any]) -> list[str]:
    """The actions perft counts at the adapter's current state."""
    moves = list(adapter.legal_moves())
    if state["reshuffles"] and state["status"] not in ("won", "lost"):
        moves.append("reshuffle")
    return moves


def adapter_perft(adapter: Adapter, profile: str, position: str, depth: int, path: tuple[str, ...] = ()) -> int:
    """Leaves at ``depth`` below the node reached by ``path`` from ``position``."""
    state = adapter.start(profile, position=position)
    for action in path:
        state = adapter.act(action).state
    todo = node_actions(adapter, state)
    if depth <= 1:
        return len(todo) if depth == 1 else 1
    return sum(adapter_perft(adapter, profile, position, depth - 1, (*path, a)) for a in todo)


def adapter_divide(adapter: Adapter, profile: str, position: str, depth: int) -> dict[str, int]:
    """Counts split by first action."""
    state = adapter.start(profile, position=position)
    return {a: adapter_perft(adapter, profile, position, depth - 1, (a,)) for a in node_actions(adapter, state)}


def check(adapter: Adapter, case: PerftCase) -> list[str]:
    """Differences between the adapter's counts and the case's, with a divide at the shallowest one."""
    for depth, expected in sorted(case.counts.items()):
        got = adapter_perft(adapter, case.profile, case.position, depth)
        if got != expected:
            return [f"{case.name} [{case.profile}] depth {depth}: expected {expected}, got {got}"]
    return []
