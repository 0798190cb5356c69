"""A finished process skips the garbage collector's passes at shutdown (crescent_ref.exits.quick_shutdown):
the CLIs and a pytest session running an implementation freeze every object at exit, once."""

from __future__ import annotations

import atexit
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# An exit handler registered before the code under test runs after the handlers that code registers,
# so it sees whether they froze the collector: then (almost) no object is left for its passes.
PROBE = "import atexit, gc; atexit.register(lambda: print('frozen at exit:', len(gc.get_objects()) < 500))\n"


def _frozen_at_exit(code: str) -> bool:
    done = subprocess.run([sys.executable, "-c", PROBE + textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("frozen at exit:")]
    assert lines, done.stdout + done.stderr
    return lines[-1].endswith("True")


def test_a_plain_process_is_not_frozen_at_exit() -> None:
    assert not _frozen_at_exit("x = [[] for _ in range(10)]")  # the probe can say no


def test_quick_shutdown_registers_one_handler_however_often_it_is_called() -> None:
    from crescent_ref import exits

    exits.quick_shutdown()
    before = atexit._ncallbacks()
    exits.quick_shutdown()
    exits.quick_shutdown()
    assert atexit._ncallbacks() == before


def test_crescent_ref_freezes_at_exit() -> None:
    assert _frozen_at_exit("from crescent_ref.cli import main\nmain(['profiles'])")


def test_crescent_conformance_freezes_at_exit() -> None:
    assert _frozen_at_exit("from conformance.cli import main\nmain(['list'])")


def test_a_pytest_session_running_an_implementation_freezes_at_exit() -> None:
    assert _frozen_at_exit("import pytest\npytest.main(['-q', '-p', 'no:cacheprovider', '--crescent-impl=reference', "
                           "'-k', 'layout-001'])")


def test_a_pytest_session_without_an_implementation_is_left_alone() -> None:
    assert not _frozen_at_exit("import pytest\npytest.main(['-q', '-p', 'no:cacheprovider', '--co', "
                               "'tests/test_notation.py'])")
