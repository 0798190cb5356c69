"""Plugins for the kit's own tests: pytester, to run pytest (and the crescent plugin) inside a test.

Every test in a module whose file name mentions ``browser`` is marked ``browser`` (it drives headless
Chromium), so ``-m "not browser"`` leaves them out (noxfile.py does, on the other Pythons).
"""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the headless-browser tests."""
    for item in items:
        if "browser" in item.path.name:
            item.add_marker(pytest.mark.browser)
