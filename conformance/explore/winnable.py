"""Winnable deals: check an implementation's claim that the deals of some game codes can be won.

For each code the reference solver (crescent_ref.solver) answers with full information. A code it
wins comes with a winning line: the line is played through the implementation's adapter (any
``conformance.adapter.Adapter``, in-process or over stdio), and the claim holds when every action
is accepted and the game ends ``won``. A code the solver proves not winnable is reported as such:
the claim is false whatever the implementation does. A code the solver cannot decide within its
budget is reported ``unknown``, never counted either way.

    crescent-conformance winnable --cmd "node implementations/crescent-js/bin/crescent-js.js" \\
        --profile app --codes CR1-N-BAAAAAA CR1-N-AAAAABA
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from conformance.adapter import Adapter
from crescent_ref.exits import FAILED, OK
from crescent_ref.game import Game
from crescent_ref.solver import Budget, solve

Finding = Literal["won", "not-won", "not-winnable", "unknown"]


@dataclass(frozen=True, slots=True)
class CodeCheck:
    """What became of one code: the finding, and a detail a person can act on."""

    code: str
    profile: str
    finding: Finding
    detail: str

    def __str__(self) -> str:
        return f"{self.code} {self.profile}: {self.finding} ({self.detail})"


def check_code(adapter: Adapter, profile: str, code: str, budget: Budget) -> CodeCheck:
    """Solve ``code`` on the reference and, when it is winnable, replay the line on ``adapter``."""
    answer = solve(Game.deal(profile, code), budget)
    if answer.verdict == "not winnable":
        return CodeCheck(code, profile, "not-winnable", f"proved: {answer.proof}")
    if answer.verdict == "unknown":
        return CodeCheck(code, profile, "unknown", f"the solver's {answer.limit} budget ran out")
    adapter.start(profile, code=code)
    status = ""
    for number, action in enumerate(answer.line, 1):
        reply = adapter.act(str(action))
        if not reply.accepted:
            return CodeCheck(code, profile, "not-won", f"action {number} {action} refused ({reply.reason})")
        status = str(reply.state.get("status", ""))
    if status != "won":
        return CodeCheck(code, profile, "not-won", f"after the {len(answer.line)}-action line the status is {status!r}")
    return CodeCheck(code, profile, "won", f"the solver's {len(answer.line)}-action line wins")


def check_codes(adapter: Adapter, profile: str, codes: Iterable[str], budget: Budget) -> list[CodeCheck]:
    """``check_code`` for every code, in order."""
    return [check_code(adapter, profile, code, budget) for code in codes]


def summary(checks: list[CodeCheck]) -> str:
    """One line: how many codes of each finding."""
    counts = {f: sum(c.finding == f for c in checks) for f in ("won", "not-won", "not-winnable", "unknown")}
    return "winnable check: " + ", ".join(f"{n} {f}" for f, n in counts.items())


def exit_code(checks: list[CodeCheck]) -> int:
    """OK when every claim was checked and held (won); FAILED when one failed (not-won,
    not-winnable) or was left undecided (unknown: nothing judged), as crescent_ref.exits has it."""
    return OK if all(c.finding == "won" for c in checks) else FAILED
