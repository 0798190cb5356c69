"""Where the rule documents are for the source check: ``--crescent-sources``, ``$CRESCENT_SOURCES``, or
``../shared/seeds`` beside the checkout. Without them the check is skipped, except under CI
(``CI=true``), where a missing folder fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.plugin import option
from conformance.sources import default_folder


def seeds_folder(config: pytest.Config, env: dict[str, str]) -> Path:
    """The documents' folder, or skip (fail under CI) saying why there is none."""
    given = option(config, "sources")
    folder = Path(given) if given else default_folder()
    if folder is not None and folder.is_dir():
        return folder
    why = (f"rule documents not found ({folder or 'no folder given'}): pass --crescent-sources DIR "
           "or set CRESCENT_SOURCES")
    if env.get("CI") == "true":
        pytest.fail(why + " (required under CI)", pytrace=False)
    pytest.skip(why)
