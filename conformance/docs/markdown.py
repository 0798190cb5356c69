"""Markdown of spec/*.md as HTML, by markdown-it-py (CommonMark with tables, no raw HTML).

Headings get an ``id``: the interpretation id for ``## I-...`` headings, a slug otherwise. The kit's
own links (statement ids, interpretation ids, reason codes) are added by ``post``, which rewrites each
rendered inline run (a paragraph, a heading, a list item, a table cell), never a code block.
The HTML is compact, as the pages have always had it: no line breaks between the tags of a list or
a table, one between blocks, none at the end; a line break inside a paragraph is a space.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

COMPACT = {"ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td"}


def slug(text: str) -> str:
    """An anchor for a heading: its ``I-...`` id if it starts with one, else lower-case words joined by '-'."""
    found = re.match(r"(I-[A-Z0-9-]+)", text)
    if found:
        return found.group(1)
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Renderer(RendererHTML):
    """markdown-it's HTML renderer with the pages' heading ids, compact lists and tables, and ``post``."""

    def renderInline(self, tokens: Sequence[Token], options: OptionsDict, env: EnvType) -> str:
        """An inline run, then the ``post`` of ``env`` over it."""
        html = super().renderInline(tokens, options, env)
        post = env.get("post")
        return post(html) if callable(post) else html

    def renderToken(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A tag; those of lists and tables without a line break, but for the close of a top-level one; a top-level
        table in a ``wide`` box."""
        token = tokens[idx]
        if token.type == "heading_open":
            token.attrSet("id", slug(tokens[idx + 1].content))
        html = super().renderToken(tokens, idx, options, env)
        top_close = token.nesting == -1 and token.level == 0
        html = html.rstrip("\n") if token.tag in COMPACT and not top_close else html
        if token.tag == "table" and token.level == 0:  # a wide table scrolls in its own box (a phone's page does not)
            html = '<div class="wide">' + html if token.nesting == 1 else html.replace("</table>", "</table></div>", 1)
        return html

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """Plain text: only ``&``, ``<`` and ``>`` escaped."""
        return escape(tokens[idx].content, quote=False)

    def code_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A code span."""
        return f"<code>{escape(tokens[idx].content)}</code>"

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A fenced block, its info string ignored."""
        return f"<pre><code>{escape(tokens[idx].content.removesuffix(chr(10)))}</code></pre>\n"

    def softbreak(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A line break inside a paragraph."""
        return " "


PARSER = MarkdownIt("commonmark", {"html": False}, renderer_cls=Renderer).enable("table")


def render(text: str, post: Callable[[str], str] = lambda s: s) -> str:
    """HTML for a Markdown text; ``post`` rewrites each rendered inline run (to add links)."""
    return str(PARSER.render(text, {"post": post})).rstrip("\n")
