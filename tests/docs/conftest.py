"""Fixtures for the documentation tests: the built site, and run reports of a good and a faulty engine."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conformance.adapter import Info, Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.docs.site import build
from conformance.judging.report import report_header, write_report
from conformance.judging.runner import run_scenario
from conformance.judging.state import game_state
from crescent_ref.actions import PILES, Action

ACE, KING = 0, 12


class NoWrapAdapter(ReferenceAdapter):
    """The reference engine with two faults: no King-Ace wrap on the piles, and no closed deals."""

    def info(self) -> Info:
        return replace(super().info(), name="no-wrap", version="0.0.1")

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        if position and "[" in position:
            raise RuleError(f"face-down cards are not supported: {position[:40]!r}")
        return super().start(profile, position=position, code=code)

    def act(self, action: str) -> Reply:
        game = self._game()
        move = Action.from_text(action)
        piles = game.position.piles
        if move.kind == "move" and move.src < PILES and move.dst < PILES and piles[move.src] and piles[move.dst]:
            card, onto = piles[move.src][-1], piles[move.dst][-1]
            if card // 13 == onto // 13 and {card % 13, onto % 13} == {ACE, KING}:
                return Reply(False, "wrong-rank", None, (), game_state(game))
        return super().act(action)


@pytest.fixture(scope="session")
def corpus() -> list[Scenario]:
    """The shipped scenario corpus."""
    return load_corpus()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, corpus: list[Scenario]) -> Path:
    """The documentation built into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    build(out, corpus)
    return out


def run_report(path: Path, adapter: ReferenceAdapter, corpus: list[Scenario]) -> dict[str, Any]:
    """Run every scenario in every profile it names against ``adapter``; write and return the report."""
    info = adapter.info()
    pairs = [(sc, p) for sc in corpus for p in sc.profiles]
    results = [run_scenario(adapter, info, sc, p) for sc, p in pairs]
    write_report(path, report_header(info, sorted({p for _, p in pairs}), True), results)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def faulty_report(tmp_path_factory: pytest.TempPathFactory, corpus: list[Scenario]) -> Path:
    """The JSON report of a run against NoWrapAdapter (it has failures and errors)."""
    path = tmp_path_factory.mktemp("faulty") / "report.json"
    run_report(path, NoWrapAdapter(), corpus)
    return path


@pytest.fixture(scope="session")
def reference_report(tmp_path_factory: pytest.TempPathFactory, corpus: list[Scenario]) -> Path:
    """The JSON report of a run against the reference engine (all pass)."""
    path = tmp_path_factory.mktemp("reference") / "report.json"
    run_report(path, ReferenceAdapter(), corpus)
    return path
