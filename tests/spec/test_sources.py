"""Every quote of the kit is verbatim in the stated section of its document, and the documents are the
versions spec/sources.yaml pins (SHA-256)."""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

import pytest
from source_helpers import seeds_folder

from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.sources import default_folder, documents, problems, quotes, split
from crescent_ref.spec_files import load_yaml


@pytest.fixture(scope="module")
def seeds(pytestconfig: pytest.Config) -> Path:
    """The folder of the three rule documents (skipped without it, failed under CI: see source_helpers)."""
    return seeds_folder(pytestconfig, dict(os.environ))


@functools.cache
def corpus() -> list[Scenario]:
    return load_corpus()


def test_every_quote_and_checksum_holds(seeds: Path) -> None:
    assert problems(seeds, corpus()) == []


def test_every_kind_of_citation_is_checked() -> None:
    wheres = {q.where.split()[0].split(":")[0] for q in quotes(corpus())}
    assert {"spec/statements.yaml", "spec/profiles.yaml", "spec/reasons.yaml", "spec/interpretations.md"} <= wheres
    assert any(w.startswith(str(Path("spec", "scenarios"))) or "/scenarios/" in w for w in wheres)


def test_a_changed_document_is_caught(seeds: Path, tmp_path: Path) -> None:
    for entry in documents():
        shutil.copy(seeds / entry["file"], tmp_path / entry["file"])
    target = tmp_path / "000_3303cbcae4869e02.txt"
    target.write_text(target.read_text("utf-8").replace("Harus berjenis sama", "Harus sejenis"), "utf-8")
    found = problems(tmp_path, corpus())
    assert any("sha256 differs" in p for p in found)
    assert any("spec/reasons.yaml wrong-suit.id" in p for p in found)
    assert any("000-moves-12" in p for p in found)


def test_a_quote_in_the_wrong_section_is_caught(seeds: Path) -> None:
    text = (seeds / "001_4c22be3416010ba5.txt").read_text("utf-8")
    sections, missing = split(text, [s["heading"] for s in documents()[1]["sections"]])
    assert missing == []
    assert "You lose when no top card" in sections["Winning and Losing"]
    assert "You lose when no top card" not in sections["Legal Moves"]


def test_quoted_messages_credit_000_for_indonesian_and_003_for_chinese() -> None:
    for entry in load_yaml("reasons.yaml")["reasons"]:
        if entry["quoted"]:
            assert entry["source"]["id"]["doc"].startswith("000_"), entry["code"]
            assert entry["source"]["zh"]["doc"].startswith("003_"), entry["code"]


def test_quoted_messages_are_verbatim_in_their_credited_sections(seeds: Path) -> None:
    texts = {d["file"]: split((seeds / d["file"]).read_text("utf-8"), [s["heading"] for s in d["sections"]])[0]
             for d in documents()}
    quoted = [e for e in load_yaml("reasons.yaml")["reasons"] if e["quoted"]]
    assert len(quoted) == 6
    for entry in quoted:
        for lang in ("id", "zh"):
            src = entry["source"][lang]
            assert entry[lang] in texts[src["doc"]][src["section"]], (entry["code"], lang)


def test_split_finds_headings_in_order_and_reports_the_missing() -> None:
    sections, missing = split("Title\nintro\nOne\na\nTwo\nb\nOne\nc", ["Title", "One", "Three", "Two"])
    assert sections == {"Title": "Title\nintro", "One": "a", "Two": "b\nOne\nc"}
    assert missing == ["Three"]


def test_without_the_documents_the_check_skips_but_fails_under_ci(
    pytestconfig: pytest.Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CRESCENT_SOURCES", str(tmp_path / "absent"))
    monkeypatch.setattr(pytestconfig.option, "crescent_sources", None)
    with pytest.raises(pytest.skip.Exception):
        seeds_folder(pytestconfig, {})
    with pytest.raises(pytest.fail.Exception, match="required under CI"):
        seeds_folder(pytestconfig, {"CI": "true"})


def test_the_default_folder_is_shared_seeds_beside_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CRESCENT_SOURCES", raising=False)
    (tmp_path / "shared" / "seeds").mkdir(parents=True)
    assert default_folder(tmp_path / "repo") == (tmp_path / "shared" / "seeds").resolve()
    assert default_folder(tmp_path / "elsewhere" / "repo") is None
    monkeypatch.setenv("CRESCENT_SOURCES", str(tmp_path / "given"))
    assert default_folder(tmp_path / "repo") == tmp_path / "given"
