"""``impact``: a rule change's scenarios, reference verdicts and statement coverage, against a git revision.

Each test commits a small copy of spec/ (two scenario files) in a temporary git repository, edits
the working tree, and asks what changed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.corpus.corpusdiff import load_scenarios
from conformance.judging.impact import Impact, impact, render_impact
from crescent_ref.errors import ScenarioError
from crescent_ref.spec_files import spec_dir

KEPT = ("undo.yaml", "drop.yaml")


def git(root: Path, *args: str) -> None:
    """Run git quietly in ``root``."""
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
                   check=True, capture_output=True)  # fmt: skip


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed copy of spec/ with two scenario files, in a fresh git repository."""
    copy = tmp_path_factory.mktemp("impact") / "repo" / "spec"
    shutil.copytree(spec_dir(), copy, ignore=shutil.ignore_patterns("*.pyc"))
    for path in (copy / "scenarios").glob("*.yaml"):
        if path.name not in KEPT:
            path.unlink()
    git(copy.parent, "init", "-q")
    git(copy.parent, "add", "-A")
    git(copy.parent, "commit", "-q", "-m", "spec")
    return copy


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a file by ``new``."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_unchanged_tree_has_no_impact(spec: Path) -> None:
    found = impact(spec, quiet=True)
    assert (found.scenarios, found.verdicts, found.failing, found.statements) == ((), (), (), ())


@pytest.fixture(scope="module")
def edited(spec: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of ``spec``'s repository with four edits: an expected value, a title, a deleted file, a statement."""
    clone = tmp_path_factory.mktemp("edited") / "repo"
    shutil.copytree(spec.parent, clone)
    edit(clone / "spec" / "scenarios" / "undo.yaml", "state: {moves: 6,", "state: {moves: 7,")
    edit(clone / "spec" / "scenarios" / "undo.yaml", "Undo with nothing played yet is refused",
         "Undo before any move is refused")  # fmt: skip
    (clone / "spec" / "scenarios" / "drop.yaml").unlink()
    edit(clone / "spec" / "statements.yaml", "so every card exists twice.", "so each card is there twice.")
    return clone / "spec"


@pytest.fixture(scope="module")
def changed(edited: Path) -> Impact:
    """The impact of the four edits."""
    return impact(edited, quiet=True)


def test_an_edited_expectation_is_named_with_old_and_new_values(changed: Impact) -> None:
    undo = {c.id: c for c in changed.scenarios if c.area == "undo"}
    assert set(undo) == {"undo-001", "undo-002"}
    assert undo["undo-001"].expectations and "step 1 (p1-p2): state.moves 6 -> 7" in undo["undo-001"].what
    assert not undo["undo-002"].expectations and undo["undo-002"].what == ("metadata only: title changed",)


def test_removed_scenarios_are_listed(changed: Impact) -> None:
    removed = [c.id for c in changed.scenarios if c.kind == "removed"]
    assert removed and all(i.startswith("drop-") for i in removed)


def test_the_reference_verdict_change_is_shown_and_the_failure_listed(changed: Impact) -> None:
    moved = {c.key: (c.old, c.new) for c in changed.verdicts}
    assert moved and all(k.startswith("undo-001[") and v == ("passed", "failed") for k, v in moved.items())
    assert set(changed.failing) == set(moved)


def test_statement_coverage_changes(changed: Impact) -> None:
    notes = {s.id: s for s in changed.statements}
    reworded = [s for s in notes.values() if s.note == "reworded"]
    assert [s.id for s in reworded] == ["000-setup-01"]
    lost = [s for s in notes.values() if s.old and not s.new]
    assert lost and all(i.startswith("drop-") for s in lost for i in s.old)
    assert "NOW UNCOVERED" in render_impact(changed)


def test_the_command(edited: Path, changed: Impact, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["impact", "--spec", str(edited), "-q", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data == json.loads(json.dumps(changed.as_dict()))
    assert "The reference engine FAILS" in render_impact(changed)


def test_outside_a_git_checkout_or_with_an_unknown_revision_a_clear_error(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    plain = tmp_path / "plain"
    shutil.copytree(spec, plain / "spec")
    assert main(["impact", "--spec", str(plain / "spec"), "-q"]) == 2
    assert "is not in a git checkout" in capsys.readouterr().err
    assert main(["impact", "--spec", str(spec), "--rev", "no-such-rev", "-q"]) == 2
    assert "unknown revision 'no-such-rev'" in capsys.readouterr().err


def test_each_version_is_checked_against_its_own_schema(spec: Path, tmp_path: Path) -> None:
    copy = tmp_path / "spec"
    shutil.copytree(spec, copy)
    schema = copy / "schema" / "scenario.schema.json"
    data = json.loads(schema.read_text(encoding="utf-8"))
    schema.write_text(json.dumps({**data, "required": [*data.get("required", []), "zzz"]}), encoding="utf-8")
    assert len(load_scenarios(spec)) > 0
    with pytest.raises(ScenarioError, match="'zzz' is a required property"):
        load_scenarios(copy)
