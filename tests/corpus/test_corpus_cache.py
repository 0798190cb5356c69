"""The corpus cache: a warm read gives exactly what a cold read gives, and no entry is ever trusted blindly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_scenario_errors import scenario_text

from conformance.corpus import cache, load
from conformance.corpus.lint import lint_selected
from conformance.corpus.load import read_file, scenario_files
from conformance.corpus.scenarios import Scenario
from crescent_ref.errors import ScenarioError
from crescent_ref.spec_files import spec_dir


def fresh_read(path: Path) -> list[Scenario]:
    """Read ``path`` as a new process would (the in-process memo cleared)."""
    load._read_unchanged.cache_clear()
    load._RECORDS.clear()
    return read_file(path)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("CRESCENT_CACHE_DIR", str(where))
    return where


def copy_corpus(tmp_path: Path, count: int = 4, largest: bool = True) -> list[Path]:
    """Copies of the corpus's ``count`` largest files (the largest hold every kind of step), or smallest."""
    target = tmp_path / "corpus"
    target.mkdir()
    by_size = sorted(scenario_files([spec_dir() / "scenarios"]), key=lambda p: p.stat().st_size)
    for path in by_size[-count:] if largest else by_size[:count]:
        shutil.copy(path, target / path.name)
    return scenario_files([target])


def test_a_warm_read_equals_a_cold_read(folder: Path, tmp_path: Path) -> None:
    files = copy_corpus(tmp_path)
    cold = [fresh_read(path) for path in files]
    assert len(list(folder.glob("*.json"))) == len(files)
    warm = [fresh_read(path) for path in files]
    assert warm == cold
    assert sum(len(found) for found in warm) > 40


def test_damaged_entries_are_misses(folder: Path, tmp_path: Path) -> None:
    path = copy_corpus(tmp_path, 1, largest=False)[0]
    cold = fresh_read(path)
    for damage in ("x", "{}", '{"data": 1, "lines": [[7, 1]], "lint_clean": true}', ""):
        for entry in folder.glob("*.json"):
            entry.write_text(damage, encoding="utf-8")
        assert fresh_read(path) == cold


def test_changed_bytes_are_read_again_and_a_broken_edit_still_fails(folder: Path, tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text(scenario_text(), encoding="utf-8")
    assert [sc.title for sc in fresh_read(path)] == ["A scenario for error tests"]
    path.write_text(scenario_text().replace("for error tests", "edited"), encoding="utf-8")
    assert [sc.title for sc in fresh_read(path)] == ["A scenario edited"]
    path.write_text(scenario_text(step="      - {action: p1-p2, outcome: sideways}"), encoding="utf-8")
    with pytest.raises(ScenarioError, match="sideways"):
        fresh_read(path)


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRESCENT_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "one.yaml"
    path.write_text(scenario_text(), encoding="utf-8")
    assert fresh_read(path)
    assert cache.cache_dir() is None
    assert not (tmp_path / "xdg").exists()


def test_a_folder_that_cannot_be_made_leaves_reading_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("CRESCENT_CACHE_DIR", str(blocker / "cache"))
    path = tmp_path / "one.yaml"
    path.write_text(scenario_text(), encoding="utf-8")
    assert [sc.id for sc in fresh_read(path)] == ["test-001"]


def test_no_temporary_file_is_left_and_old_entries_are_pruned(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for n in range(6):
        path = tmp_path / f"f{n}.yaml"
        path.write_text(scenario_text().replace("for error tests", f"number {n}"), encoding="utf-8")
        fresh_read(path)
    assert len(list(folder.glob("*.json"))) == 3
    assert not list(folder.glob(".entry-*"))


def test_lint_marks_a_clean_file_and_never_a_faulty_one(folder: Path, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(scenario_text(), encoding="utf-8")
    bad.write_text(scenario_text(extra="    features: [no-such-feature]\n").replace("test-001", "test-002"), "utf-8")
    for _ in range(2):
        chosen = fresh_read(good) + read_file(bad)
        assert [str(f) for f in lint_selected(chosen)] != []
        assert all("test-002" in str(f) for f in lint_selected(chosen))
    fresh_read(good)
    known = load.record(str(good))
    assert known is not None and known.lint_clean
    fresh_read(bad)
    faulty = load.record(str(bad))
    assert faulty is not None and not faulty.lint_clean


def test_the_fingerprint_covers_the_spec_data_and_the_reading_code() -> None:
    names = {path.name for path in cache._inputs()}
    assert {"profiles.yaml", "scenario.schema.json", "load.py", "lint.py", "game.py"} <= names
    assert not any(path.parent.name == "scenarios" for path in cache._inputs())


def test_a_memo_merges_what_other_processes_flushed_and_survives_damage(folder: Path) -> None:
    first, second = cache.Memo("answers"), cache.Memo("answers")
    assert first.get("q1") is None and second.get("q2") is None
    first.put("q1", True)
    first.flush()
    second.put("q2", False)
    second.flush()
    assert cache.Memo("answers").get("q1") is True and cache.Memo("answers").get("q2") is False
    for stored in folder.glob("answers-*.json"):
        stored.write_text("[1, 2", encoding="utf-8")
    assert cache.Memo("answers").get("q1") is None


def test_coverage_answers_kept_on_disk_equal_fresh_ones(folder: Path) -> None:
    from conformance import coverage
    from conformance.corpus.load import load_corpus

    def forget() -> None:  # what this process already knows (other tests may have asked the same)
        coverage._CHANGES.clear()
        coverage._KEPT.known, coverage._KEPT.fresh = None, {}

    corpus = [sc for sc in load_corpus() if sc.area == "pile-limit"]
    forget()
    fresh = coverage.dependents("app", "pile_limit", None, corpus)
    assert fresh
    assert list(folder.glob("verdict-changes-*.json"))
    forget()
    assert coverage.dependents("app", "pile_limit", None, corpus) == fresh

