"""nox sessions: the tests on every Python the package claims, and the built package run from outside.

    nox -s tests-3.12 tests-3.13     # the tests marked every_python on another interpreter
    nox -s tests-3.12 -- --all       # ... or the whole suite there (browser checks left to 3.11)
    nox -s package                   # build wheel and sdist, install each in a fresh venv, run the main job

.ci/run calls both after the README's test command, which runs the whole suite on 3.11. The other
Pythons run what can differ between versions: the tests listed in EVERY_PYTHON below, each with the
reason it is there (tests/conftest.py marks them every_python, so ``pytest -m every_python`` runs the
same set). They are passed to pytest by path, so a session collects only them, and their Hypothesis
budgets are cut to a quarter (CRESCENT_HYPOTHESIS_SCALE). A session whose interpreter is missing is
skipped with a message (nox's default), so a machine without python3.12 still gets a green run that
says so. The package session removes its temporary folders when it ends.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nox

nox.options.error_on_missing_interpreters = False
nox.options.reuse_existing_virtualenvs = True
PYTHONS = ["3.11", "3.12", "3.13"]
# What can behave differently on another interpreter, and why each part is in (a path, a folder or a
# test, relative to the checkout). tests/conftest.py reads this literal to mark them every_python.
# Left out, because the same code paths are reached here by the parts listed: the engine's
# rule-by-rule tables (tests/engine/test_engine_{actions,foundations,piles,status}.py, 2,676 cases of
# pure-Python branching that the corpus on the reference and perft drive on every Python), the docs
# pages and their browser checks, fuzz campaigns, the Python solver's searches, the documented
# commands and CI recipes, crescent-js and the skeletons (other languages), pytest's own -x and --lf
# with the plugin (the same pytest on every Python), and the quality checks (mypy and ruff judge the
# source, not the interpreter: mypy is pinned to python_version 3.11).
EVERY_PYTHON: dict[str, tuple[str, tuple[str, ...]]] = {  # path: (why, its tests when not all)
    "tests/solver/test_solver_fast.py": (
        "the compiled core, built for this Python by the editable install: its use of the C API, each primitive "
        "on every profile and a whole solve equal to the Python core's, the fallbacks",
        ("test_every_primitive_gives_the_python_answer",
         "test_moves_and_reshuffles_turn_face_down_cards_as_the_engine_does",
         "test_whole_solves_expand_the_same_positions[app]", "test_bad_positions_are_refused_with_a_reason",
         "test_a_profile_the_compiled_core_cannot_hold_falls_back", "test_the_python_core_can_be_forced_and_says_so",
         "test_ci_tests_the_compiled_core"),
    ),
    "tests/conformance/test_quick_codec.py": (
        "msgspec's compiled decoder and encoder (a wheel per Python) read and write what the standard library does",
        ("test_an_act_line_the_quick_reader_accepts_reads_the_same_strictly",
         "test_a_hostile_line_is_left_to_the_strict_reader", "test_well_formed_replies_take_the_quick_path",
         "test_the_request_encoder_writes_one_json_line"),
    ),
    "tests/conformance/test_reference_corpus.py": (
        "the whole corpus on the reference, in process and over stdio (the engine, PyYAML's loader, the pipes)", ()
    ),
    "tests/conformance/test_stdio_faults.py": (
        "subprocess, pipes, poll and process groups against a misbehaving adapter", ()
    ),
    "tests/conformance/test_pipelining_faults.py": (
        "a crash met while requests go ahead: broken-pipe errors and buffered replies at a dead child", ()
    ),
    "tests/conformance/test_plugin_runs.py": (
        "the pytest plugin's hooks: collection, selection, options and ini twins, failures, expectations",
        ("test_inert_without_options", "test_collects_the_corpus_in_a_stable_sorted_order",
         "test_k_selects_one_scenario", "test_the_header_counts_the_corpus_items",
         "test_profile_option_keeps_that_profile_and_its_variants",
         "test_ini_twins_name_the_implementation_and_profile", "test_an_errored_stdio_adapter_shows_as_error",
         "test_the_reference_over_stdio_passes_with_protocol_validation",
         "test_a_failure_reads_like_the_scenario", "test_expectations_make_a_known_failure_xfail_and_a_pass_strict"),
    ),
    "tests/corpus/test_corpus_cache.py": (
        "the corpus cache: pickled entries, atomic replace, damage and concurrent writers",
        ("test_a_warm_read_equals_a_cold_read", "test_damaged_entries_are_misses",
         "test_no_temporary_file_is_left_and_old_entries_are_pruned",
         "test_a_memo_merges_what_other_processes_flushed_and_survives_damage"),
    ),
    "tests/corpus/test_scenario_errors.py": ("PyYAML's error marks: the file, line and text of a broken scenario", ()),
    "tests/test_spec_files.py": ("the spec's YAML read and checked by jsonschema", ()),
    "tests/test_cli.py": ("the command lines: argparse's parsing, errors and exit codes", ()),
    "tests/hostile/test_cli_policy.py": ("argparse's refusals and the one-line errors", ()),
    "tests/hostile/test_parsers_random_text.py": (
        "the parsers on random text (str methods, the Unicode database of this Python)", ()
    ),
    "tests/test_notation.py": ("card notation: Unicode suits, frozen slotted values whose repr pastes back", ()),
    "tests/test_deal.py": ("game codes to deals: integer arithmetic and the shuffle, which must not move", ()),
    "tests/engine/test_engine_position.py": ("the position's text form (NamedTuple round trips) and its errors", ()),
    "tests/engine/test_engine_properties.py": (
        "Hypothesis on generated positions and random play (a quarter of the examples)", ()
    ),
    "tests/engine/test_engine_cache.py": ("the move generator's functools caches change no answer", ()),
    "tests/engine/test_profile_changes.py": ("profiles as frozen dataclasses changed with dataclasses.replace", ()),
    "tests/perft/": ("move counts on every profile: the whole move generator in one number per depth", ()),
    "tests/logs/": ("game logs: json lines, Unicode escapes, check-log", ()),
}


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The tests of EVERY_PYTHON (``-- --all``: the whole suite, without the headless-browser checks).

    Editable, as .ci/run installs: the compiled core is built for this Python beside its source."""
    whole = "--all" in session.posargs
    rest = [arg for arg in session.posargs if arg != "--all"]
    session.install("-e", ".[dev]" if whole else ".")
    if whole:
        session.run("python", "-m", "pytest", "-q", "-n", "auto", "-m", "not browser", "tests", *rest)
        return
    scale = {"CRESCENT_HYPOTHESIS_SCALE": os.environ.get("CRESCENT_HYPOTHESIS_SCALE", "0.25")}
    session.run("python", "-m", "pytest", "-q", "-m", "every_python", *every_python(), *rest, env=scale)


def every_python() -> list[str]:
    """EVERY_PYTHON as pytest arguments: a path, or one ``path::test`` per test chosen from it."""
    return [f"{path}::{test}" if test else path for path, (_, tests) in EVERY_PYTHON.items() for test in tests or [""]]


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
    """A fresh venv with only ``artefact`` installed runs ``crescent-conformance run`` outside the repository.

    The venv gets no pip of its own: the session's pip installs into it (``pip --python``), which saves
    ensurepip's 6.8 s of CPU a venv and leaves the venv holding only the kit and its dependencies."""
    with _scratch("crescent-installed-") as where:
        session.run("python", "-m", "venv", "--without-pip", str(where / "venv"))
        session.run("python", "-m", "pip", "--python", str(where / "venv/bin/python"), "install", "-q", str(artefact))
        with session.chdir(where):
            session.run(str(where / "venv/bin/crescent-conformance"), "run", "-q", external=True)
            session.run(str(where / "venv/bin/crescent-ref"), "show", "CR1-N-AAAAAAB", external=True)
