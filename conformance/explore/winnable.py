"""Winnable deals: check an implementation's claim that the deals of some game codes can be won.

For each code the reference solver (crescent_ref.solver) answers with full information. A code it
wins comes with a winning line: the line is played through the implementation's adapter (any
``conformance.adapter.Adapter``, in-process or over stdio), and the claim holds when every action
is accepted and the table shows the win: the line replayed on the reference ends won with every
card on the foundations, and the state the implementation reports after the last action has the
same foundations (each one finished), no card left in a pile and the status ``won``. The
implementation's word alone (a ``won`` status) is not taken. A code the solver proves not winnable is reported as such:
the claim is false whatever the implementation does. A code the solver cannot decide within its
budget is reported ``unknown``, never counted either way.

    crescent-conformance winnable --cmd "node implementations/crescent-js/bin/crescent-js.js" \\
        --profile app --codes CR1-N-BAAAAAA CR1-N-AAAAABA
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from conformance.adapter import Adapter, AdapterError, Info, announce
from conformance.adapters.placing import again_alone, placed
from conformance.contract import Contract
from crescent_ref.exits import FAILED, OK
from crescent_ref.game import Game
from crescent_ref.profiles import Profile
from crescent_ref.solver import Budget, solve
from crescent_ref.state_json import game_state

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


def check_code(
    adapter: Adapter, profile: str, code: str, budget: Budget, contract: Contract | None = None
) -> CodeCheck:
    """Solve ``code`` on the reference and, when it is winnable, replay the line on ``adapter``.

    ``contract``: the solver plays the rules it declares (deviations included), and an implementation
    without ``game-codes`` starts from the position the code deals.
    """
    contract = contract or Contract(Info("?", "", "?", (), capabilities=frozenset({"game-codes"})))
    rules = contract.rules(profile)
    answer = solve(Game.deal(rules, code), budget)
    if answer.verdict == "not winnable":
        return CodeCheck(code, profile, "not-winnable", f"proved: {answer.proof}")
    if answer.verdict == "unknown":
        return CodeCheck(code, profile, "unknown", f"the solver's {answer.limit} budget ran out")
    line = [str(action) for action in answer.line]
    reference = _replayed(rules, code, line)
    if reference is None:
        return CodeCheck(code, profile, "unknown", "the solver's line does not win on the reference (a solver bug)")
    try:
        start = {"code": code} if contract.deals_codes() else {"position": Game.deal(rules, code).position.to_text()}
        played, unrepeated = again_alone(adapter, lambda: _play(adapter, profile, start, line))
    except AdapterError as err:  # an adapter fault is this code's result, not the end of the command
        return CodeCheck(code, profile, "not-won", f"the adapter failed: {err.message}")
    if unrepeated:
        return CodeCheck(code, profile, "not-won", "a crash or hang met with the line sent together did not repeat "
                         "when it was played again a request at a time")  # fmt: skip
    if isinstance(played, str):
        return CodeCheck(code, profile, "not-won", played)
    short = _short_of_win(played, reference)
    if short:
        return CodeCheck(code, profile, "not-won", f"after the {len(line)}-action line {short}")
    return CodeCheck(code, profile, "won", f"the solver's {len(line)}-action line wins, every card home")


def _play(adapter: Adapter, profile: str, start: dict[str, str], line: list[str]) -> dict[str, Any] | str:
    """The implementation's state after the line (from a code or the position it deals), or why the line
    did not get through. The calls are announced: an adapter that pipelines sends the line in one write."""
    announce(adapter, [("start", {"profile": profile, **start}), *(("act", {"action": a}) for a in line)])
    with placed("starting the game"):
        adapter.start(profile, **start)
    state: dict[str, Any] = {}
    for number, action in enumerate(line, 1):
        with placed(f"action {number} ({action})"):
            reply = adapter.act(action)
        if not reply.accepted:
            return f"action {number} {action} refused ({reply.reason})"
        state = reply.state
    return state


def _replayed(rules: Profile, code: str, line: list[str]) -> dict[str, Any] | None:
    """The reference's state after ``line``, when every action is accepted and it ends won, cards all home."""
    game = Game.deal(rules, code)
    if not all(game.apply(action).accepted for action in line):
        return None
    state = game_state(game)
    won = state["status"] == "won" and not any(state["piles"]) and not state["held"]
    return state if won else None


def _foundation_top(key: str, top: Any) -> str:
    """A foundation as the state reports it: its top card, or that it is missing."""
    return f"{key} missing" if top is None else f"{key} at {top}"


def _short_of_win(state: dict[str, Any], reference: dict[str, Any]) -> str:
    """What the implementation's final state lacks of the reference's won table ("" when nothing)."""
    foundations = state.get("foundations")
    if not isinstance(foundations, dict):
        return "the reported state has no foundations to check the win on"
    unfinished = sorted(k for k, top in reference["foundations"].items() if foundations.get(k) != top)
    if unfinished:
        shown = ", ".join(_foundation_top(k, foundations.get(k)) for k in unfinished[:4])
        return f"{len(unfinished)} foundation(s) are not finished ({shown}; each should end at its last card)"
    piles = state.get("piles")
    if piles is not None and (not isinstance(piles, list) or any(piles)):
        return f"cards are left in the piles ({_count(piles)} of them)"
    if "foundation_cards" in state and state["foundation_cards"] != reference["foundation_cards"]:
        return f"foundation_cards is {state['foundation_cards']!r}, not {reference['foundation_cards']}"
    if state.get("status") != "won":
        return f"the cards are home but the status is {state.get('status')!r}"
    return ""


def _count(piles: Any) -> str:
    if not isinstance(piles, list):
        return "unreadable"
    return str(sum(len(p) if isinstance(p, list) else 1 for p in piles))


def check_codes(adapter: Adapter, profile: str, codes: Iterable[str], budget: Budget) -> list[CodeCheck]:
    """``check_code`` for every code, in order."""
    return [check_code(adapter, profile, code, budget) for code in codes]


def summary(checks: list[CodeCheck], title: str = "") -> str:
    """One line: how many codes of each finding (``title``: the implementation, as its contract names it)."""
    counts = {f: sum(c.finding == f for c in checks) for f in ("won", "not-won", "not-winnable", "unknown")}
    of = f" of {title}" if title else ""
    return f"winnable check{of}: " + ", ".join(f"{n} {f}" for f, n in counts.items())


def exit_code(checks: list[CodeCheck]) -> int:
    """OK when every claim was checked and held (won); FAILED when one failed (not-won,
    not-winnable) or was left undecided (unknown: nothing judged), as crescent_ref.exits has it."""
    return OK if all(c.finding == "won" for c in checks) else FAILED
