"""The solver's page of the docs site: docs/solver.md (win rates, proofs, how it searches) with its
plot of decided deals against the time budget (docs/solver-budget.svg) drawn inline.

The page is built from the source tree's docs/; an installed kit without it (a wheel) has no
solver page, and the index does not list one.
"""

from __future__ import annotations

import re
from pathlib import Path

from conformance.docs.common import nav, render_md
from conformance.docs.html import page

DOCS = Path(__file__).resolve().parents[2] / "docs"
SOURCE, PLOT = DOCS / "solver.md", DOCS / "solver-budget.svg"
FILE = "solver.html"


def entries() -> list[tuple[str, str, str]]:
    """The index's line for the page (none when docs/solver.md is not there)."""
    return [(FILE, "The solver and win rates", "which deals can be won, proofs, and the measured win rates")] \
        if SOURCE.exists() else []


def pages() -> dict[str, str]:
    """File name -> HTML of the solver's page (empty when docs/solver.md is not there)."""
    if not SOURCE.exists():
        return {}
    html = render_md(SOURCE.read_text(encoding="utf-8"))
    if PLOT.exists():
        svg = PLOT.read_text(encoding="utf-8")
        image = re.compile(f'<img src="{re.escape(PLOT.name)}" alt="([^"]*)" />')
        figure = '<figure class="figure">{}<figcaption>{}</figcaption></figure>'  # the plot shrinks to a phone's width
        html = image.sub(lambda found: figure.format(svg, found.group(1)), html)
    return {FILE: page("Crescent: the solver and win rates", html, nav(), wide=True)}
