"""Hypothesis's pytest plugin, kept from importing Hypothesis at the end of a session that never used it.

The plugin (entry point ``hypothesispytest``) takes care to import Hypothesis only when a test or an
option needs it, except in its ``pytest_terminal_summary``: that hook imports
``hypothesis.internal.observability`` unconditionally (about 0.3 s of CPU with bytecode caches, 0.8 s
without), in every process pytest runs, xdist workers included. What the summary can print comes from
three places, each empty in a session of the kit's own items where Hypothesis was never imported:
statistics (only with ``--hypothesis-show-statistics``, whose ``pytest_configure`` imports Hypothesis),
observation files (written only by Hypothesis, module state of this process) and failing examples
(set on reports of ``@given`` tests, and such a session has none).

So in exactly that case the plugin is unregistered before the summary runs; in any other session
(a Python test collected, Hypothesis imported by anything, a Hypothesis option given) it is left alone.
"""

from __future__ import annotations

import sys

import pytest

PLUGIN = "hypothesispytest"


def quiet_idle_hypothesis(config: pytest.Config) -> bool:
    """Unregister Hypothesis's plugin when Hypothesis was never imported here; True when it did.

    The caller knows the session holds only the kit's items (no ``@given`` test ran anywhere).
    """
    plugin = config.pluginmanager.get_plugin(PLUGIN)
    if plugin is None or "hypothesis" in sys.modules:
        return False
    config.pluginmanager.unregister(plugin, PLUGIN)
    return True
