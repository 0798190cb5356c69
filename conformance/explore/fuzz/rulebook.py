"""Where a difference touches the rules: its rule area, the rules.md section, and a source quote.

Read from the spec data: reason codes to areas (spec/statements.yaml), areas to profile parameters
and their cited sources (spec/profiles.yaml), section titles (spec/rules.md).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

from crescent_ref.spec_files import load_yaml, spec_dir

SECTIONS = {
    "layout": "4", "closed": "4", "game-codes": "17", "piles": "6", "pile-limit": "6", "empty-piles": "7",
    "foundations": "8", "between-foundations": "9.1", "give-backs": "9.2", "hold": "10", "reshuffle": "11",
    "undo": "12", "tap": "13.1", "drop": "13.2", "autoplay": "14", "end-of-game": "15", "reasons": "16",
}
PARAMETERS = {
    "piles": "pile_wrap", "pile-limit": "pile_limit", "between-foundations": "between_foundations",
    "give-backs": "give_backs", "autoplay": "autoplay", "closed": "deal", "layout": "deal", "hold": "hold_double_fit",
    "undo": "undo_limit", "reshuffle": "reshuffles", "end-of-game": "stuck_when",
}
EXTRA_REASON_AREAS = {
    "game-over": "end-of-game", "undo-unavailable": "undo", "empty-source": "reasons", "same-place": "reasons",
    "hold-unavailable": "hold", "not-double-fit": "hold",
}


@functools.cache
def reason_areas() -> dict[str, str]:
    """Each reason code's rule area: the one most of its statements belong to."""
    counts: dict[str, Counter[str]] = {}
    for st in load_yaml("statements.yaml")["statements"]:
        if st.get("reason") and st.get("area"):
            counts.setdefault(st["reason"], Counter())[st["area"]] += 1
    return {**EXTRA_REASON_AREAS, **{r: c.most_common(1)[0][0] for r, c in counts.items()}}


def area_of_reason(reason: str | None) -> str:
    """The rule area a reason code belongs to (``reasons`` when unknown)."""
    return reason_areas().get(reason or "", "reasons")


@functools.cache
def section_titles() -> dict[str, str]:
    """``{"6": "Building on the piles", "9.1": ...}`` from the headings of spec/rules.md."""
    text = (spec_dir() / "rules.md").read_text(encoding="utf-8")
    return {m[1]: m[2].strip() for m in re.finditer(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$", text, re.M)}


def section(area: str) -> str:
    """``rules.md §6 Building on the piles`` for an area."""
    number = SECTIONS.get(area, "16")
    return f"rules.md §{number} {section_titles().get(number, '')}".rstrip()


@functools.cache
def messages() -> dict[str, str]:
    """The English message of each reason code."""
    return {r["code"]: r["en"] for r in load_yaml("reasons.yaml")["reasons"]}


def source(area: str, base: str, reason: str | None = None) -> dict[str, str] | None:
    """A cited source for the rule: the profile parameter's source, else a statement's quote."""
    param = PARAMETERS.get(area)
    if param:
        spec = load_yaml("profiles.yaml")["profiles"].get(base, {}).get("parameters", {}).get(param, {})
        if "source" in spec:
            return dict(spec["source"])
    return _statement_source(area, base, reason)


def _statement_source(area: str, base: str, reason: str | None) -> dict[str, str] | None:
    statements: list[dict[str, Any]] = load_yaml("statements.yaml")["statements"]
    mine = [s for s in statements if base in s.get("profiles", ()) and s.get("quote")]
    pick = next((s for s in mine if reason and s.get("reason") == reason), None)
    pick = pick or next((s for s in mine if s.get("area") == area and s.get("kind") == "rule"), None)
    return {"doc": pick["doc"], "section": pick["section"], "quote": pick["quote"]} if pick else None
