"""nox sessions: the tests on every Python the package claims, and the built package run from outside.

    nox -s tests-3.12 tests-3.13     # the kit's tests on another interpreter (browser checks left to 3.11)
    nox -s package                   # build wheel and sdist, install each in a fresh venv, run the main job

.ci/run calls both after the README's test command; a session whose interpreter is missing is
skipped with a message (nox's default), so a machine without python3.12 still gets a green run
that says so.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import nox

nox.options.error_on_missing_interpreters = False
nox.options.reuse_existing_virtualenvs = True
PYTHONS = ["3.11", "3.12", "3.13"]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The kit's tests (without the headless-browser checks, which 3.11 runs in .ci/run)."""
    session.install(".[dev]")
    session.run("python", "-m", "pytest", "-q", "-n", "auto", "-m", "not browser", "tests", *session.posargs)


@nox.session(python="3.11")
def package(session: nox.Session) -> None:
    """Wheel and sdist from ``python -m build``; each installed alone runs the corpus from another folder."""
    session.install("build")
    dist = Path(tempfile.mkdtemp(prefix="crescent-dist-"))
    session.run("python", "-m", "build", "--outdir", str(dist))
    for artefact in (*dist.glob("*.whl"), *dist.glob("*.tar.gz")):
        _run_installed(session, artefact)


def _run_installed(session: nox.Session, artefact: Path) -> None:
    """A fresh venv with only ``artefact`` installed runs ``crescent-conformance run`` outside the repository."""
    where = Path(tempfile.mkdtemp(prefix="crescent-installed-"))
    session.run("python", "-m", "venv", str(where / "venv"))
    session.run(str(where / "venv/bin/pip"), "install", "-q", str(artefact), external=True)
    with session.chdir(where):
        session.run(str(where / "venv/bin/crescent-conformance"), "run", "-q", external=True)
        session.run(str(where / "venv/bin/crescent-ref"), "show", "CR1-N-AAAAAAB", external=True)
