"""A rules page per base profile: its parameters, then each rule of spec/rules.md with its scenarios."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from conformance.corpus.scenarios import Citation, Scenario
from conformance.docs.common import base_of, nav, param_value, profiles_data, render_md, section_number, sections
from conformance.docs.html import link, page, raw, tag
from conformance.docs.playing import CSS, LOADER
from conformance.docs.runs import play
from conformance.docs.scenes import citation, scenario_block

# Which section of spec/rules.md states the rules of each area (spec/vocabulary.yaml).
AREA_SECTIONS = {
    "layout": "4", "closed": "4", "piles": "6", "pile-limit": "6", "empty-piles": "7", "foundations": "8",
    "between-foundations": "9.1", "give-backs": "9.2", "hold": "10", "reshuffle": "11", "undo": "12",
    "tap": "13.1", "drop": "13.2", "autoplay": "14", "end-of-game": "15", "reasons": "16",
    "game-codes": "17", "worked-example": "18",
}  # fmt: skip
FIRST_RULE, LAST_RULE = 4, 18  # sections 1-3 and 19-20 are about the documents, not rules of play


def applies(scenario: Scenario, base: str) -> list[str]:
    """The profiles of ``scenario`` whose base is ``base``, in the scenario's order."""
    return [p for p in scenario.profiles if base_of(p) == base]


def rule_sections() -> list[tuple[int, str, str]]:
    """The sections of spec/rules.md that state rules of play."""
    return [s for s in sections("rules.md") if FIRST_RULE <= int(section_number(s[1]).split(".")[0]) <= LAST_RULE]


def rules_page(base: str, corpus: list[Scenario]) -> str:
    """The whole page for one base profile."""
    mine = [sc for sc in corpus if applies(sc, base)]
    profile = profiles_data()["profiles"][base]
    body = [tag("h1", f"The rules of {base}"), tag("p", profile["summary"]), _counts(mine)]
    body += [tag("h2", "This profile at a glance"), parameter_table(profile["parameters"]), _contents()]
    placed: set[str] = set()
    for level, heading, text in rule_sections():
        number = section_number(heading)
        here = [sc for sc in mine if AREA_SECTIONS.get(sc.area) == number]
        placed.update(sc.id for sc in here)
        body.append(_section(level, heading, text, here, base))
    rest = [sc for sc in mine if sc.id not in placed]
    if rest:
        body.append(_section(2, "Other scenarios", "", rest, base))
    return page(f"Crescent rules: {base}", "".join(body) + LOADER, nav(), css=CSS)


def _counts(mine: list[Scenario]) -> str:
    steps = sum(len(sc.steps) for sc in mine)
    return tag("p", f"{len(mine)} scenarios, {steps} steps, each played on the reference engine.", "muted")


def _contents() -> str:
    items = [raw("li", link(f"#{_anchor(h)}", h)) for level, h, _ in rule_sections() if level == 2]
    return tag("h2", "Contents") + raw("ul", "".join(items), "toc")


def _anchor(heading: str) -> str:
    return "rule-" + section_number(heading)


def _section(level: int, heading: str, text: str, scenarios: list[Scenario], base: str) -> str:
    head = raw(f"h{level}", escape(heading), id=_anchor(heading))
    blocks = [scenario_block(sc, [play(sc, p) for p in applies(sc, base)]) for sc in scenarios]
    listing = raw(f"h{level + 1}", f"Scenarios ({len(blocks)})") + "".join(blocks) if blocks else ""
    return head + render_md(text) + listing


def parameter_table(parameters: dict[str, Any]) -> str:
    """Each parameter: what it means, its value here, and where that comes from."""
    described = profiles_data()["parameters"]
    rows = [
        raw("tr", tag("td", described[name]["description"]) + tag("td", param_value(spec["value"]))
            + raw("td", source_html(spec)))
        for name, spec in parameters.items()
    ]  # fmt: skip
    head = "<tr><th>rule</th><th>here</th><th>source</th></tr>"
    return raw("table", "<thead>" + head + "</thead><tbody>" + "".join(rows) + "</tbody>")


def source_html(spec: dict[str, Any]) -> str:
    """A parameter's source citation and interpretation link."""
    parts: Iterable[str] = []
    if "source" in spec:
        src = spec["source"]
        parts = [citation(Citation(src["doc"], str(src.get("section", "")), str(src.get("quote", ""))))]
    if "interpretation" in spec:
        iid = spec["interpretation"]
        parts = [*parts, raw("div", "our interpretation " + link(f"interpretations.html#{iid}", iid), "muted")]
    return "".join(parts)
