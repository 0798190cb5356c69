"""The pages about the specification itself: profiles compared, interpretations, reasons, traceability."""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import TYPE_CHECKING, Any

from conformance.corpus import trace
from conformance.corpus.scenarios import Scenario
from conformance.docs.common import (
    base_of,
    nav,
    param_value,
    profiles_data,
    render_md,
    rules_file,
    scenario_href,
    section_number,
    sections,
    spec_text,
)
from conformance.docs.html import link, page, raw, tag
from conformance.docs.rules_pages import source_html
from crescent_ref.spec_files import load_yaml

if TYPE_CHECKING:
    from conformance.coverage import ChoiceProbe


def scenario_links(scenarios: list[Scenario]) -> str:
    """Comma-separated links to scenarios."""
    return ", ".join(link(scenario_href(sc), sc.id) for sc in scenarios)


def _table(head: list[str], rows: list[str]) -> str:
    return raw("table", raw("thead", raw("tr", "".join(tag("th", h) for h in head))) + raw("tbody", "".join(rows)))


def profiles_page() -> str:
    """Every parameter of every base profile side by side, then the variants, then rules.md §2-3."""
    data = profiles_data()
    bases = list(data["profiles"])
    rows = [_param_row(name, spec["description"], data["profiles"]) for name, spec in data["parameters"].items()]
    head = ["rule", *bases]
    body = [tag("h1", "The profiles compared"), _table(head, rows), tag("h2", "Variants"), _variants(data)]
    body += [raw(f"h{level}", escape(h)) + render_md(text) for level, h, text in sections("rules.md")
             if section_number(h) in ("2", "3")]  # fmt: skip
    return page("Crescent: the profiles compared", "".join(body), nav())


def _param_row(name: str, description: str, profiles: dict[str, Any]) -> str:
    cells = [raw("td", f"{escape(description)} <code>{escape(name)}</code>")]
    for base, profile in profiles.items():
        spec = profile["parameters"][name]
        value = raw("div", raw("strong", link(rules_file(base), param_value(spec["value"]))))
        cells.append(raw("td", value + source_html(spec)))
    return raw("tr", "".join(cells))


def _variants(data: dict[str, Any]) -> str:
    rows = []
    for name, variant in data["variants"].items():
        sets = "".join(
            raw("div", f"<code>{escape(p)}</code> = {escape(param_value(s['value']))}" + source_html(s))
            for p, s in variant["parameters"].items()
        )
        rows.append(raw("tr", tag("td", name) + tag("td", variant["summary"]) + raw("td", sets)))
    return _table(["variant", "what it is", "sets"], rows)


def interpretations_page(corpus: list[Scenario]) -> str:
    """spec/interpretations.md, each decision followed by the scenarios and parameters resting on it."""
    from conformance.coverage import choice_probes

    body = [tag("h1", "Interpretations"), render_md(_preamble("interpretations.md"))]
    probes = choice_probes(corpus)
    for level, heading, part in sections("interpretations.md"):
        iid = heading.split()[0]
        decided = "".join(_decided(p, corpus) for p in probes if p.choice == iid)
        body.append(raw(f"h{level}", escape(heading), id=iid) + render_md(part) + _uses(iid, corpus) + decided)
    return page("Crescent: interpretations", "".join(body), nav())


def _preamble(name: str) -> str:
    text = spec_text(name)
    start = text.find("\n", text.find("# ")) + 1
    end = text.find("\n## ")
    return text[start:end]


def _uses(iid: str, corpus: list[Scenario]) -> str:
    resting = [sc for sc in corpus if iid in sc.interpretations]
    params = [
        f"{base}: {name}"
        for base, prof in profiles_data()["profiles"].items()
        for name, spec in prof["parameters"].items()
        if spec.get("interpretation") == iid
    ]
    parts = [f"Scenarios resting on it ({len(resting)}): " + (scenario_links(resting) or "none")]
    if params:
        parts.append("Profile parameters citing it: " + escape(", ".join(params)))
    return "".join(raw("p", p, "muted") for p in parts)


def _decided(probe: ChoiceProbe, corpus: list[Scenario]) -> str:
    """One alternative of a choice and the scenarios it decides (their verdict changes on the reference)."""
    ids = {key.split("[")[0] for key in probe.scenarios}
    chosen = [sc for sc in corpus if sc.id in ids]
    ours, other = param_value(probe.value), param_value(probe.changed)
    said = f"{probe.profile} with {probe.parameter} = {other} instead of {ours}"
    return raw("p", escape(said) + f": decides {len(chosen)}: " + (scenario_links(chosen) or "none"), "muted")


def reasons_page(corpus: list[Scenario]) -> str:
    """Every reason code in precedence order with its messages in the three languages."""
    expecting = _reason_scenarios(corpus)
    rows = [_reason_row(entry, expecting.get(entry["code"], [])) for entry in load_yaml("reasons.yaml")["reasons"]]
    table = _table(["code", "when", "English", "Indonesian", "Chinese", "scenarios"], rows)
    rule = "".join(render_md(t) for _, h, t in sections("rules.md") if section_number(h) == "16")
    note = tag(
        "p",
        "First listed, first given: when several reasons apply, the one higher in this table is the one "
        "reported. Messages marked ‘app’ are the app's own words: the Indonesian quoted from 000, the Chinese "
        "from 003; scenarios check them through the message request.",
        "muted",
    )
    return page("Crescent: reason codes", tag("h1", "Reason codes") + note + table + tag("h2", "Order") + rule, nav())


def _reason_scenarios(corpus: list[Scenario]) -> dict[str, list[Scenario]]:
    found: dict[str, list[Scenario]] = defaultdict(list)
    for sc in corpus:
        codes = {e.reason for st in sc.steps for e in (st.expect, *st.by_profile.values()) if e.reason}
        for code in sorted(codes):
            found[code].append(sc)
    return found


def _reason_row(entry: dict[str, Any], scenarios: list[Scenario]) -> str:
    code = entry["code"]
    where = escape(entry["applies_to"])
    if entry.get("interpretation"):
        where += " (" + link(f"interpretations.html#{entry['interpretation']}", entry["interpretation"]) + ")"
    quoted = ' <span class="badge passed">app</span>' if entry.get("quoted") else ""
    cells = [
        raw("td", tag("code", code), id=code),
        raw("td", where),
        tag("td", entry["en"]),
        raw("td", escape(entry["id"]) + quoted, lang="id"),
        raw("td", escape(entry["zh"]) + quoted, lang="zh"),
        raw("td", f"{len(scenarios)}: " + scenario_links(scenarios[:8]) + (" …" if len(scenarios) > 8 else "")),
    ]
    return raw("tr", "".join(cells))


def traceability_page(corpus: list[Scenario]) -> str:
    """Each statement of each document and the scenarios covering it."""
    by_id = {sc.id: sc for sc in corpus}
    covered = trace.coverage(corpus)
    raw_statements = load_yaml("statements.yaml")["statements"]
    body = [tag("h1", "Traceability"), _trace_summary(raw_statements, covered)]
    for doc in load_yaml("sources.yaml")["documents"]:
        mine = [s for s in raw_statements if s["doc"] == doc["file"]]
        head = f"{doc['file'][:3]} — {doc['title']} ({doc['language_name']})"
        rows = [_trace_row(s, [by_id[i] for i in covered.get(s["id"], []) if i in by_id]) for s in mine]
        body += [tag("h2", head), tag("p", doc["describes"], "muted")]
        body.append(_table(["statement", "section", "kind", "in our words", "quote", "scenarios"], rows))
    body += [tag("h2", heading) + render_md(part) for _, heading, part in sections("traceability.md")
             if heading in COVERAGE_SECTIONS]
    return page("Crescent: traceability", "".join(body), nav())


COVERAGE_SECTIONS = ("Parameter coverage", "Reason coverage")  # written by conformance.coverage.render


def _trace_summary(statements: list[dict[str, Any]], covered: dict[str, list[str]]) -> str:
    testable = [s for s in statements if not s.get("not_testable")]
    missing = [s["id"] for s in testable if not covered.get(s["id"])]
    text = (
        f"{len(statements)} statements, {len(testable)} checkable, {len(testable) - len(missing)} covered by "
        f"at least one scenario, {len(missing)} not covered."
    )
    return tag("p", text)


def _trace_row(statement: dict[str, Any], scenarios: list[Scenario]) -> str:
    if scenarios:
        cell = scenario_links(scenarios) + _profile_marks(scenarios)
    elif statement.get("not_testable"):
        cell = tag("span", "not testable: " + statement["not_testable"], "muted")
    else:
        cell = raw("strong", "none", "rejected")
    cells = [
        raw("td", tag("code", statement["id"]), id=statement["id"]),
        tag("td", statement["section"]),
        tag("td", statement["kind"]),
        tag("td", statement["summary"]),
        tag("td", statement.get("quote", "")),
        raw("td", cell),
    ]
    return raw("tr", "".join(cells))


def _profile_marks(scenarios: list[Scenario]) -> str:
    bases = sorted({base_of(p) for sc in scenarios for p in sc.profiles})
    return raw("div", "in " + escape(", ".join(bases)), "muted")

