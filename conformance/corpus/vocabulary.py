"""The corpus's closed vocabularies: areas and features, interpretation ids, statement ids."""

from __future__ import annotations

import functools
import re

from crescent_ref.spec_files import load_yaml, spec_dir


@functools.cache
def vocabulary() -> dict[str, set[str]]:
    """Known areas and features (spec/vocabulary.yaml)."""
    data = load_yaml("vocabulary.yaml")
    return {"areas": set(data["areas"]), "features": set(data["features"])}


def interpretation_ids() -> set[str]:
    """Ids of the written interpretations (headings ``## I-...`` of spec/interpretations.md)."""
    text = (spec_dir() / "interpretations.md").read_text("utf-8")
    return set(re.findall(r"^## (I-[A-Z0-9-]+)", text, flags=re.M))


def statement_ids() -> set[str]:
    """Ids of the documents' rule statements (spec/statements.yaml), empty if the file is absent."""
    if not (spec_dir() / "statements.yaml").is_file():
        return set()
    data = load_yaml("statements.yaml")
    items = data["statements"] if isinstance(data, dict) else data
    return {s["id"] for s in items}
