"""Every data file of spec/ matches its JSON Schema, and every schema is a valid 2020-12 schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from crescent_ref.spec_files import spec_dir

FILES = {
    "profiles.yaml": "profiles",
    "reasons.yaml": "reasons",
    "vocabulary.yaml": "vocabulary",
    "statements.yaml": "statements",
    "sources.yaml": "sources",
    "deals/golden.yaml": "golden",
    "perft/positions.yaml": "perft",
}


def schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((spec_dir() / "schema" / f"{name}.schema.json").read_text("utf-8"))
    return loaded


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).parent.parent / "spec" / "schema").glob("*.json")), ids=lambda p: p.name
)
def test_schema_is_valid(path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text("utf-8")))


@pytest.mark.parametrize(("file", "name"), sorted(FILES.items()))
def test_spec_file_matches_its_schema(file: str, name: str) -> None:
    data = yaml.safe_load((spec_dir() / file).read_text(encoding="utf-8"))
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in jsonschema.Draft202012Validator(schema(name)).iter_errors(data)
    ]
    assert errors == []


@pytest.mark.parametrize("file", ["profiles.yaml", "reasons.yaml", "vocabulary.yaml"])
def test_spec_file_names_its_schema_for_editors(file: str) -> None:
    first = (spec_dir() / file).read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=schema/") and first.endswith(".schema.json")


def test_every_schema_property_has_a_description() -> None:
    missing: list[str] = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                    missing.append(f"{path}.{key}")
            for key, sub in node.items():
                if key != "if":  # a condition, not a definition
                    walk(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")

    for path in sorted((spec_dir() / "schema").glob("*.json")):
        walk(json.loads(path.read_text("utf-8")), path.name)
    assert missing == []


def test_a_run_report_matches_the_report_schema(tmp_path: Path) -> None:
    from conformance.cli import main

    report = tmp_path / "r.json"
    assert main(["run", "-q", "--profile", "app", "--report", str(report)]) == 0
    data = json.loads(report.read_text("utf-8"))
    jsonschema.Draft202012Validator(schema("report")).validate(data)
    assert data["complete"] is False and data["summary"]["passed"] == len(data["results"]) > 100


def test_a_written_expectations_file_matches_its_schema(tmp_path: Path) -> None:
    from conformance.contract.expectations import write_expectations

    path = tmp_path / "e.yaml"
    record = {"id": "piles-003", "profile": "app", "verdict": "failed", "failure": {"step": 1, "mismatches": ["x"]}}
    write_expectations(path, [record])
    jsonschema.Draft202012Validator(schema("expectations")).validate(yaml.safe_load(path.read_text("utf-8")))
