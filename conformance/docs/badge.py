"""A conformance badge: a small SVG in the shields.io flat style ("crescent app | 684/684"), no network.

The number is passed runs over runs made (skipped ones are not runs). Only all passed is green: a run
that misses even one is yellow (from 95 %), orange (from 80 %) or red, so 736/749 never looks like
749/749 at a glance; grey when nothing ran. A partial run says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from conformance.judging.report import outcome

COLOURS = ((1.0, "#4c1"), (0.95, "#dfb317"), (0.8, "#fe7d37"), (0.0, "#e05d44"))
GREY = "#9f9f9f"
NARROW, WIDE = frozenset("ilj1.,:;!|/ ()[]'"), frozenset("mwMW@%")


@dataclass(frozen=True, slots=True)
class Tally:
    """What a badge says: passed runs over runs made, and whether the run was complete."""

    passed: int
    ran: int
    complete: bool

    @property
    def message(self) -> str:
        """``684/684``, ``no runs``, with `` partial`` for a partial run."""
        text = f"{self.passed}/{self.ran}" if self.ran else "no runs"
        return text if self.complete else f"{text} partial"

    @property
    def colour(self) -> str:
        """The colour of the ratio passed / ran."""
        if not self.ran:
            return GREY
        ratio = self.passed / self.ran
        return next(colour for floor, colour in COLOURS if ratio >= floor)


def in_profile(record: dict[str, Any], profile: str | None) -> bool:
    """The record is of ``profile`` (or of a variant of the base profile ``profile``); None takes all."""
    return profile is None or record["profile"] == profile or record["profile"].startswith(profile + "+")


def tally(report: dict[str, Any], profile: str | None = None) -> Tally:
    """The badge's numbers for a report, overall or for one profile."""
    records = [r for r in report["results"] if in_profile(r, profile)]
    ran = [r for r in records if r["verdict"] != "skipped" and outcome(r) != "not claimed"]
    return Tally(sum(r["verdict"] == "passed" for r in ran), len(ran), bool(report.get("complete")))


def text_width(text: str) -> int:
    """An estimate of the text's width in pixels at 11px Verdana (shields' font)."""
    return round(sum(4 if c in NARROW else 10 if c in WIDE else 7 for c in text)) + 10


def badge_svg(label: str, message: str, colour: str) -> str:
    """The badge: the label on grey, the message on ``colour``."""
    left, right = text_width(label), text_width(message)
    total, title = left + right, escape(f"{label}: {message}")
    texts = "".join(
        f'<text x="{x}" y="15" fill="#010101" fill-opacity=".3">{escape(t)}</text>'
        f'<text x="{x}" y="14">{escape(t)}</text>'
        for x, t in ((left / 2, label), (left + right / 2, message))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        '<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">'
        f"{texts}</g></svg>\n"
    )


def report_badge(report: dict[str, Any], profile: str | None = None, label: str = "crescent") -> str:
    """The badge of a report (overall, or for one profile: "crescent app")."""
    numbers = tally(report, profile)
    return badge_svg(f"{label} {profile}" if profile else label, numbers.message, numbers.colour)


def base_profiles(report: dict[str, Any]) -> list[str]:
    """The base profiles a report has records of."""
    return sorted({r["profile"].split("+")[0] for r in report["results"]})
