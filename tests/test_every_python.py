"""noxfile.py's EVERY_PYTHON (what the other Pythons run) names tests that exist, each with its reason,
and tests/conftest.py marks exactly those ``every_python``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import every_python

ROOT = Path(__file__).resolve().parent.parent


def test_every_entry_names_an_existing_test_file_folder_or_test() -> None:
    chosen = every_python()
    assert len(chosen) > 10
    for entry in chosen:
        path, _, test = entry.partition("::")
        where = ROOT / "tests" / path
        assert where.is_dir() if path.endswith("/") else where.is_file(), entry
        if test:
            name = test.split("[")[0]
            assert re.search(rf"^def {name}\(", where.read_text(encoding="utf-8"), re.M), entry


def test_every_entry_says_why_it_is_there() -> None:
    text = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert every_python(ROOT / "noxfile.py") == every_python()
    assert not re.search(r'\(\s*"",', text), "an EVERY_PYTHON entry without its reason"


def test_a_chosen_test_is_marked_and_its_neighbours_are_not(pytester: pytest.Pytester) -> None:
    fast = ROOT / "tests" / "solver" / "test_solver_fast.py"
    items, _ = pytester.inline_genitems(str(fast), "-p", "no:cacheprovider")
    marked = {item.name for item in items if item.get_closest_marker("every_python")}
    assert "test_ci_tests_the_compiled_core" in marked and "test_whole_solves_expand_the_same_positions[app]" in marked
    assert "test_whole_solves_expand_the_same_positions[open]" not in marked
    assert "test_past_the_first_round_the_last_reshuffle_rule_runs_on_both_alike" not in marked
    assert every_python(pytester.path / "missing.py") == ()
