"""Differential play finds deviations, writes them as scenarios, and tells other faults apart."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest

from conformance.adapter import Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.load import read_file
from conformance.explore.fuzz import Divergence, FuzzConfig, NonDeterministic, Refused, fuzz, generated_position
from conformance.judging.runner import run_scenario
from crescent_ref.position import Position


class WrongSuitReason(ReferenceAdapter):
    """Says wrong-rank where the rules say wrong-suit."""

    def act(self, action: str) -> Reply:
        reply = super().act(action)
        return dataclasses.replace(reply, reason="wrong-rank") if reply.reason == "wrong-suit" else reply


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


def config(tmp_path: Path, **kw: Any) -> FuzzConfig:
    return FuzzConfig(**{"profile": "app", "examples": 30, "steps": 20, "out": tmp_path, **kw})


def test_the_reference_agrees_with_itself(tmp_path: Path) -> None:
    cfg = config(tmp_path, profile="hoffmann-1892")
    fuzz(ReferenceAdapter, cfg)
    assert cfg.findings == []


def test_a_deviation_is_found_and_written_as_a_minimal_scenario(tmp_path: Path) -> None:
    cfg = config(tmp_path, steps=8)
    with pytest.raises(Divergence, match="expected rejected \\(wrong-suit\\), got rejected \\(wrong-rank\\)"):
        fuzz(WrongSuitReason, cfg)
    [path] = cfg.findings
    [scenario] = read_file(path)
    assert len(scenario.steps) <= 3 and scenario.steps[-1].expect.reason == "wrong-suit"
    reference, mutant = ReferenceAdapter(), WrongSuitReason()
    assert run_scenario(reference, reference.info(), scenario, "app").verdict == "passed"
    assert run_scenario(mutant, mutant.info(), scenario, "app").verdict == "failed"


def test_the_same_seed_finds_the_same_game(tmp_path: Path) -> None:
    texts = []
    for run in ("a", "b"):
        cfg = config(tmp_path / run, seed=7, shrink=False)
        with pytest.raises(Divergence):
            fuzz(WrongSuitReason, cfg)
        texts.append(cfg.findings[0].read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_a_non_deterministic_implementation_is_named(tmp_path: Path) -> None:
    with pytest.raises(NonDeterministic, match="played twice"):
        fuzz(Flaky, config(tmp_path))


def test_a_refused_position_is_not_a_rules_difference(tmp_path: Path) -> None:
    with pytest.raises(Refused, match="refused to load"):
        fuzz(Picky, config(tmp_path, shrink=False))


def test_generated_positions_are_valid_and_reproducible() -> None:
    text = generated_position(99, 30, "open")
    assert Position.from_text(text).card_count() == 104
    assert generated_position(99, 30, "open") == text
