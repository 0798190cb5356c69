"""nox sessions: the tests on every Python the package claims, and the built package run from outside.

    nox -s tests-3.12 tests-3.13     # the tests marked every_python on another interpreter
    nox -s tests-3.12 -- --all       # ... or the whole suite there (browser checks left to 3.11)
    nox -s package                   # build wheel and sdist, install each in a fresh venv, run the main job

.ci/run calls both after the README's test command, which runs the whole suite on 3.11. The other
Pythons run what can differ between versions (tests/conftest.py marks it every_python): the engine,
the command lines, the plugin, the corpus on the reference. A session whose interpreter is missing
is skipped with a message (nox's default), so a machine without python3.12 still gets a green run
that says so. The package session removes its temporary folders when it ends.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nox

nox.options.error_on_missing_interpreters = False
nox.options.reuse_existing_virtualenvs = True
PYTHONS = ["3.11", "3.12", "3.13"]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The tests marked every_python (``-- --all``: the whole suite, without the headless-browser checks)."""
    whole = "--all" in session.posargs
    rest = [arg for arg in session.posargs if arg != "--all"]
    session.install("-e", ".[dev]" if whole else ".")
    chosen = ["-n", "auto", "-m", "not browser" if whole else "every_python"]
    session.run("python", "-m", "pytest", "-q", *chosen, "tests", *rest)


@nox.session(python="3.11")
def package(session: nox.Session) -> None:
    """Wheel and sdist from ``python -m build``; each installed alone runs the corpus from another folder."""
    session.install("build")
    with _scratch("crescent-dist-") as dist:
        session.run("python", "-m", "build", "--outdir", str(dist))
        for artefact in (*dist.glob("*.whl"), *dist.glob("*.tar.gz")):
            _run_installed(session, artefact)


@contextmanager
def _scratch(prefix: str) -> Iterator[Path]:
    """A temporary folder, removed with all it holds when the block ends (however it ends)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as where:
        yield Path(where)


def _run_installed(session: nox.Session, artefact: Path) -> None:
    """A fresh venv with only ``artefact`` installed runs ``crescent-conformance run`` outside the repository."""
    with _scratch("crescent-installed-") as where:
        session.run("python", "-m", "venv", str(where / "venv"))
        session.run(str(where / "venv/bin/pip"), "install", "-q", str(artefact), external=True)
        with session.chdir(where):
            session.run(str(where / "venv/bin/crescent-conformance"), "run", "-q", external=True)
            session.run(str(where / "venv/bin/crescent-ref"), "show", "CR1-N-AAAAAAB", external=True)
