"""The matrix page: the reference, crescent-js and a mutant side by side, checked as drawn in Chromium.

The three are run in-process (crescent-js over stdio; its column is left out, with a skipped test
saying why, when node is not on PATH) on the scenarios of a few rule areas, to keep this quick.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from test_browser import CHROMIUM, chromium, colours, console_messages, png_pixels

from conformance.adapter import Adapter
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main
from conformance.corpus.scenarios import Scenario
from conformance.docs.matrix import deviations_text, render_matrix
from conformance.judging.report import report_header, write_report
from conformance.judging.runner import run_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
from mutants import BY_NAME, MutantAdapter

ROOT = Path(__file__).resolve().parent.parent.parent
JS = f"node {ROOT / 'implementations' / 'crescent-js' / 'bin' / 'crescent-js.js'}"
NODE = shutil.which("node")
MUTANT = "four_reshuffles_in_app"  # fails in reshuffle and game-codes
AREAS = ("reshuffle", "game-codes", "undo")
NO_CHROMIUM = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")


def run_into(path: Path, adapter: Adapter, scenarios: list[Scenario]) -> dict[str, Any]:
    """Every scenario in every profile it names, against ``adapter``, as a report file; returns the report."""
    info = adapter.info()
    try:
        results = [run_scenario(adapter, info, sc, p) for sc in scenarios for p in sc.profiles]
    finally:
        adapter.close()
    write_report(path, report_header(info, sorted({r.profile for r in results}), False), results)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, corpus: list[Scenario]) -> list[Path]:
    """Report files of the reference, crescent-js (when node is there) and the mutant."""
    chosen = [sc for sc in corpus if sc.area in AREAS]
    out = tmp_path_factory.mktemp("matrix")
    adapters: list[tuple[str, Adapter]] = [("reference", ReferenceAdapter())]
    adapters += [("crescent-js", StdioAdapter(JS, timeout=20))] if NODE else []
    adapters += [("mutant", MutantAdapter(BY_NAME[MUTANT]))]
    for name, adapter in adapters:
        run_into(out / f"{name}.json", adapter, chosen)
    return [out / f"{name}.json" for name, _ in adapters]


@pytest.fixture(scope="module")
def loaded(reports: list[Path]) -> list[dict[str, Any]]:
    """The reports as data."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in reports]


@pytest.fixture(scope="module")
def matrix_page(reports: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page, written by the command."""
    out = tmp_path_factory.mktemp("matrix-page") / "matrix.html"
    assert main(["matrix", *map(str, reports), "--out", str(out)]) == 0
    return out


class Marks(HTMLParser):
    """The marks drawn in the matrix cells, the ids on the page, and the collapsed areas."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: dict[tuple[int, str, str], str] = {}
        self.links: dict[tuple[int, str, str], str] = {}
        self.ids: set[str] = set()
        self.collapsed: set[str] = set()

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.ids.add(a.get("id", ""))
        if "data-verdict" in a:
            key = (int(a["data-impl"]), a["data-id"], a["data-profile"])
            self.marks[key] = a["data-verdict"]
            if "href" in a:
                self.links[key] = a["href"].removeprefix("#")
        if name == "tbody" and "collapsed" in a.get("class", "").split():
            self.collapsed.add(a["data-area"])


def marks_of(html: str) -> Marks:
    """Parse a page's marks."""
    parser = Marks()
    parser.feed(html)
    return parser


def verdicts(reports: list[dict[str, Any]]) -> dict[tuple[int, str, str], str]:
    """Every record's verdict, keyed as the marks are."""
    return {(i, r["id"], r["profile"]): r["verdict"] for i, data in enumerate(reports) for r in data["results"]}


def test_the_mutant_fails_and_the_others_pass(loaded: list[dict[str, Any]]) -> None:
    assert [set(d["summary"]) for d in loaded[:-1]] == [{"passed"}] * (len(loaded) - 1)
    assert loaded[-1]["summary"].get("failed", 0) > 0 and loaded[-1]["implementation"]["name"] == f"mutant-{MUTANT}"


def test_each_cell_draws_the_reports_verdicts_and_links_failures(
    loaded: list[dict[str, Any]], matrix_page: Path
) -> None:
    page = marks_of(matrix_page.read_text(encoding="utf-8"))
    assert page.marks == verdicts(loaded)
    failed = {k for k, v in page.marks.items() if v in ("failed", "errored")}
    assert failed and set(page.links) == failed and all(page.links[k] in page.ids for k in failed)


def test_the_column_heads_name_each_implementation(loaded: list[dict[str, Any]], matrix_page: Path) -> None:
    html = matrix_page.read_text(encoding="utf-8")
    heads = re.findall(r'<th class="impl" data-impl="\d+">(.*?)</th>', html)
    assert len(heads) == len(loaded)
    for head, data in zip(heads, loaded, strict=True):
        impl = data["implementation"]
        assert f"<strong>{impl['name']} {impl['version']}</strong> ({impl['language']})" in head
        assert ", ".join(f"{n} {v}" for v, n in sorted(data["summary"].items())) in head


def test_html_report_of_several_reports_draws_the_matrix(reports: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "several.html"
    assert main(["html-report", *map(str, reports), "--out", str(out)]) == 0
    assert f"Conformance matrix: {len(reports)} implementations" in out.read_text(encoding="utf-8")


def test_crescent_js_has_a_column(loaded: list[dict[str, Any]]) -> None:
    if NODE is None:
        pytest.skip("Node.js (node) is not on PATH: the matrix is drawn without crescent-js")
    assert [d["implementation"]["name"] for d in loaded] == ["crescent_ref", "crescent-js", f"mutant-{MUTANT}"]


def test_capabilities_and_deviations_show_when_the_header_has_them(loaded: list[dict[str, Any]]) -> None:
    extra = {**loaded[0], "deviations": {"app": {"pile_limit": None, "undo_limit": 5}},
             "capabilities": ["reasons", "undo"], "unchecked": {"waiting": "waiting is read as playing"}}  # fmt: skip
    html = render_matrix([extra, loaded[-1]])
    assert "deviations: app, except pile_limit=null, undo_limit=5" in html and "capabilities: reasons, undo" in html
    assert "not checked: waiting (waiting is read as playing)" in html
    assert "deviations:" not in render_matrix(loaded)
    assert deviations_text(["odd"]) == "odd"
    first = {**loaded[0]["results"][0], "unchecked": ["reason (no capability)"]}
    html = render_matrix([{**loaded[0], "results": [first, *loaded[0]["results"][1:]]}])
    assert "1 runs with checks not made" in html and "not checked: reason (no capability)" in html


def test_a_profile_one_report_lacks_is_a_dot_in_the_row_order(loaded: list[dict[str, Any]]) -> None:
    first = loaded[0]["results"][0]
    fewer = {**loaded[0], "results": loaded[0]["results"][1:]}
    html = render_matrix([fewer, loaded[-1]])
    assert html.count(f'title="{first["profile"]}: not run"') == 1
    assert marks_of(html).marks == verdicts([fewer, loaded[-1]])


def test_other_corpus_versions_are_noted(loaded: list[dict[str, Any]]) -> None:
    html = render_matrix([loaded[0], {**loaded[-1], "corpus_version": "2"}])
    assert "different corpus versions (1, 2)" in html and "PARTIAL run" in html


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    """Where screenshots go: $CRESCENT_SCREENSHOTS, or the test's temporary folder."""
    folder = Path(os.environ.get("CRESCENT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    yield folder


@pytest.mark.browser
@NO_CHROMIUM
def test_in_chromium_the_drawn_verdicts_are_the_reports(
    loaded: list[dict[str, Any]], matrix_page: Path, shots: Path
) -> None:
    png = shots / "matrix.png"
    args = ("--dump-dom", f"--screenshot={png}", "--window-size=1400,1400", "--force-device-scale-factor=0.5")
    done = chromium(matrix_page, *args)
    assert console_messages(done.stderr) == []
    page = marks_of(done.stdout)
    assert page.marks == verdicts(loaded)
    bad_areas = {r["area"] for r in loaded[-1]["results"] if r["verdict"] != "passed"}
    assert page.collapsed == set(AREAS) - bad_areas, "areas where all passed start collapsed, the others open"
    width, height, rows = png_pixels(png.read_bytes())
    seen = colours(rows, len(rows[0]) // width)
    assert (width, height) == (700, 700) and len(seen) >= 8
    assert any(r > 200 and g < 120 and b < 120 for r, g, b, *_ in seen), "no failure mark drawn in red"
