"""The corpus's closed vocabularies: areas and features, interpretation ids, statement ids."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

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


class Choice(NamedTuple):
    """An interpretation spec/interpretations.md classifies as a choice, and the profile parameters that
    set it otherwise (``(base profile, parameter)``; empty when no parameter can)."""

    id: str
    declared_as: tuple[tuple[str, str], ...]


@functools.cache
def interpretation_kinds() -> dict[str, str]:
    """Interpretation id -> ``forced`` or ``choice``, from each section's ``Kind:`` line."""
    kinds: dict[str, str] = {}
    for iid, body in _sections():
        found = re.search(r"^Kind: \*\*(forced|choice)\*\*", body, flags=re.M)
        if found:
            kinds[iid] = found.group(1)
    return kinds


@functools.cache
def choices() -> tuple[Choice, ...]:
    """The choices, each with its ``Declared as:`` parameters (``` `base: parameter` ``` items)."""
    found = []
    for iid, body in _sections():
        if interpretation_kinds().get(iid) == "choice":
            line = re.search(r"^Declared as: (.*)$", body, flags=re.M)
            pairs = re.findall(r"`([a-z0-9-]+): ([a-z_]+)`", line.group(1)) if line else []
            found.append(Choice(iid, tuple(pairs)))
    return tuple(found)


def _sections() -> list[tuple[str, str]]:
    text = (spec_dir() / "interpretations.md").read_text("utf-8")
    parts = re.split(r"^## (I-[A-Z0-9-]+)[^\n]*$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))
