"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_readme_opens_with_the_two_commands() -> None:
    blocks = README.read_text(encoding="utf-8").split("```sh")[1:3]
    assert "crescent-conformance run" in blocks[0] and "pytest" in blocks[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m pytest -q -n auto tests" in ci and "-m pytest -q -n auto tests" in README.read_text(encoding="utf-8")
