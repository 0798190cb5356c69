"""Just enough Markdown for spec/*.md: headings, paragraphs, nested lists, tables, code, emphasis, links.

Headings get an ``id``: the interpretation id for ``## I-...`` headings, a slug otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

LIST_ITEM = re.compile(r"^( *)([-*]|\d+\.) +(.*)$")
HEADING = re.compile(r"^(#{1,6}) +(.*)$")
INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
]


def slug(text: str) -> str:
    """An anchor for a heading: its ``I-...`` id if it starts with one, else lower-case words joined by '-'."""
    found = re.match(r"(I-[A-Z0-9-]+)", text)
    if found:
        return found.group(1)
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def inline(text: str) -> str:
    """Escape, then render code spans, bold, italics and links."""
    pieces = re.split(r"(`[^`]+`)", text)
    return "".join(
        f"<code>{escape(p[1:-1])}</code>" if p.startswith("`") and p.endswith("`") and len(p) > 1 else _emphasis(p)
        for p in pieces
    )


def _emphasis(text: str) -> str:
    out = escape(text, quote=False)
    for pattern, repl in INLINE:
        out = pattern.sub(repl, out)
    return out


def render(text: str, post: Callable[[str], str] = lambda s: s) -> str:
    """HTML for a Markdown text; ``post`` rewrites each rendered inline run (to add links)."""
    return _blocks(text.splitlines(), lambda s: post(inline(s)))


def _blocks(lines: list[str], fmt: Callable[[str], str]) -> str:
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        reader = _fence if line.startswith("```") else _heading if HEADING.match(line) else None
        reader = reader or (_table if line.lstrip().startswith("|") else _list if LIST_ITEM.match(line) else _para)
        html, i = reader(lines, i, fmt)
        out.append(html)
    return "\n".join(out)


def _fence(lines: list[str], i: int, fmt: Callable[[str], str]) -> tuple[str, int]:
    end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
    return "<pre><code>" + escape("\n".join(lines[i + 1 : end])) + "</code></pre>", end + 1


def _heading(lines: list[str], i: int, fmt: Callable[[str], str]) -> tuple[str, int]:
    found = HEADING.match(lines[i])
    assert found is not None
    level, text = len(found.group(1)), found.group(2).strip()
    return f'<h{level} id="{escape(slug(text))}">{fmt(text)}</h{level}>', i + 1


def _starts_block(line: str) -> bool:
    return bool(HEADING.match(line) or LIST_ITEM.match(line) or line.startswith("```") or line.startswith("|"))


def _para(lines: list[str], i: int, fmt: Callable[[str], str]) -> tuple[str, int]:
    j = i + 1
    while j < len(lines) and lines[j].strip() and not _starts_block(lines[j]):
        j += 1
    return "<p>" + fmt(" ".join(s.strip() for s in lines[i:j])) + "</p>", j


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str], i: int, fmt: Callable[[str], str]) -> tuple[str, int]:
    j = i
    while j < len(lines) and lines[j].lstrip().startswith("|"):
        j += 1
    rows = [_cells(s) for s in lines[i:j] if not re.fullmatch(r"[\s|:-]+", s)]
    head = "".join(f"<th>{fmt(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{fmt(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>", j


def _list(lines: list[str], i: int, fmt: Callable[[str], str]) -> tuple[str, int]:
    first = LIST_ITEM.match(lines[i])
    assert first is not None
    indent, tag = len(first.group(1)), "ol" if first.group(2)[0].isdigit() else "ul"
    items = []
    while i < len(lines):
        found = LIST_ITEM.match(lines[i])
        if not found or len(found.group(1)) != indent:
            break
        body, i = _item(lines, i, indent + len(found.group(2)) + 1, found.group(3))
        items.append("<li>" + _unwrap(_blocks(body, fmt)) + "</li>")
    return f"<{tag}>" + "".join(items) + f"</{tag}>", i


def _item(lines: list[str], i: int, inner: int, text: str) -> tuple[list[str], int]:
    """The lines of one list item (dedented), and the index after it."""
    body, j = [text], i + 1
    while j < len(lines):
        line = lines[j]
        indented = len(line) - len(line.lstrip()) >= inner - 1 and line.strip()
        if indented:
            body.append(line[min(inner, len(line) - len(line.lstrip())) :])
        elif not line.strip() and j + 1 < len(lines) and lines[j + 1].startswith(" " * inner):
            body.append("")
        else:
            break
        j += 1
    return body, j


def _unwrap(html: str) -> str:
    if html.startswith("<p>") and html.count("<p>") == 1:
        return html[3:].replace("</p>", "", 1)
    return html
