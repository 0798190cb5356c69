"""The documentation pages: every scenario on its profiles' pages, every reason, statement and link."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.corpus import trace
from conformance.corpus.scenarios import Scenario
from conformance.docs import solver_page
from conformance.docs.common import base_of, rules_file
from conformance.docs.markdown import render, slug
from conformance.docs.playing import PLAY_FILE
from conformance.docs.rules_pages import AREA_SECTIONS, rule_sections
from crescent_ref.messages import message, reason_codes
from crescent_ref.profiles import base_names
from crescent_ref.spec_files import load_yaml, spec_dir


@dataclass(frozen=True)
class Anchors:
    """Every ``id`` and every link target of a generated page (always written with double quotes)."""

    ids: list[str]
    hrefs: list[str]


def parse(path: Path) -> Anchors:
    """The anchors and links of a page."""
    html = path.read_text(encoding="utf-8")
    return Anchors(re.findall(r'<[a-z0-9]+ [^>]*?\bid="([^"]*)"', html), re.findall(r'<a href="([^"]*)"', html))


def section_of(html: str, scenario_id: str) -> str:
    """The ``<section>`` of one scenario on a page."""
    start = html.index(f'<section class="scenario" id="{scenario_id}">')
    return html[start : html.index("</section>", start)]


def test_every_page_is_written(site: Path) -> None:
    names = {p.name for p in site.iterdir()}
    assert {rules_file(b) for b in base_names()} <= names
    assert {"index.html", "profiles.html", "interpretations.html", "reasons.html", "traceability.html"} <= names


def test_every_scenario_is_on_the_page_of_each_of_its_base_profiles_and_only_there(
    site: Path, corpus: list[Scenario]
) -> None:
    ids = {b: parse(site / rules_file(b)).ids for b in base_names()}
    for sc in corpus:
        bases = {base_of(p) for p in sc.profiles}
        for base, found in ids.items():
            assert found.count(sc.id) == (1 if base in bases else 0), f"{sc.id} on {rules_file(base)}"


def test_each_scenario_shows_every_step_once_per_profile_run(site: Path, corpus: list[Scenario]) -> None:
    pages = {b: (site / rules_file(b)).read_text(encoding="utf-8") for b in base_names()}
    for sc in corpus:
        for base in {base_of(p) for p in sc.profiles}:
            runs = sum(base_of(p) == base for p in sc.profiles)
            block = section_of(pages[base], sc.id)
            assert block.count('<div class="step">') == runs * len(sc.steps), f"{sc.id} on {base}"
            assert block.count('<details class="play">') == runs, f"{sc.id} has no play control on {base}"


def shown_reason(code: str) -> str:
    """How a step refused with ``code`` reads on a page: the linked code, then the English message."""
    text = message(code).replace("'", "&#x27;")
    return f'<a href="reasons.html#{code}"><code>{code}</code></a> — “{text}”'


def test_a_rejected_step_shows_its_reason_and_english_message(site: Path, corpus: list[Scenario]) -> None:
    pages = {b: (site / rules_file(b)).read_text(encoding="utf-8") for b in base_names()}
    checked = 0
    for sc in corpus:
        for profile in sc.profiles:
            for step in sc.steps:
                expect = step.expected(profile)
                if expect.outcome == "rejected" and expect.reason:
                    assert shown_reason(expect.reason) in section_of(pages[base_of(profile)], sc.id)
                    checked += 1
    assert checked > 50


def test_rules_pages_are_light_and_load_the_play_script_only_when_a_run_is_opened(site: Path) -> None:
    for base in base_names():
        html = (site / rules_file(base)).read_text(encoding="utf-8")
        assert len(html.encode()) < 1_000_000, f"{rules_file(base)} weighs {len(html.encode())} bytes"
        assert '<svg class="table"' not in html and html.count(f"'{PLAY_FILE}'") == 1
        assert "<script src=" not in html, "the play script must not load with the page"
    script = (site / PLAY_FILE).read_text(encoding="utf-8")
    assert "globalThis.CrescentJS" in script and "globalThis.CrescentPlay" in script and "const GEOMETRY" in script


def test_every_reason_code_and_its_three_messages_are_on_the_reasons_page(site: Path) -> None:
    html = (site / "reasons.html").read_text(encoding="utf-8")
    ids = parse(site / "reasons.html").ids
    for code in reason_codes():
        assert code in ids
        for lang in ("en", "id", "zh"):
            assert message(code, lang).replace("'", "&#x27;") in html, f"{code} {lang}"


def test_every_statement_has_a_row_and_its_scenarios_on_the_traceability_page(
    site: Path, corpus: list[Scenario]
) -> None:
    page = (site / "traceability.html").read_text(encoding="utf-8")
    ids = set(parse(site / "traceability.html").ids)
    covering = trace.coverage(corpus)
    for st in trace.statements():
        assert st.id in ids
        row = page[page.index(f'id="{st.id}"') : page.index("</tr>", page.index(f'id="{st.id}"'))]
        for sid in covering.get(st.id, []):
            assert f'#{sid}">{sid}</a>' in row


def test_the_traceability_page_shows_parameter_and_reason_coverage(site: Path) -> None:
    page = (site / "traceability.html").read_text(encoding="utf-8")
    assert "Parameter coverage" in page and "Reason coverage" in page
    row = page[page.index("<td>stuck_when</td>") : page.index("</tr>", page.index("<td>stuck_when</td>"))]
    assert "end-of-game-008" in row


def test_every_interpretation_has_an_anchor(site: Path) -> None:
    ids = set(parse(site / "interpretations.html").ids)
    wanted = set(re.findall(r"^## (I-[A-Z0-9-]+)", (spec_dir() / "interpretations.md").read_text("utf-8"), re.M))
    assert wanted and wanted <= ids


def test_every_internal_link_lands_on_an_existing_anchor(site: Path) -> None:
    pages = {p.name: parse(p) for p in site.glob("*.html")}
    broken = []
    for name, page in pages.items():
        for href in page.hrefs:
            target, _, anchor = href.partition("#")
            target = target or name
            if target not in pages or (anchor and anchor not in pages[target].ids):
                broken.append(f"{name} -> {href}")
    assert not broken, broken[:10]


def test_every_area_maps_to_a_rules_section() -> None:
    numbers = {h.split()[0].rstrip(".") for _, h, _ in rule_sections()}
    assert set(AREA_SECTIONS.values()) <= numbers
    assert set(AREA_SECTIONS) <= set(load_yaml("vocabulary.yaml")["areas"])


def test_the_profiles_page_shows_every_parameter_of_every_profile(site: Path) -> None:
    html = (site / "profiles.html").read_text(encoding="utf-8")
    data = load_yaml("profiles.yaml")
    for name in data["parameters"]:
        assert f"<code>{name}</code>" in html
    for variant in data["variants"]:
        assert f"<td>{variant}</td>" in html


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("## 9.1 Between", '<h2 id="9-1-between">9.1 Between</h2>'),
        ("## I-STUCK — when", '<h2 id="I-STUCK">I-STUCK — when</h2>'),
        ("a `x<y` **b** *c*", "<p>a <code>x&lt;y</code> <strong>b</strong> <em>c</em></p>"),
        ("- one\n  more\n- two", "<ul><li>one more</li><li>two</li></ul>"),
        ("1. a\n   - b\n   - c\n2. d", "<ol><li>a\n<ul><li>b</li><li>c</li></ul></li><li>d</li></ol>"),
        ("| a | b |\n|---|---|\n| 1 | 2 |", '<div class="wide"><table><thead><tr><th>a</th><th>b</th></tr></thead>'
         "<tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>"),
        ("```\n<x>\n```", "<pre><code>&lt;x&gt;</code></pre>"),
        ("[spec](a.html)", '<p><a href="a.html">spec</a></p>'),
        ("- **`won`**: all", "<ul><li><strong><code>won</code></strong>: all</li></ul>"),
        ("a <b>x</b> & y", "<p>a &lt;b&gt;x&lt;/b&gt; &amp; y</p>"),
        ("## 2. `a` **b**\ntext", '<h2 id="2-a-b">2. <code>a</code> <strong>b</strong></h2>\n<p>text</p>'),
    ],
)  # fmt: skip
def test_markdown(text: str, html: str) -> None:
    assert render(text) == html


def test_slug() -> None:
    assert slug("I-PILE-NUMBERS — where piles sit") == "I-PILE-NUMBERS"
    assert slug("16. Reasons for a refusal") == "16-reasons-for-a-refusal"


def test_the_docs_command_writes_the_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    assert main(["docs", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert (out / "index.html").is_file() and str(out) in said
    count = 5 + len(base_names()) + len(solver_page.entries())  # the solver's page, from docs/solver.md
    assert len(list(out.glob("*.html"))) == count
    assert f"wrote {count} pages and a script to " in said
