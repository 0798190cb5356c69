"""The engine's copy of the spec data (crescent_ref/spec_copy_data.py) equals the YAML it was made from,
and is taken only while the file is unchanged."""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from crescent_ref import spec_copy, spec_files
from crescent_ref.spec_copy_data import COPIES

REGENERATE = "the copy is behind the YAML: run `python -m crescent_ref.spec_copy`, commit spec_copy_data.py"


@pytest.mark.parametrize("name", spec_copy.COPIED)
def test_the_copy_equals_the_yaml_and_its_crc(name: str) -> None:
    crc, data = COPIES[name]
    assert crc == spec_copy.crc(name), REGENERATE
    assert data == spec_copy.parsed(name), REGENERATE


def test_the_copy_file_is_what_the_command_writes() -> None:
    assert spec_copy.TARGET.read_text(encoding="utf-8") == spec_copy.render(), REGENERATE


def test_a_file_edited_since_the_copy_is_parsed_from_the_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edited = (spec_files.spec_dir() / "reasons.yaml").read_text(encoding="utf-8") + "\n# edited\n"
    (tmp_path / "profiles.yaml").write_text("version: 1\n", encoding="utf-8")
    (tmp_path / "reasons.yaml").write_text(edited, encoding="utf-8")
    monkeypatch.setattr(spec_files, "_spec_folder", lambda: str(tmp_path))
    spec_files.load_yaml.cache_clear()
    try:
        assert spec_files.load_yaml("profiles.yaml") == {"version": 1}  # not the copy: the CRC differs
        reasons = spec_files.load_yaml("reasons.yaml")
        assert reasons == COPIES["reasons.yaml"][1] and reasons is not COPIES["reasons.yaml"][1]
    finally:
        spec_files.load_yaml.cache_clear()


def test_an_unchanged_file_is_taken_from_the_copy() -> None:
    spec_files.load_yaml.cache_clear()
    assert spec_files.load_yaml("profiles.yaml") is COPIES["profiles.yaml"][1]
    assert zlib.crc32((spec_files.spec_dir() / "profiles.yaml").read_bytes()) == COPIES["profiles.yaml"][0]


def test_serve_starts_without_yaml_or_pathlib() -> None:
    probe = "import sys, crescent_ref.serve; print(sorted({'yaml', 'pathlib', 'jsonschema'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
