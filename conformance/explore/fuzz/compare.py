"""One difference between the reference and the implementation, and how to tell one from another.

Kinds: ``reply`` (accepted/refused or the reason differ), ``state`` (named fields differ, both values
given), ``legal-moves`` (a set difference: missing, extra), ``refused`` (the implementation will not
load a position the reference accepts), ``fault`` (it crashed, hung or wrote garbage), ``flaky`` (the
same game played twice gave different answers). ``ignored`` is a difference the user told fuzz to
look past: the game ends there, with no finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from conformance.adapter import Reply
from conformance.explore.fuzz.observe import Observed
from conformance.judging.state import canonical_action
from crescent_ref.actions import place_text
from crescent_ref.game import Outcome
from crescent_ref.position import join_pile

Kind = Literal["reply", "state", "legal-moves", "refused", "fault", "flaky", "ignored"]


@dataclass(frozen=True, slots=True)
class FieldDiff:
    """One differing part of the state: its name (``undo``, ``p3``), its field, both sides' values."""

    name: str
    field: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.name}: reference {_show(self.expected)}, implementation {_show(self.actual)}"


def _show(value: Any) -> str:
    return "none" if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Difference:
    """What differed, after which action (``step``: actions played, 0 = the given position)."""

    kind: Kind
    step: int
    action: str | None = None
    expected: str = ""
    actual: str = ""
    fields: tuple[FieldDiff, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    message: str = ""
    reasons: tuple[str | None, str | None] = (None, None)
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def signature(self) -> tuple[Any, ...]:
        """What makes two differences the same one (for shrinking and folding duplicates)."""
        if self.kind == "reply":
            return (self.kind, self.expected, self.actual)
        if self.kind == "state":
            return (self.kind, tuple(sorted({f.field for f in self.fields})))
        if self.kind == "legal-moves":
            return (self.kind, bool(self.missing), bool(self.extra))
        return (self.kind,)

    def __str__(self) -> str:
        where = f"after {self.action}" if self.action else "in the given position"
        if self.kind == "reply":
            return f"{self.action}: the reference {self.expected}, the implementation {self.actual}"
        if self.kind == "state":
            return f"{where}: " + "; ".join(str(f) for f in self.fields)
        if self.kind == "legal-moves":
            return f"{where}: legal moves differ: missing {_moves(self.missing)}; extra {_moves(self.extra)}"
        return self.message


def _moves(moves: tuple[str, ...]) -> str:
    return ", ".join(moves) if moves else "none"


def verdict(accepted: bool, reason: str | None) -> str:
    """``accepts`` or ``refuses (reason)``."""
    return "accepts" if accepted else f"refuses ({reason})" if reason else "refuses"


def compare_reply(step: int, action: str, out: Outcome, reply: Reply, seen: Observed) -> Difference | None:
    """A reply difference (or an ignored one), else None. The effect (select, move, ...) and the card
    moves made are compared where the implementation observes them (and reports an effect)."""
    want, got = seen.reason(out.reason), seen.reason(reply.reason)
    if out.accepted == reply.accepted and want == got:
        if not out.accepted or reply.effect is None or _same_effect(out, reply, seen):
            return None
        return Difference("reply", step, action, f"accepts ({_effect(out.effect, out.moves)})",
                          f"accepts ({_effect(reply.effect, reply.moves)})",
                          meta={"ref_moves": tuple(str(m) for m in out.moves), "impl_moves": tuple(reply.moves),
                                "impl_state": reply.state})
    if {out.reason, reply.reason} & seen.ignore.reasons:
        return Difference("ignored", step, action)
    return Difference("reply", step, action, verdict(out.accepted, want), verdict(reply.accepted, got),
                      reasons=(want, got), meta={"impl_state": reply.state, "impl_moves": tuple(reply.moves)})


def _same_effect(out: Outcome, reply: Reply, seen: Observed) -> bool:
    if seen.effect and out.effect != reply.effect:
        return False
    if not seen.card_moves:
        return True
    if len(out.moves) != len(reply.moves):
        return False
    texts = [str(m) for m in out.moves] if out.moves else []
    return texts == list(reply.moves) or texts == [canonical_action(r) for r in reply.moves]


def _effect(effect: str | None, moves: Sequence[object]) -> str:
    return f"{effect}: {' '.join(str(m) for m in moves)}" if moves else str(effect)


def compare_state(step: int, action: str | None, want: dict[str, Any], got: dict[str, Any], seen: Observed
                  ) -> Difference | None:
    """A state difference naming every differing part with both values, else None."""
    parts: list[FieldDiff] = []
    for key in seen.fields:
        expected = seen.status(want.get(key)) if key == "status" else want.get(key)
        actual = got.get(key)
        if expected != actual:
            parts += _parts(key, expected, actual, want, got)
    if not parts:
        return None
    if any(f.field == "status" and {f.expected, f.actual} & seen.ignore.statuses for f in parts):
        return Difference("ignored", step, action)
    return Difference("state", step, action, fields=tuple(parts))


def _parts(key: str, expected: Any, actual: Any, want: dict[str, Any], got: dict[str, Any]) -> list[FieldDiff]:
    if key in ("piles", "hidden") and isinstance(actual, list) and len(actual) == len(expected):
        return [FieldDiff(place_text(i), key, _pile(want, i), _pile(got, i))
                for i, (e, a) in enumerate(zip(expected, actual, strict=True)) if e != a]
    if key == "foundations" and isinstance(actual, dict):
        return [FieldDiff(f"top of {k}", key, v, actual.get(k)) for k, v in expected.items() if actual.get(k) != v]
    return [FieldDiff(key, key, expected, actual)]


def _pile(state: dict[str, Any], index: int) -> str:
    try:
        return join_pile(state["piles"][index], state.get("hidden", [0] * 16)[index])
    except (KeyError, IndexError, TypeError):
        return "?"


def compare_legal(step: int, action: str | None, want: list[str], got: list[str]) -> Difference | None:
    """A legal-move set difference (missing: the reference's only; extra: the implementation's only), else None."""
    if want == got:
        return None
    wanted, have = set(want), set(got)
    missing, extra = sorted(wanted - have, key=want.index), sorted(have - wanted)
    if not missing and not extra:
        return None
    return Difference("legal-moves", step, action, missing=tuple(missing), extra=tuple(extra))
