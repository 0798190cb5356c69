"""The living documentation: every page built from spec/ and the reference engine, written to a folder."""

from __future__ import annotations

from pathlib import Path

from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.docs import solver_page
from conformance.docs.common import nav, render_md, rules_file, section_number, sections
from conformance.docs.html import link, page, raw, tag
from conformance.docs.playing import PLAY_FILE, play_script
from conformance.docs.rules_pages import applies, rules_page
from conformance.docs.spec_pages import (
    interpretations_page,
    profiles_page,
    reasons_page,
    traceability_page,
)
from conformance.files import check_folder, write_folder
from crescent_ref.profiles import base_names
from crescent_ref.progress import progress

DEFAULT_OUT = Path("docs/site")
PAGES = [
    ("profiles.html", "The profiles compared", "every rule parameter side by side, with sources"),
    ("interpretations.html", "Interpretations", "where the documents are silent or disagree"),
    ("reasons.html", "Reason codes", "why an action is refused, in English, Indonesian and Chinese"),
    ("traceability.html", "Traceability", "each statement of the documents and the scenarios covering it"),
    *solver_page.entries(),
]


def pages(corpus: list[Scenario]) -> dict[str, str]:
    """File name -> HTML of every page."""
    bases = progress(base_names(), "rules pages", total=len(base_names()), unit="page")
    built = {rules_file(base): rules_page(base, corpus) for base in bases}
    built["profiles.html"] = profiles_page()
    built["interpretations.html"] = interpretations_page(corpus)
    built["reasons.html"] = reasons_page(corpus)
    built["traceability.html"] = traceability_page(corpus)
    built.update(solver_page.pages())
    built["index.html"] = index_page(corpus)
    return built


def build(out: Path = DEFAULT_OUT, corpus: list[Scenario] | None = None) -> list[Path]:
    """Write every page into ``out``: built in a folder beside it and moved into place whole, so a failed
    build (a full disk) leaves the old site as it was. Returns the files written."""
    check_folder(out)
    built = pages(corpus if corpus is not None else load_corpus())
    return write_folder(out, {**built, PLAY_FILE: play_script()})


def index_page(corpus: list[Scenario]) -> str:
    """Links to every page, with what each holds."""
    rows = [
        raw("li", link(rules_file(b), f"The rules of {b}") + f" — {sum(bool(applies(sc, b)) for sc in corpus)} "
            "scenarios, each drawn step by step")
        for b in base_names()
    ]  # fmt: skip
    rows += [raw("li", link(href, text) + " — " + what) for href, text, what in PAGES]
    intro = tag(
        "p",
        "Generated from spec/ by crescent-conformance docs: the rules in our words, and every scenario of the "
        f"corpus ({len(corpus)}) played on the reference engine. Do not edit these pages; edit spec/.",
        "muted",
    )
    terms = "".join(render_md(t) for _, h, t in sections("rules.md") if section_number(h) == "1")
    body = tag("h1", "Crescent: the rules as a living document") + intro + raw("ul", "".join(rows))
    return page("Crescent: living documentation", body + tag("h2", "Terms") + terms, nav())
