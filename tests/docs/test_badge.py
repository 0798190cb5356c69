"""The conformance badge: valid SVG carrying the numbers, coloured by the pass ratio."""

from __future__ import annotations

import colorsys
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.docs.badge import GREY, Tally, report_badge, tally

SVG = "{http://www.w3.org/2000/svg}"


def report(verdicts: dict[str, list[str]], complete: bool = True) -> dict[str, Any]:
    """A report with records of these verdicts per profile."""
    results = [{"id": f"s{i}", "profile": p, "area": "piles", "verdict": v}
               for p, vs in verdicts.items() for i, v in enumerate(vs)]  # fmt: skip
    return {"implementation": {"name": "g", "version": "1", "language": "js"}, "complete": complete,
            "results": results, "summary": {}, "time": "T"}  # fmt: skip


def texts(svg: str) -> list[str]:
    """The badge's visible texts (each is drawn twice, shadow and text)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and int(root.attrib["width"]) > 50 and root.attrib["height"] == "20"
    return [t.text or "" for t in root.iter(f"{SVG}text")][1::2]


def fill(svg: str) -> str:
    """The colour of the badge's right-hand part."""
    return ET.fromstring(svg).findall(f".//{SVG}rect")[2].attrib["fill"]


def test_an_all_passing_run_says_so_in_green() -> None:
    svg = report_badge(report({"app": ["passed"] * 193, "open": ["passed"] * 186}))
    assert texts(svg) == ["crescent", "379/379"] and fill(svg) == "#4c1"


def test_a_profile_badge_counts_its_variants_and_leaves_skips_out() -> None:
    data = report({"app": ["passed", "failed"], "app+closed": ["passed", "skipped"], "open": ["passed"]})
    assert texts(report_badge(data, "app")) == ["crescent app", "2/3"]
    assert texts(report_badge(data, "app+closed")) == ["crescent app+closed", "1/1"]
    assert texts(report_badge(data)) == ["crescent", "3/4"]


def test_the_colour_follows_the_ratio_and_partial_runs_say_so() -> None:
    assert [Tally(p, 100, True).colour for p in (100, 96, 85, 60, 10)] == [
        "#4c1", "#dfb317", "#fe7d37", "#e05d44", "#e05d44"
    ]  # fmt: skip
    assert Tally(0, 0, True).colour == GREY and Tally(0, 0, True).message == "no runs"
    assert tally(report({"app": ["passed"]}, complete=False)).message == "1/1 partial"


def test_odd_text_is_escaped_into_valid_svg() -> None:
    assert texts(report_badge(report({"app": ["passed"]}), label="<a & b>"))[0] == "<a & b>"


def test_the_badge_command(tmp_path: Path) -> None:
    source = tmp_path / "r.json"
    source.write_text(json.dumps(report({"app": ["passed", "failed"], "open": ["passed"]})), encoding="utf-8")
    assert main(["badge", str(source), "--out", str(tmp_path / "b.svg"), "--profile", "open"]) == 0
    assert texts((tmp_path / "b.svg").read_text(encoding="utf-8")) == ["crescent open", "1/1"]
    assert main(["badge", str(source), "--each-profile", "--out", str(tmp_path / "badges")]) == 0
    assert sorted(p.name for p in (tmp_path / "badges").iterdir()) == ["crescent-app.svg", "crescent-open.svg"]
    assert texts((tmp_path / "badges" / "crescent-app.svg").read_text(encoding="utf-8"))[1] == "1/2"


def test_an_unwritable_output_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "r.json"
    source.write_text(json.dumps(report({"app": ["passed"]})), encoding="utf-8")
    assert main(["badge", str(source), "--out", str(tmp_path / "no" / "such" / "b.svg")]) == 2
    assert "cannot be written: the folder" in capsys.readouterr().err and not list(tmp_path.rglob("*.tmp"))
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert main(["badge", str(source), "--each-profile", "--out", str(tmp_path / "file")]) == 2
    assert "cannot make the folder" in capsys.readouterr().err


def rgb(colour: str) -> tuple[int, ...]:
    """``#4c1`` or ``#44cc11`` as (r, g, b)."""
    digits = colour.lstrip("#")
    digits = "".join(c * 2 for c in digits) if len(digits) == 3 else digits
    return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))


def test_all_passed_and_one_in_fifty_failed_have_colours_far_apart() -> None:
    full, nearly = Tally(749, 749, True).colour, Tally(736, 749, True).colour
    hue = [colorsys.rgb_to_hsv(*(c / 255 for c in rgb(x)))[0] * 360 for x in (full, nearly)]
    assert full != nearly and abs(hue[0] - hue[1]) > 40, (full, nearly, hue)
