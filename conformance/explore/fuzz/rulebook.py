"""The rules a finding can name: one entry per rule, its area, and the statements that state it.

A diagnosis (diagnose.py) ends in one ``Rule`` of ``RULES``; the finding's title names the rule and
its area, and its source is the first statement of the rule listed for the profile (a statement of
spec/statements.yaml whose ``profiles`` name the profile's base or one of its variants), else the
rule's interpretation. Findings are grouped by rule (one finding per rule in a run), and
``--ignore rule:ID`` looks past one. Reason codes, areas and section titles come from the spec data.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from crescent_ref.spec_files import load_yaml, spec_dir

SECTIONS = {
    "layout": "4", "closed": "4", "game-codes": "17", "piles": "6", "pile-limit": "6", "empty-piles": "7",
    "foundations": "8", "between-foundations": "9.1", "give-backs": "9.2", "hold": "10", "reshuffle": "11",
    "undo": "12", "tap": "13.1", "drop": "13.2", "autoplay": "14", "end-of-game": "15", "reasons": "16",
}
EXTRA_REASON_AREAS = {
    "game-over": "end-of-game", "undo-unavailable": "undo", "empty-source": "reasons", "same-place": "reasons",
    "hold-unavailable": "hold", "not-double-fit": "hold",
}


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule a difference can break: id, area, the rule in our words, where it is stated."""

    id: str
    area: str
    says: str
    statements: tuple[str, ...] = ()
    interpretation: str = ""


# fmt: off
RULES: tuple[Rule, ...] = (
    Rule("top-card", "piles", "only the top card of a pile can move",
         ("000-moves-02", "003-moves-02", "001-layout-07", "001-glossary-05")),
    Rule("pile-suit", "piles", "a card goes onto a pile only on a card of its suit",
         ("000-moves-03", "003-moves-03", "001-moves-05", "001-glossary-06")),
    Rule("pile-rank", "piles", "a card goes onto a pile only on a card one rank above or below it",
         ("000-moves-04", "003-moves-04", "001-moves-05", "001-glossary-06")),
    Rule("pile-wrap", "piles", "whether King and Ace of a suit are neighbours on the piles",
         ("000-moves-06", "003-moves-06", "001-moves-08", "001-versions-11", "001-versions-12"),
         "I-HOFFMANN-SEQUENCE"),
    Rule("empty-piles", "empty-piles", "an emptied pile stays empty: no card goes onto it",
         ("000-empty-02", "003-empty-02", "001-moves-12", "000-traditional-05", "001-versions-31"), "I-EMPTY-PILES"),
    Rule("pile-limit", "pile-limit", "a pile holds at most 13 cards in the app, and has no limit elsewhere",
         ("000-moves-08", "003-moves-08"), "I-PILE-LIMIT"),
    Rule("foundation-suit", "foundations", "a foundation takes only cards of its own suit",
         ("000-foundations-02", "000-foundations-04", "003-foundations-03", "001-moves-01")),
    Rule("foundation-sequence", "foundations",
         "a foundation takes the next rank only (up from the Ace, down from the King)",
         ("000-foundations-01", "000-foundations-03", "003-foundations-01", "001-moves-01", "001-glossary-02")),
    Rule("foundation-wrap", "foundations", "foundations do not wrap: a finished foundation takes no more cards",
         ("000-foundations-05", "000-foundations-06", "003-foundations-04", "001-moves-09")),
    Rule("base-locked", "between-foundations", "the base Ace or King of a foundation never moves",
         ("000-foundations-09", "003-foundations-07", "001-variants-06"), "I-BETWEEN-FOUNDATIONS"),
    Rule("between-foundations", "between-foundations",
         "a top card crosses to the other foundation of its suit only where allowed, and only when it follows that "
         "foundation's top",
         ("000-foundations-08", "003-foundations-06", "001-moves-14", "001-versions-20", "001-variants-05"),
         "I-BETWEEN-FOUNDATIONS"),
    Rule("give-backs", "give-backs", "a card on a foundation goes back to a pile only with give-backs",
         ("000-foundations-07", "003-foundations-05", "001-moves-13", "001-variants-07"), "I-HOFFMANN-SILENT"),
    Rule("give-back-target", "give-backs", "a given-back card lands on a pile by the pile building rule",
         ("001-variants-07",), "I-GIVE-BACK-TARGET"),
    Rule("hold", "hold", "in 1892 a card that fits both foundations is held between the rows",
         ("001-versions-24",), "I-HOFFMANN-HOLD"),
    Rule("double-fit", "foundations", "elsewhere a card that fits both foundations may go on either",
         ("001-moves-15", "001-versions-25"), "I-DOUBLE-FIT-CHOICE"),
    Rule("reshuffle-effect", "reshuffle", "a reshuffle moves the bottom card of every pile of two or more to its top",
         ("000-reshuffle-01", "003-reshuffle-01", "001-reshuffle-01", "001-glossary-08")),
    Rule("reshuffles", "reshuffle", "a game has three reshuffles; once they are used a reshuffle is refused",
         ("000-reshuffle-03", "003-reshuffle-03", "001-reshuffle-05", "001-variants-01", "001-glossary-09")),
    Rule("reshuffle-any-time", "reshuffle", "a reshuffle may be used at any time, even while moves remain",
         ("001-reshuffle-06",), "I-STUCK"),
    Rule("reshuffle-counter", "reshuffle", "a reshuffle does not count on the move counter",
         ("000-reshuffle-06", "003-reshuffle-06")),
    Rule("turn-up", "closed", "in a closed deal a face-down card turns face up when it is uncovered or reshuffled up",
         ("000-traditional-12", "001-variants-04"), "I-CLOSED-TURNUP"),
    Rule("deal", "layout", "a game code deals the same layout everywhere; the deal is face up or closed by profile",
         ("000-features-08", "003-features-08", "001-versions-03", "000-traditional-11"), "I-DEAL"),
    Rule("undo-limit", "undo", "undo takes back at most the 100 latest moves",
         ("000-features-05", "003-features-05"), "I-UNDO-SCOPE"),
    Rule("undo-available", "undo", "only the app has undo", ("000-features-05",), "I-UNDO-SCOPE"),
    Rule("undo-counter", "undo", "each undo lowers the move counter by one",
         ("000-features-06", "003-features-06")),
    Rule("undo-reshuffle", "undo", "a reshuffle clears the undo history",
         ("000-features-07", "003-features-07", "000-reshuffle-07"), "I-UNDO-AFTER-RESHUFFLE"),
    Rule("undo-after-loss", "undo", "once the game is stuck, undo takes back the last move and play goes on",
         ("000-end-03", "003-end-03"), "I-GAME-OVER"),
    Rule("move-counter", "piles", "every move the player makes counts one on the move counter",
         ("000-features-10", "003-features-09")),
    Rule("won", "end-of-game", "the game is won when all 104 cards are on the foundations, and not before",
         ("000-end-01", "003-end-01", "001-end-01", "001-intro-01")),
    Rule("stuck", "end-of-game", "the game is stuck when no move can be made: lost with no reshuffle left, "
         "else waiting for one", ("000-end-02", "003-end-02", "001-end-03", "001-end-04"), "I-STUCK"),
    Rule("game-over", "end-of-game", "once the game is won or lost every action but undo is refused",
         ("001-end-05",), "I-GAME-OVER"),
    Rule("tap", "tap", "a tap moves a card that fits one place only; otherwise it selects the pile",
         ("000-features-01", "000-features-02", "003-features-01", "003-features-02"), "I-TAP"),
    Rule("drop", "drop", "a dropped card goes to a foundation of its suit that takes it (the Ace foundation first)",
         ("000-features-04", "003-features-04"), "I-DROP"),
    Rule("autoplay", "autoplay", "only 001's game moves cards by itself: after the deal and each accepted action",
         ("001-reshuffle-07",), "I-AUTOPLAY-SCOPE"),
    Rule("reason-order", "reasons", "the reason given is the first that applies, in the order of spec/reasons.yaml",
         ("000-moves-09", "000-moves-12", "000-moves-13", "003-moves-09"), "I-REASON-ORDER"),
    Rule("engine-fault", "reasons", "an implementation answers every request (no crash, hang or garbage)"),
    Rule("refused-position", "reasons", "an implementation loads every valid position it is given"),
    Rule("flaky", "reasons", "the same game played twice gives the same answers"),
)
# fmt: on
BY_ID = {r.id: r for r in RULES}


def rule(rule_id: str) -> Rule:
    """The rule called ``rule_id`` (KeyError for an unknown one)."""
    return BY_ID[rule_id]


@functools.cache
def statements() -> dict[str, dict[str, Any]]:
    """Every statement of spec/statements.yaml by id."""
    return {s["id"]: s for s in load_yaml("statements.yaml")["statements"]}


def stating(found: Rule, profile: str, reason: str | None = None) -> list[str]:
    """The rule's statements that speak of ``profile`` (its base or a variant), in the rule's order, those
    giving ``reason`` first; with none of those, the first the spec still has."""
    parts = set(profile.split("[")[0].split("+"))
    known = statements()
    present = [s for s in found.statements if s in known]
    mine = [s for s in present if parts & set(known[s].get("profiles", ()))] or present[:1]
    return sorted(mine, key=lambda s: reason is None or known[s].get("reason") != reason)


def cite(found: Rule, profile: str, reason: str | None = None) -> tuple[dict[str, str] | None, tuple[str, ...]]:
    """The source quote of the rule for ``profile`` (the first statement that states it, one giving
    ``reason`` first) and its statement id."""
    ids = stating(found, profile, reason)
    if not ids:
        return None, ()
    first = statements()[ids[0]]
    return {"doc": first["doc"], "section": first["section"], "quote": first["quote"]}, tuple(ids[:1])


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
