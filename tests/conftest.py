"""Plugins for the kit's own tests: pytester, to run pytest (and the crescent plugin) inside a test.

Hypothesis runs without its per-example deadline: speed is measured in benchmarks/, never in unit
tests, and a deadline only turns a busy machine into a red run.

Every test in a module whose file name mentions ``browser`` is marked ``browser`` (it drives headless
Chromium), so ``-m "not browser"`` leaves them out.

The tests under ``EVERY_PYTHON`` are marked ``every_python``: what can behave differently on another
interpreter (the engine, notation, the command lines and their parsers, the pytest plugin, the corpus
on the reference, the file readers). CI runs the whole suite on 3.11 and these on 3.12 and 3.13
(noxfile.py); the rest (docs pages, fuzz campaigns, the solver's searches, quality checks) is
interpreter-neutral Python whose version-specific parts the marked tests already reach.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]
settings.register_profile("kit", deadline=None)
settings.load_profile("kit")


EVERY_PYTHON = (
    "engine/",
    "corpus/test_scenario_errors.py",
    "corpus/test_corpus_cache.py",
    "logs/",
    "perft/",
    "hostile/test_cli_policy.py",
    "hostile/test_parsers_random_text.py",
    "conformance/test_reference_corpus.py",
    "conformance/test_plugin_runs.py",
    "conformance/test_stdio_faults.py",
    "test_cli.py",
    "test_notation.py",
    "test_deal.py",
    "test_spec_files.py",
)
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the headless-browser tests and the tests every Python runs."""
    for item in items:
        if "browser" in item.path.name:
            item.add_marker(pytest.mark.browser)
        if _under(item.path, EVERY_PYTHON):
            item.add_marker(pytest.mark.every_python)


def _under(path: Path, prefixes: tuple[str, ...]) -> bool:
    """``path`` (a test file) is one of ``prefixes`` or in one of those folders, relative to tests/."""
    try:
        relative = path.resolve().relative_to(HERE).as_posix()
    except ValueError:  # a test file outside tests/ (pytester's own temporary ones)
        return False
    return any(relative == p or (p.endswith("/") and relative.startswith(p)) for p in prefixes)
