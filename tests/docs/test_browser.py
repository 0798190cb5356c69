"""The pages in a real browser: headless Chromium renders them without console errors; the report draws its tables.

Skipped only when /usr/bin/chromium is absent (.ci/run installs Debian's chromium). The play control is driven in
test_play_browser.py.
"""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from conformance.docs.common import rules_file
from conformance.docs.htmlreport import write_html_report

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
]
CONSOLE = re.compile(r"CONSOLE|Uncaught", re.I)
FELT = (0x2E, 0x7D, 0x4F)  # the table's green (conformance.docs.svg.CSS)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")


def chromium(page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium on a local page with a fresh profile; fails the test on a console message."""
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        done = subprocess.run(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def console_messages(stderr: str) -> list[str]:
    """The lines Chromium logs for the page's console (errors, uncaught exceptions)."""
    return [line for line in stderr.splitlines() if CONSOLE.search(line)]


def dom(page: Path) -> str:
    """The page's DOM after loading, with no console message allowed."""
    done = chromium(page, "--dump-dom")
    assert console_messages(done.stderr) == []
    return done.stdout


def screenshot(page: Path, png: Path, size: str) -> bytes:
    """A screenshot of the page's top at half scale, with no console message allowed."""
    done = chromium(page, f"--screenshot={png}", f"--window-size={size}", "--force-device-scale-factor=0.5")
    assert console_messages(done.stderr) == []
    assert png.is_file(), done.stderr[-2000:]
    return png.read_bytes()


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered RGB(A) rows of an 8-bit, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format: depth {depth}, colour type {colour}"
    step = 3 if colour == 2 else 4
    raw, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        raw += data[at + 8 : at + 8 + length] if kind == b"IDAT" else b""
        at += 12 + length
    return width, height, _unfilter(zlib.decompress(raw), width * step, step)


def _unfilter(raw: bytes, stride: int, step: int) -> list[bytes]:
    rows, previous = [], bytearray(stride)
    for y in range(len(raw) // (stride + 1)):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b, c = previous[i], previous[i - step] if i >= step else 0
            line[i] = (line[i] + _predict(kind, a, b, c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return rows


def _predict(kind: int, a: int, b: int, c: int) -> int:
    if kind == 0:
        return 0
    if kind in (1, 2):
        return a if kind == 1 else b
    if kind == 3:
        return (a + b) // 2
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def colours(rows: list[bytes], step: int) -> set[tuple[int, ...]]:
    """The distinct colours of every fourth pixel of every fourth row."""
    return {tuple(row[i : i + 3]) for row in rows[::4] for i in range(0, len(row), step * 4)}


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory, faulty_report: Path) -> Path:
    """The faulty run's report as HTML."""
    return write_html_report(faulty_report, tmp_path_factory.mktemp("html") / "report.html")


@pytest.mark.parametrize("page", [rules_file("app"), rules_file("morehead-1949")])
def test_a_rules_page_loads_without_console_errors_and_draws_nothing_until_asked(site: Path, page: str) -> None:
    path = site / page
    wanted = path.read_text(encoding="utf-8").count('<details class="play">')
    assert wanted > 100
    shown = dom(path)
    assert shown.count('<details class="play">') == wanted and '<svg class="table"' not in shown


def test_the_report_renders_every_failure_table_without_console_errors(report_html: Path) -> None:
    source = report_html.read_text(encoding="utf-8")
    wanted = source.count('<svg class="table"')
    assert wanted > 0
    shown = dom(report_html)
    assert shown.count('<svg class="table"') == wanted
    assert shown.count('<section class="scenario"') == source.count('<section class="scenario"')


def test_screenshots_are_not_blank_and_show_the_table(site: Path, report_html: Path, tmp_path: Path) -> None:
    rules = png_pixels(screenshot(site / rules_file("app"), tmp_path / "rules.png", "1200,1600"))
    report = png_pixels(screenshot(report_html, tmp_path / "report.png", "1200,3000"))
    for (width, height, rows), size in ((rules, (600, 800)), (report, (600, 1500))):
        assert (width, height) == size and len(rows) == height
        assert len(colours(rows, len(rows[0]) // width)) >= 8, "the screenshot is (nearly) blank"
    step = len(report[2][0]) // report[0]
    assert FELT in colours(report[2], step), "no table drawn in the report's first screen"


def test_a_console_error_is_detected(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>throw new Error("boom")</script>', encoding="utf-8")
    done = chromium(page, "--dump-dom")
    assert any("boom" in line for line in console_messages(done.stderr))
