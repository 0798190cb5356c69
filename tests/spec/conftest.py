"""The ``seeds`` fixture: the folder of the three rule documents (see source_helpers)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from source_helpers import seeds_folder


@pytest.fixture(scope="session")
def seeds(pytestconfig: pytest.Config) -> Path:
    """The folder of the three rule documents."""
    return seeds_folder(pytestconfig, dict(os.environ))
