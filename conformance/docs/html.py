"""The page shell shared by the documentation and the report: one self-contained file, inline CSS."""

from __future__ import annotations

from html import escape

from conformance.docs.svg import CSS as SVG_CSS

CSS = """
:root { --ink:#1d2327; --muted:#5b6770; --line:#d8dee3; --ok:#1a7f37; --bad:#c62828; --warn:#9a6700;
  --skip:#6e7781; --accent:#1f6feb; --bg:#fbfbf8; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 "DejaVu Sans", "Segoe UI", Arial, sans-serif; color:var(--ink);
  background:var(--bg); }
header.site { background:#214d36; color:#fff; padding:.6rem 1.5rem; }
header.site a { color:#fff; margin-right:1.1rem; text-decoration:none; }
header.site a:hover { text-decoration:underline; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1 { font-size:1.7rem; margin:.8rem 0; } h2 { margin-top:2.2rem; border-bottom:2px solid var(--line); }
h3 { margin-top:1.6rem; }
a { color:var(--accent); }
code { background:#eef1f3; padding:0 .25em; border-radius:3px; font-size:.92em; overflow-wrap:anywhere; }
p { overflow-wrap:anywhere; }
pre { background:#eef1f3; padding:.6rem; overflow-x:auto; }
table { border-collapse:collapse; margin:.6rem 0; }
th, td { border:1px solid var(--line); padding:.3rem .5rem; vertical-align:top; text-align:left; }
th { background:#eef1f3; }
.muted { color:var(--muted); }
.scenario { border:1px solid var(--line); border-radius:8px; background:#fff; padding:.6rem 1rem; margin:1rem 0; }
.scenario h4 { margin:.2rem 0 .4rem; font-size:1.05rem; }
.scenario .id { font-family:monospace; color:var(--muted); margin-right:.5rem; }
.cite { border-left:3px solid var(--line); padding-left:.6rem; margin:.3rem 0; color:var(--muted); }
.step { margin:.6rem 0 .8rem; padding-left:.6rem; border-left:3px solid var(--line); }
.accepted { color:var(--ok); font-weight:bold; } .rejected { color:var(--bad); font-weight:bold; }
.badge { display:inline-block; padding:0 .45em; border-radius:9px; font-size:.85em; color:#fff; }
.badge.passed { background:var(--ok); } .badge.failed, .badge.errored { background:var(--bad); }
.badge.skipped { background:var(--skip); } .badge.other { background:var(--warn); }
.figure { margin:.4rem 0; } .figure svg { max-width:100%; height:auto; }
.figcap { font-size:.85em; color:var(--muted); }
td.n { text-align:right; font-variant-numeric: tabular-nums; }
td.zero { color:#b8c0c6; }
.cell-bad { background:#fde8e8; } .cell-ok { background:#e7f5ea; }
details summary { cursor:pointer; color:var(--muted); }
.toc { columns: 2; }
td code { white-space:nowrap; }
.wide { overflow-x:auto; }
main.wide-page { max-width: 1500px; }
table.matrix { font-size:.85em; } table.matrix td { white-space:nowrap; }
table.matrix th, table.matrix td { padding:.2rem .35rem; }
table.matrix th { font-size:.9em; }
table.multi th.impl { font-weight:normal; min-width:11rem; vertical-align:bottom; position:sticky; top:0; }
table.multi tr.area-row th, table.multi tr.area-row td:not([class]) { background:#e3e8ec; }
table.multi tbody.collapsed tr.scenario-row { display:none; }
table.multi th.sid { font-weight:normal; font-family:monospace; background:#fff; }
button.toggle { border:0; background:none; font:inherit; font-weight:bold; cursor:pointer; padding:0; }
button.toggle::before { content:"▾ "; } tbody.collapsed button.toggle::before { content:"▸ "; }
.mark { text-decoration:none; padding:0 .12em; } .mark.passed { color:var(--ok); }
.mark.failed, .mark.errored, .mark.xpassed { color:var(--bad); font-weight:bold; } .mark.skipped { color:var(--skip); }
@media (max-width: 640px) {
  main { padding:.5rem .7rem 3rem; } header.site { padding:.4rem .7rem; }
  header.site a { margin-right:.6rem; display:inline-block; }
  .toc { columns:1; } table { display:block; overflow-x:auto; } h1 { font-size:1.35rem; }
  .scenario { padding:.5rem .6rem; }
}
"""


_WIDE = ' class="wide-page"'


def page(
    title: str, body: str, nav: list[tuple[str, str]] | None = None, *, wide: bool = False, css: str = ""
) -> str:
    """A whole HTML document: the title, a bar of (href, label) links, and the body (``wide``: for big tables)."""
    bar = "".join(f'<a href="{escape(href)}">{escape(label)}</a>' for href, label in nav or [])
    header = f'<header class="site">{bar}</header>' if bar else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}{SVG_CSS}{css}</style></head>"
        f"<body>{header}<main{_WIDE if wide else ''}>{body}</main></body></html>\n"
    )


def tag(name: str, text: str, cls: str = "", **attrs: str) -> str:
    """``<name class=...>text</name>`` with ``text`` escaped."""
    return raw(name, escape(text), cls, **attrs)


def raw(name: str, html: str, cls: str = "", **attrs: str) -> str:
    """``<name class=...>html</name>`` with ``html`` kept as is."""
    pairs = ([("class", cls)] if cls else []) + [(k.rstrip("_").replace("_", "-"), v) for k, v in attrs.items()]
    attr = "".join(f' {k}="{escape(v)}"' for k, v in pairs)
    return f"<{name}{attr}>{html}</{name}>"


def link(href: str, text: str) -> str:
    """An escaped link."""
    return f'<a href="{escape(href)}">{escape(text)}</a>'
