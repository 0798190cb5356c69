"""Running pytest with the crescent plugin inside a test (pytester), and reading what came out."""

from __future__ import annotations

import functools
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from harness import HERE, Pair, key, pairs, run_pairs
from mutants import BY_NAME, MutantAdapter

from conformance.judging.runner import Result

# Hypothesis's plugin costs a second per run and has nothing to do here.
QUIET = ("-p", "no:hypothesispytest")


def prepared(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester whose runs (in-process, subprocess, xdist workers) can import ``mutants``."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))
    pytester.syspathinsert(HERE)
    return pytester


def run(kit: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in this process."""
    return kit.runpytest(*QUIET, *args)


def run_apart(kit: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in a fresh process (for what must not share the process: reports, expectations files)."""
    return kit.runpytest_subprocess(*QUIET, *args)


def collected(kit: pytest.Pytester, *args: str) -> list[str]:
    """The node ids ``--collect-only -q`` lists."""
    result = run(kit, "--collect-only", "-q", *args)
    return [line for line in result.stdout.lines if "::" in line]


def junit_cases(path: Path) -> dict[str, str]:
    """Outcome of every testcase of a JUnit XML file, by ``classname::name``."""
    cases = ET.parse(path).getroot().iter("testcase")
    return {f"{c.get('classname')}::{c.get('name')}": _junit_outcome(c) for c in cases}


def _junit_outcome(case: ET.Element) -> str:
    kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
    return kinds[0] if kinds else "passed"


def read_json(path: Path) -> Any:
    """A JSON file's content."""
    return json.loads(path.read_text(encoding="utf-8"))


@functools.cache
def mutant_results(name: str) -> dict[str, Result]:
    """The runner's results for a mutant on every pair of the corpus."""
    return run_pairs(MutantAdapter(BY_NAME[name]), pairs())


def k_expression(pairs: list[Pair]) -> str:
    """A ``-k`` expression selecting exactly these pairs' items (their ids must be distinct)."""
    return " or ".join(key(p) for p in pairs)
