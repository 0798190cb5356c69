"""What the documentation pages share: spec text, links between pages, the navigation bar."""

from __future__ import annotations

import functools
import re
from typing import Any

from conformance.corpus.scenarios import Scenario
from conformance.docs import markdown
from crescent_ref.messages import reason_codes
from crescent_ref.profiles import base_names
from crescent_ref.spec_files import load_yaml, spec_dir

STATEMENT_ID = re.compile(r"(?<![\w-])(00[0-9]-[a-z]+-\d{2})(?![\w-])")
INTERPRETATION_ID = re.compile(r"(?<![\w-])(I-[A-Z0-9]+(?:-[A-Z0-9]+)*)(?![\w-])")


def rules_file(base: str) -> str:
    """File name of a base profile's rules page."""
    return f"rules-{base}.html"


def base_of(profile: str) -> str:
    """``open`` for ``open+four+closed``."""
    return profile.split("+")[0]


def scenario_href(scenario: Scenario) -> str:
    """The scenario's anchor on the rules page of the first base profile it names."""
    return f"{rules_file(base_of(scenario.profiles[0]))}#{scenario.id}"


def short_path(path: str) -> str:
    """``spec/scenarios/piles.yaml`` for a path inside a spec folder; other paths as they are."""
    marker = "/spec/"
    return "spec/" + path.rsplit(marker, 1)[1] if marker in path else path


def nav() -> list[tuple[str, str]]:
    """The links at the top of every page."""
    rules = [(rules_file(b), b) for b in base_names()]
    return [
        ("index.html", "Crescent"),
        *rules,
        ("profiles.html", "Profiles compared"),
        ("interpretations.html", "Interpretations"),
        ("reasons.html", "Reasons"),
        ("traceability.html", "Traceability"),
    ]


def link_ids(html: str) -> str:
    """Statement ids, interpretation ids and reason codes in rendered text, made into links."""
    html = STATEMENT_ID.sub(r'<a href="traceability.html#\1">\1</a>', html)
    html = INTERPRETATION_ID.sub(r'<a href="interpretations.html#\1">\1</a>', html)
    return re.sub(r"<code>([a-z-]+)</code>", _reason_link, html)


def _reason_link(found: re.Match[str]) -> str:
    code = found.group(1)
    return f'<a href="reasons.html#{code}">{found.group(0)}</a>' if code in reason_codes() else found.group(0)


def render_md(text: str) -> str:
    """Markdown of the spec as HTML, ids linked."""
    return markdown.render(text, link_ids)


@functools.cache
def spec_text(name: str) -> str:
    """A text file of spec/."""
    return (spec_dir() / name).read_text(encoding="utf-8")


def sections(name: str) -> list[tuple[int, str, str]]:
    """The (level, heading, body) of each ``##`` and ``###`` section of a Markdown file of spec/."""
    found = []
    for chunk in re.split(r"^(?=#{2,3} )", spec_text(name), flags=re.M)[1:]:
        heading, _, body = chunk.partition("\n")
        found.append((len(heading) - len(heading.lstrip("#")), heading.lstrip("#").strip(), body))
    return found


def section_number(heading: str) -> str:
    """``9.1`` for ``9.1 Between the two foundations of a suit``; ``6`` for ``6. Building on the piles``."""
    return heading.split()[0].rstrip(".")


def param_value(value: Any) -> str:
    """A parameter value in words."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return "no limit" if value is None else str(value)


def profiles_data() -> dict[str, Any]:
    """spec/profiles.yaml."""
    data: dict[str, Any] = load_yaml("profiles.yaml")
    return data
