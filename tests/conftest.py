"""Plugins for the kit's own tests: pytester, to run pytest (and the crescent plugin) inside a test.

Hypothesis runs without its per-example deadline: speed is measured in benchmarks/, never in unit
tests, and a deadline only turns a busy machine into a red run.

Every test in a module whose file name mentions ``browser`` is marked ``browser`` (it drives headless
Chromium), so ``-m "not browser"`` leaves them out (noxfile.py does, on the other Pythons).
"""

from __future__ import annotations

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]
settings.register_profile("kit", deadline=None)
settings.load_profile("kit")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the headless-browser tests."""
    for item in items:
        if "browser" in item.path.name:
            item.add_marker(pytest.mark.browser)
