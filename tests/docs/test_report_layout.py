"""The report and matrix pages as drawn in headless Chromium: nothing cut off at 1400 px, the totals above the fold
on a phone, and a matrix mark's profile readable without hovering.

Measured through chromedriver (selenium); skipped when chromium, chromedriver or selenium is missing (.ci/run
installs Debian's chromium and chromium-driver).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[dev]')")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()), reason="no chromium/chromedriver (apt-get install chromium-driver)"
)

from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402

WIDTHS = """
const page = document.documentElement, table = document.querySelector('table.report-matrix');
const scroller = getComputedStyle(table).display === 'block' ? table : table.parentElement;
const row = [...table.querySelectorAll('tr')].map((r) => r.lastElementChild.getBoundingClientRect().right);
return {page: [page.scrollWidth, page.clientWidth], table: [scroller.scrollWidth, scroller.clientWidth],
        last: Math.max(...row), right: scroller.getBoundingClientRect().right};
"""
TOTALS = """
const totals = document.querySelector('.summary .totals').getBoundingClientRect();
return {bottom: totals.bottom, height: window.innerHeight, text: document.querySelector('.summary').innerText};
"""
MARK = """
const mark = document.querySelector('tbody.area:not(.collapsed) .mark.passed');
const label = mark.querySelector('small.prof');
const box = label.getBoundingClientRect(), style = getComputedStyle(label);
return {profile: mark.dataset.profile, label: label.innerText, width: box.width, height: box.height,
        visible: style.visibility !== 'hidden' && style.display !== 'none', size: parseFloat(style.fontSize)};
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    """Headless Chromium through chromedriver."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--lang=en"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(service=webdriver.ChromeService(str(DRIVER)), options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


def measure(driver: WebDriver, page: Path, size: tuple[int, int], script: str) -> dict[str, Any]:
    """Load ``page`` in a window of ``size`` (a phone's when narrow) and run ``script`` on it."""
    metrics = {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        driver.get(page.as_uri())
        found: dict[str, Any] = driver.execute_script(script)
        return found
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture(scope="module")
def report_page(tmp_path_factory: pytest.TempPathFactory, faulty_report: Path) -> Path:
    """The faulty engine's report with every profile listed (the widest table: 21 rows, failures and errors)."""
    out = tmp_path_factory.mktemp("layout") / "report.html"
    assert main(["html-report", str(faulty_report), "--out", str(out), "--all-profiles"]) == 0
    return out


def test_at_1400_px_the_report_table_and_page_fit(driver: WebDriver, report_page: Path) -> None:
    found = measure(driver, report_page, (1400, 900), WIDTHS)
    assert found["page"][0] <= found["page"][1], found
    assert found["table"][0] <= found["table"][1] and found["last"] <= found["right"] + 1, found


def test_on_a_phone_the_totals_are_above_the_fold(driver: WebDriver, report_page: Path) -> None:
    found = measure(driver, report_page, (390, 844), TOTALS)
    assert 0 < found["bottom"] <= found["height"], found
    assert "scenario runs of" in found["text"]


def test_a_matrix_mark_shows_its_profile_without_hover(
    driver: WebDriver, tmp_path: Path, faulty_report: Path, reference_report: Path
) -> None:
    out = tmp_path / "matrix.html"
    assert main(["matrix", str(reference_report), str(faulty_report), "--out", str(out)]) == 0
    found = measure(driver, out, (1400, 900), MARK)
    assert found["label"] == found["profile"] and found["visible"], found
    assert found["width"] > 5 and found["height"] > 5 and found["size"] >= 10, found


OVERFLOW = """
const page = document.documentElement;
const wide = [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > page.clientWidth + 1 && !e.closest('.wide, pre, table'));
return {page: [page.scrollWidth, page.clientWidth], wide: wide.slice(0, 5).map((e) => e.outerHTML.slice(0, 120)),
        spoiled: [...document.querySelectorAll('p.why')].map((p) => p.innerText).join(' ')};
"""


def test_on_a_phone_a_report_with_spoiled_runs_is_no_wider_than_the_screen(driver: WebDriver, tmp_path: Path) -> None:
    """A report whose runs were spoiled (a kind of request no longer sent: long commands, long faults) keeps to
    the phone's width: only tables and code blocks scroll, inside themselves."""
    fake = Path(__file__).resolve().parents[1] / "conformance" / "fakes" / "kind_fault_engine.py"
    command = f"{sys.executable} {fake} crash reshuffle {tmp_path / 'faults'} batch"
    saved, out = tmp_path / "report.json", tmp_path / "report.html"
    assert main(["run", "--cmd", command, "--profile", "app", "--report", str(saved), "-q"]) == 1
    assert main(["html-report", str(saved), "--out", str(out)]) == 0
    found = measure(driver, out, (390, 844), OVERFLOW)
    assert "NOT SENT ANY MORE" in found["spoiled"], found
    assert found["page"][0] <= found["page"][1] and not found["wide"], found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs site, built once."""
    out = tmp_path_factory.mktemp("site")
    assert main(["docs", "--out", str(out)]) == 0
    return out


def test_on_a_phone_no_page_of_the_docs_site_is_wider_than_the_screen(driver: WebDriver, site: Path) -> None:
    """Wide tables and code scroll inside their own box, plots shrink: the page itself keeps to 390 px."""
    pages = sorted(site.glob("*.html"))
    assert len(pages) >= 8, pages
    wide = {p.name: found for p in pages if (found := measure(driver, p, (390, 844), OVERFLOW))["page"][0] > 390}
    assert not wide, wide
