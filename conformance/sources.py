"""The source check: every quote the kit cites, verbatim in the stated section of its document.

The kit carries only short cited quotes of the three rule documents (spec/sources.yaml); the
documents themselves live outside it (``../shared/seeds`` beside a checkout). Given their folder,
``problems`` reads each document, checks its SHA-256 against spec/sources.yaml, splits it into the
sections listed there, and checks every citation of statements.yaml, the scenarios, profiles.yaml,
reasons.yaml (the quoted messages, each language in its own document) and the **Weighed** lists of
interpretations.md. ``tests/spec/test_sources.py`` and ``crescent-conformance trace --sources DIR``
run it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.corpus.scenarios import Scenario
from crescent_ref.spec_files import load_yaml, spec_dir

ENV = "CRESCENT_SOURCES"
WEIGHED = re.compile(r"^- (\d{3}) § (.+?): “(.+)”$")


@dataclass(frozen=True, slots=True)
class Quote:
    """One citation: where the kit cites it, the document, the section, and the quoted words."""

    where: str
    doc: str
    section: str
    text: str


def default_folder(root: Path | None = None) -> Path | None:
    """``$CRESCENT_SOURCES``, else ``../shared/seeds`` beside the checkout when it exists, else None."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    beside = (root or spec_dir().parent).resolve().parent / "shared" / "seeds"
    return beside if beside.is_dir() else None


def documents() -> list[dict[str, Any]]:
    """The entries of spec/sources.yaml."""
    return list(load_yaml("sources.yaml")["documents"])


def problems(folder: Path, corpus: Iterable[Scenario]) -> list[str]:
    """Every checksum or quote that does not hold, one line each (empty: all hold)."""
    found: list[str] = []
    texts: dict[str, dict[str, str]] = {}
    for entry in documents():
        path = folder / entry["file"]
        if not path.is_file():
            found.append(f"{path}: document missing")
            continue
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            found.append(f"{path}: sha256 differs from spec/sources.yaml (a different version of the document)")
        sections, missing = split(data.decode("utf-8"), [s["heading"] for s in entry["sections"]])
        found += [f"{entry['file']}: heading {h!r} of spec/sources.yaml not found in order" for h in missing]
        texts[entry["file"]] = sections
    return found + [_fault(q, texts) for q in quotes(corpus) if _fault(q, texts)]


def _fault(quote: Quote, texts: dict[str, dict[str, str]]) -> str:
    sections = texts.get(quote.doc)
    if sections is None:
        return "" if quote.doc in {d["file"] for d in documents()} else f"{quote.where}: unknown document {quote.doc}"
    if quote.section not in sections:
        return f"{quote.where}: no section {quote.section!r} in {quote.doc}"
    if quote.text not in sections[quote.section]:
        return f"{quote.where}: {quote.text!r} is not in {quote.doc} § {quote.section}"
    return ""


def split(text: str, headings: list[str]) -> tuple[dict[str, str], list[str]]:
    """The text of each section (a heading is a line of its own, in the listed order; the text
    before the first heading belongs to the first section), and the headings not found."""
    lines = text.splitlines()
    starts: list[tuple[str, int]] = []
    missing: list[str] = []
    cursor = 0
    for heading in headings:
        at = next((i for i in range(cursor, len(lines)) if lines[i].strip() == heading), None)
        if at is None:
            missing.append(heading)
            continue
        starts.append((heading, at))
        cursor = at + 1
    bounds = [0 if n == 0 else at + 1 for n, (_, at) in enumerate(starts)] + [len(lines)]
    ends = [at for _, at in starts[1:]] + [len(lines)]
    return {h: "\n".join(lines[bounds[n]:ends[n]]) for n, (h, _) in enumerate(starts)}, missing


def quotes(corpus: Iterable[Scenario]) -> Iterator[Quote]:
    """Every citation of the kit, with where it is cited."""
    yield from _statement_quotes()
    for sc in corpus:
        yield from (Quote(f"{sc.location} {sc.id}", c.doc, c.section, c.quote) for c in sc.sources)
    yield from _profile_quotes()
    yield from _reason_quotes()
    yield from _weighed_quotes()


def _statement_quotes() -> Iterator[Quote]:
    for st in load_yaml("statements.yaml")["statements"]:
        yield Quote(f"spec/statements.yaml {st['id']}", st["doc"], st["section"], st["quote"])


def _profile_quotes() -> Iterator[Quote]:
    data = load_yaml("profiles.yaml")
    for kind in ("profiles", "variants"):
        for name, entry in data[kind].items():
            for param, spec in entry["parameters"].items():
                if "source" in spec:
                    src = spec["source"]
                    yield Quote(f"spec/profiles.yaml {name}.{param}", src["doc"], src["section"], src["quote"])


def _reason_quotes() -> Iterator[Quote]:
    for entry in load_yaml("reasons.yaml")["reasons"]:
        if entry.get("quoted"):
            for lang, src in entry["source"].items():
                yield Quote(f"spec/reasons.yaml {entry['code']}.{lang}", src["doc"], src["section"], entry[lang])


def _weighed_quotes() -> Iterator[Quote]:
    files = {d["file"][:3]: d["file"] for d in documents()}
    iid = ""
    for number, line in enumerate((spec_dir() / "interpretations.md").read_text("utf-8").splitlines(), 1):
        if line.startswith("## "):
            iid = line.split()[1]
        found = WEIGHED.match(line)
        if found:
            doc = files.get(found[1], found[1])
            yield Quote(f"spec/interpretations.md:{number} {iid}", str(doc), found[2], found[3])
