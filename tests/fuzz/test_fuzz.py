"""Differential play finds deviations, shrinks and explains them, writes them as scenarios, and tells faults apart."""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.adapter import AdapterError, Info, Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.load import read_file
from conformance.explore.fuzz import FuzzConfig, FuzzReport, Ignore, fuzz
from conformance.judging.runner import run_scenario
from crescent_ref.errors import NotationError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mutants import BY_NAME, MutantAdapter


class WrongSuitReason(ReferenceAdapter):
    """Says wrong-rank where the rules say wrong-suit."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        return dataclasses.replace(reply, reason="wrong-rank") if reply.reason == "wrong-suit" else reply


class TwoFaults(WrongSuitReason):
    """Wrong-suit reported as wrong-rank, and a reshuffle that counts as a move."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        if action == "reshuffle" and reply.accepted:
            return dataclasses.replace(reply, state={**reply.state, "moves": reply.state["moves"] + 1})
        return reply


class Flaky(ReferenceAdapter):
    """Answers wrong-rank for wrong-suit on every other call: not deterministic."""

    calls = itertools.count()

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        if reply.reason == "wrong-suit" and next(self.calls) % 2:
            return dataclasses.replace(reply, reason="wrong-rank")
        return reply


class Picky(ReferenceAdapter):
    """Refuses to load any position given as text."""

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        if position:
            raise RuleError("I only deal from codes")
        return super().start(profile, code=code)


class Crashy(ReferenceAdapter):
    """Dies on any reshuffle."""

    def act(self, action: str) -> Reply:
        if action == "reshuffle":
            raise AdapterError("implementation exited (crash)", "stderr tail: boom")
        return super().act(action)


class NoCodes(ReferenceAdapter):
    """Declares no game codes, no undo (nor its count, protocol 2): and fails loudly if sent a code."""

    def info(self) -> Info:
        offered = super().info().capabilities - {"game-codes", "undo", "undo-count"}
        return dataclasses.replace(super().info(), capabilities=offered)

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        if code:
            raise AdapterError("sent a code without game-codes")
        return {**super().start(profile, position=position), "undo": 99}


def config(tmp_path: Path, **kw: Any) -> FuzzConfig:
    return FuzzConfig(**{"profile": "app", "games": 60, "steps": 20, "out": tmp_path, "max_findings": 1, **kw})


def kinds(report: FuzzReport) -> list[str]:
    return [f.difference.kind for f in report.findings]


def test_the_reference_agrees_with_itself(tmp_path: Path) -> None:
    report = fuzz(ReferenceAdapter, config(tmp_path, profile="hoffmann-1892", games=40))
    assert report.findings == [] and report.games == 40 and report.actions > 40


def test_a_deviation_is_found_shrunk_explained_and_written_as_a_scenario(tmp_path: Path) -> None:
    [finding] = fuzz(WrongSuitReason, config(tmp_path)).findings
    assert finding.difference.kind == "reply" and len(finding.case.actions) <= 2
    assert finding.diagnosis.rule == "reason-order" and finding.diagnosis.title.startswith("reasons: ")
    assert "the reference refuses (wrong-suit)" in finding.diagnosis.title and "rules.md §16" in finding.diagnosis.title
    assert finding.diagnosis.statements == ("000-moves-12",)  # the sentence giving the wrong-suit reason
    assert finding.path is not None
    [scenario] = read_file(finding.path)
    assert scenario.steps[-1].expect.reason == "wrong-suit"
    reference, mutant = ReferenceAdapter(), WrongSuitReason()
    assert run_scenario(reference, reference.info(), scenario, "app").verdict == "passed"
    assert run_scenario(mutant, mutant.info(), scenario, "app").verdict == "failed"


def test_the_same_seed_finds_the_same_game(tmp_path: Path) -> None:
    texts = []
    for run in ("a", "b"):
        [finding] = fuzz(WrongSuitReason, config(tmp_path / run, seed=7, shrink=False)).findings
        assert finding.path is not None
        texts.append(finding.path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_a_legal_move_difference_becomes_a_plain_step(tmp_path: Path) -> None:
    """Only legal-move differences are seen (a corner with no probes): the finding plays the missing move."""
    report = fuzz(lambda: MutantAdapter(BY_NAME["no_pile_wrap"]), config(tmp_path, corners=("wrap-piles",)))
    [finding] = report.findings
    assert finding.diagnosis.rule == "pile-wrap" and finding.difference.kind == "reply"
    assert "refuses (wrong-rank)" in finding.diagnosis.title and "onto K" in finding.diagnosis.title + "onto K"
    assert finding.path is not None and "legal_moves" not in finding.path.read_text(encoding="utf-8")
    assert finding.diagnosis.source is not None and finding.diagnosis.source["quote"]


def test_two_distinct_differences_get_two_scenarios(tmp_path: Path) -> None:
    report = fuzz(TwoFaults, config(tmp_path, games=200, max_findings=2))
    assert len(report.findings) == 2
    assert {f.diagnosis.area for f in report.findings} == {"reasons", "reshuffle"}
    assert len({f.path for f in report.findings}) == 2 and report.folded >= 1


def test_a_non_deterministic_implementation_is_named(tmp_path: Path) -> None:
    report = fuzz(Flaky, config(tmp_path, games=200))
    assert kinds(report) == ["flaky"] and "played again" in str(report.findings[0].difference)


def test_a_refused_position_is_one_finding_not_a_traceback(tmp_path: Path) -> None:
    report = fuzz(Picky, config(tmp_path))
    assert kinds(report) == ["refused"] and "I only deal from codes" in report.findings[0].diagnosis.title


def test_an_engine_fault_is_one_finding(tmp_path: Path) -> None:
    report = fuzz(Crashy, config(tmp_path, games=200, corners=("stuck",)))
    assert kinds(report) == ["fault"]
    assert report.findings[0].case.actions == ("reshuffle",) and "exited (crash)" in report.findings[0].diagnosis.title


def test_capabilities_are_honoured(tmp_path: Path) -> None:
    """No code without game-codes; no undo count compared without it (NoCodes reports a wrong one)."""
    report = fuzz(NoCodes, config(tmp_path, games=80, max_findings=3))
    assert report.findings == []


def test_an_ignored_difference_is_looked_past(tmp_path: Path) -> None:
    report = fuzz(WrongSuitReason, config(tmp_path, ignore=Ignore.parse(["reason:wrong-suit"])))
    assert report.findings == [] and report.games == 60


def test_a_bad_ignore_rule_names_itself() -> None:
    with pytest.raises(NotationError, match="colour:red"):
        Ignore.parse(["colour:red"])


@pytest.mark.parametrize(
    "name", ["pile_limit_12", "pile_limit_14", "no_pile_limit_in_app", "foundation_wrap", "unlimited_undo",
             "undo_limit_99", "won_one_card_early", "base_card_movable"],
)
def test_each_corner_mutant_is_found_within_a_small_budget(name: str, tmp_path: Path) -> None:
    mutant = BY_NAME[name]
    report = fuzz(lambda: MutantAdapter(mutant), config(tmp_path, profile=mutant.fuzz_profile, shrink=False))
    assert report.findings, f"{name} not found in {report.games} games"


def test_a_difference_already_in_the_given_position_shrinks_to_zero_steps(tmp_path: Path) -> None:
    [finding] = fuzz(lambda: MutantAdapter(BY_NAME["won_one_card_early"]), config(tmp_path)).findings
    assert finding.case.actions == () and "status: reference playing, implementation won" in finding.diagnosis.title
    assert finding.path is not None
    [scenario] = read_file(finding.path)
    assert scenario.steps == () or len(scenario.steps) == 0


def test_an_undo_count_difference_names_both_values(tmp_path: Path) -> None:
    [finding] = fuzz(lambda: MutantAdapter(BY_NAME["undo_keeps_the_move_count"]), config(tmp_path)).findings
    assert finding.difference.kind == "state"
    assert any(f.name == "moves" and f.expected != f.actual for f in finding.difference.fields)
    assert "moves: reference" in finding.diagnosis.title


@pytest.mark.parametrize(
    "name", ["no_pile_wrap", "undo_keeps_the_move_count", "reshuffle_top_to_bottom", "won_one_card_early",
             "closed_deal_no_turnup"],
)
def test_the_written_scenario_passes_on_the_reference_and_fails_on_the_engine(name: str, tmp_path: Path) -> None:
    mutant = BY_NAME[name]
    [finding] = fuzz(lambda: MutantAdapter(mutant), config(tmp_path, profile=mutant.fuzz_profile)).findings
    assert finding.path is not None
    [scenario] = read_file(finding.path)
    reference, broken = ReferenceAdapter(), MutantAdapter(mutant)
    assert run_scenario(reference, reference.info(), scenario, mutant.fuzz_profile).verdict == "passed"
    assert run_scenario(broken, broken.info(), scenario, mutant.fuzz_profile).verdict == "failed"


class Raising(ReferenceAdapter):
    """An in-process engine with a bug: raises on every drop."""

    def act(self, action: str) -> Reply:
        if action.startswith("drop"):
            raise RuntimeError("drop is not implemented")
        return super().act(action)


def test_an_exception_in_an_in_process_engine_is_one_fault(tmp_path: Path) -> None:
    [finding] = fuzz(Raising, config(tmp_path, games=100)).findings
    assert finding.difference.kind == "fault" and finding.case.actions[-1].startswith("drop")
    assert "it raised RuntimeError: drop is not implemented" in finding.diagnosis.title


class EmptyPilesTakeAnything(ReferenceAdapter):
    """Accepts any card onto an empty pile (a reply the reference never gives)."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        if reply.reason == "empty-pile":
            return dataclasses.replace(reply, accepted=True, reason=None, effect="move")
        return reply


def test_an_acceptance_the_reference_never_gives_is_explained(tmp_path: Path) -> None:
    [finding] = fuzz(EmptyPilesTakeAnything, config(tmp_path, games=200)).findings
    assert "the reference refuses (empty-pile" in finding.diagnosis.title
