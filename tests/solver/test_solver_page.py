"""The solver's page of the docs site (conformance/docs/solver_page.py): docs/solver.md with its
plot drawn inline, listed on the index."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.docs import site, solver_page


def test_the_page_shows_the_tables_and_draws_the_plot_inline() -> None:
    html = solver_page.pages()[solver_page.FILE]
    assert "<h2" in html and "Win rates" in html and "<table>" in html
    assert html.count("<svg") == 1 and "<figcaption>" in html and "solver-budget.svg" not in html
    assert any(href == solver_page.FILE for href, _, _ in site.PAGES)


def test_without_the_docs_folder_there_is_no_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(solver_page, "SOURCE", tmp_path / "solver.md")
    assert solver_page.pages() == {} and solver_page.entries() == []
