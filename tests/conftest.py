"""Plugins for the kit's own tests: pytester, to run pytest (and the crescent plugin) inside a test.

Hypothesis runs without its per-example deadline: speed is measured in benchmarks/, never in unit
tests, and a deadline only turns a busy machine into a red run.

Every test in a module whose file name mentions ``browser`` is marked ``browser`` (it drives headless
Chromium), so ``-m "not browser"`` leaves them out.

The tests listed in noxfile.py's ``EVERY_PYTHON`` (each with the reason it is there: what can behave
differently on another interpreter) are marked ``every_python``. CI runs the whole suite on 3.11 and
these on 3.12 and 3.13 (noxfile.py, which passes the same list to pytest by path).

PyYAML is imported here, before any test runs pytest in process. Pytester's in-process runs put
``sys.modules`` back as it was before them: a yaml first imported inside such a run is dropped
afterwards, and importing it again rebuilds the package around the C extension it cannot reload
(``yaml._yaml``), after which every load fails ("could not determine a constructor for the tag
None"). Whether a worker met this depended on which test it ran first.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml  # noqa: F401 (imported before any in-process pytest run: see the docstring)
from hypothesis import settings

pytest_plugins = ["pytester"]
settings.register_profile("kit", deadline=None)
settings.load_profile("kit")


HERE = Path(__file__).resolve().parent


def every_python(noxfile: Path = HERE.parent / "noxfile.py") -> tuple[str, ...]:
    """noxfile.py's ``EVERY_PYTHON`` literal (read, not imported: nox need not be installed) as paths
    relative to tests/, a folder ending in ``/`` and a chosen test as ``file.py::name``; none without the file."""
    if not noxfile.is_file():
        return ()
    tree = ast.parse(noxfile.read_text(encoding="utf-8"), str(noxfile))
    named = (n.value for n in tree.body if isinstance(n, ast.AnnAssign) and ast.unparse(n.target) == "EVERY_PYTHON")
    chosen: dict[str, tuple[str, tuple[str, ...]]] = ast.literal_eval(next(named) or "{}")
    return tuple(f"{path.removeprefix('tests/')}{'::' if test else ''}{test}"
                 for path, (_, tests) in chosen.items() for test in tests or ("",))  # fmt: skip


EVERY_PYTHON = every_python()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the headless-browser tests and the tests every Python runs."""
    for item in items:
        if "browser" in item.path.name:
            item.add_marker(pytest.mark.browser)
        if _under(item, EVERY_PYTHON):
            item.add_marker(pytest.mark.every_python)


def _under(item: pytest.Item, prefixes: tuple[str, ...]) -> bool:
    """``item`` is in one of ``prefixes`` (relative to tests/): a folder ending in ``/``, a file, a file's
    test (``file.py::name``, every parameter of it) or one parameter of it (``file.py::name[id]``)."""
    try:
        relative = item.path.resolve().relative_to(HERE).as_posix()
    except ValueError:  # a test file outside tests/ (pytester's own temporary ones)
        return False
    tests = (f"{relative}::{item.name}", f"{relative}::{item.name.split('[')[0]}")
    return any(relative == p or p in tests or (p.endswith("/") and relative.startswith(p)) for p in prefixes)
