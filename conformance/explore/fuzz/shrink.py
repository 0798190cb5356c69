"""Shrinking a finding: fewest steps first, then a simpler position; deterministic and time-capped.

A candidate (given, actions) is kept when replaying it shows a difference with the same signature.
The passes, in order:

1. cut the actions after the first difference;
2. rebase: start from the reference's position after the first k actions and keep only the rest,
   trying the latest k first (so a difference already visible in a position gives zero steps);
3. delta debugging (ddmin) on the remaining action list;
4. rebase again when ddmin removed something (it can leave a shorter prefix to fold into the
   position), then set the move counter of the given position to 0;
5. quiet the position: keep the piles the actions and the difference name, refill the others with
   inert cards (tops that fit no foundation and no other top), so only the finding's cards can move.

One deadline bounds every pass together (``--shrink-seconds``); no try starts that would end past it
at the mean time of the tries so far, and each pass keeps the best candidate found by then. On a long list
(more than LONG actions: a history the difference needs, like 101 moves before the 101st undo)
rebase tries the last LONG cuts and then MAX_CHUNKS evenly spread ones, and ddmin stops at
MAX_CHUNKS chunks: each try replays the whole list, and finer cuts rarely pay there.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.table import Table
from crescent_ref.errors import NotationError
from crescent_ref.game import Game
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


@dataclass(frozen=True, slots=True)
class Case:
    """A game to replay: where it starts and the actions played."""

    given: dict[str, str]
    actions: tuple[str, ...]


Oracle = Callable[[Case], Difference | None]
LONG, MAX_CHUNKS = 40, 8


class Shrinker:
    """Reduces a failing case while ``oracle`` still shows the same difference."""

    def __init__(self, oracle: Oracle, reference: Profile, deadline: float, reserve: int = 0) -> None:
        self.oracle, self.reference = oracle, reference
        self.deadline = deadline  # time.monotonic() by which every pass together is done
        self.reserve = reserve  # replays the caller makes after shrinking, inside the same deadline
        self.tries, self.spent = 0, 0.0

    def mean(self) -> float:
        """The mean seconds a try took so far (0 before the first)."""
        return self.spent / self.tries if self.tries else 0.0

    def expired(self) -> bool:
        """The time cap is reached, or would be by one more try and the reserved replays (at the mean
        time a try took so far)."""
        return time.monotonic() + self.mean() * (1 + self.reserve) >= self.deadline

    def same(self, case: Case, signature: tuple[object, ...]) -> Difference | None:
        """The difference ``case`` shows, when it has ``signature``."""
        began = time.monotonic()
        self.tries += 1
        found = self.oracle(case)
        self.spent += time.monotonic() - began
        return found if found is not None and found.signature() == signature else None

    def shrink(self, case: Case, found: Difference) -> tuple[Case, Difference]:
        """The smallest case found within the time cap, and the difference it shows."""
        sig = found.signature()
        case = Case(case.given, case.actions[: found.step])
        case, found = self._rebase(case, found, sig)
        if not self.expired():
            before = case
            case, found = self._ddmin(case, found, sig)
            if case != before and not self.expired():
                case, found = self._rebase(case, found, sig)
        if not self.expired():
            case, found = self._zero_moves(case, found, sig)
        if not self.expired():
            case, found = self._quiet(case, found, sig)
        return case, found

    def _rebase(self, case: Case, found: Difference, sig: tuple[object, ...]) -> tuple[Case, Difference]:
        positions = self._positions(case)
        for k in _cuts(len(positions) - 1):
            if self.expired():
                break
            if positions[k] is None:
                continue
            candidate = Case({"position": positions[k] or ""}, case.actions[k:])
            if (seen := self.same(candidate, sig)) is not None:
                return candidate, seen
        return case, found

    def _positions(self, case: Case) -> list[str | None]:
        """The reference's position text before each action (None where a tap selection is pending)."""
        code = case.given.get("code")
        game = Game.deal(self.reference, code) if code else Game.from_text(self.reference, case.given["position"])
        texts: list[str | None] = [game.position.to_text()]
        for action in case.actions:
            game.apply(action)
            texts.append(None if game.selected is not None else game.position.to_text())
        return texts

    def _ddmin(self, case: Case, found: Difference, sig: tuple[object, ...]) -> tuple[Case, Difference]:
        actions, n = list(case.actions), 2
        most = MAX_CHUNKS if len(actions) > LONG else len(actions)
        while len(actions) >= 2 and n <= most and not self.expired():
            chunks = _split(actions, n)
            for k in range(len(chunks)):
                rest = [a for j, c in enumerate(chunks) if j != k for a in c]
                if (seen := self.same(Case(case.given, tuple(rest)), sig)) is not None:
                    actions, found, n = rest[: seen.step], seen, max(n - 1, 2)
                    break
                if self.expired():
                    break
            else:
                if n >= len(actions):
                    break
                n = min(n * 2, len(actions))
        return Case(case.given, tuple(actions)), found

    def _zero_moves(self, case: Case, found: Difference, sig: tuple[object, ...]) -> tuple[Case, Difference]:
        text = case.given.get("position", "")
        if " moves:0" in text or not text:
            return case, found
        words = [w if not w.startswith("moves:") else "moves:0" for w in text.split()]
        candidate = Case({"position": " ".join(words)}, case.actions)
        seen = self.same(candidate, sig)
        return (candidate, seen) if seen is not None else (case, found)


    def _quiet(self, case: Case, found: Difference, sig: tuple[object, ...]) -> tuple[Case, Difference]:
        """Keep the piles the case touches; refill the others with inert cards (open deals only)."""
        text = case.given.get("position")
        if not text or self.reference.closed:
            return case, found
        quieted = quiet_position(self.reference, Position.from_text(text), touched(case, found))
        if quieted is None or quieted == text:
            return case, found
        candidate = Case({"position": quieted}, case.actions)
        seen = self.same(candidate, sig)
        return (candidate, seen) if seen is not None else (case, found)


def touched(case: Case, found: Difference) -> set[int]:
    """The piles the actions and the difference name."""
    named = [*case.actions, *found.missing, *found.extra, *(f.name for f in found.fields)]
    return {int(m[1:]) - 1 for text in named for m in re.findall(r"\bp(?:1[0-6]|[1-9])\b", text)}


def quiet_position(profile: Profile, pos: Position, keep: set[int]) -> str | None:
    """``pos`` with every pile outside ``keep`` refilled with inert cards, or None when that fails."""
    table = Table(profile, random.Random(0))
    for suit in range(4):
        table.foundation(suit, pos.up[suit], pos.down[suit], pos.held[suit])
    table.reshuffles = pos.reshuffles
    for index in sorted(keep):
        table.pile(list(pos.piles[index]), at=index)
    empties = sum(1 for i, p in enumerate(pos.piles) if not p and i not in keep)
    try:
        quiet = table.position(inert=True, empty=empties)
    except NotationError:
        return None
    return quiet._replace(moves=pos.moves).to_text()


def _cuts(n: int) -> list[int]:
    """Where to rebase a list of ``n`` actions, latest first: every one of the last LONG, then every
    n/MAX_CHUNKS-th (a long list is usually a history the difference needs, and no cut works)."""
    last = list(range(n, max(n - LONG, 0), -1))
    spread = [n * j // MAX_CHUNKS for j in range(MAX_CHUNKS - 1, 0, -1)]
    return list(dict.fromkeys(k for k in last + spread if k > 0))


def _split(items: Sequence[str], n: int) -> list[list[str]]:
    size, extra = divmod(len(items), n)
    chunks, at = [], 0
    for k in range(n):
        width = size + (1 if k < extra else 0)
        chunks.append(list(items[at : at + width]))
        at += width
    return [c for c in chunks if c]
