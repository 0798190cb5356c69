"""Decided % against the time budget, drawn as a small SVG (no plotting library).

A solve's restarts count nodes, not seconds, so a solve given a budget of ``t`` CPU seconds runs
the same searches as the first ``t`` seconds of a longer solve: the share of deals a run decided
within ``t`` seconds is the share that run would have decided with a budget of ``t``, for every
``t`` up to its own budget. Each curve is read off one results file that way, one per profile.
The x axis is logarithmic (0.05 s to the largest budget), the y axis 0-100 %.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 16, 44
FIRST = 0.05  # the smallest budget drawn, in seconds
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")


@dataclass(frozen=True, slots=True)
class Curve:
    """One profile's decided share (percent) at each budget, from one run of ``budget`` seconds."""

    label: str
    budget: float
    points: tuple[tuple[float, float], ...]


def curve(label: str, budget: float, rows: Sequence[dict[str, Any]], steps: int = 40) -> Curve:
    """The decided share within ``t`` seconds, for ``t`` on a log grid from FIRST to ``budget``."""
    times = sorted(r["seconds"] for r in rows if r["verdict"] != "unknown")
    grid = [FIRST * (budget / FIRST) ** (i / steps) for i in range(steps)]
    points = [(t, 100 * sum(s <= t for s in times) / len(rows)) for t in grid]
    return Curve(label, budget, (*points, (budget, 100 * len(times) / len(rows))))  # a solve may end just past it


def svg(curves: Sequence[Curve], title: str) -> str:
    """The plot, one coloured line per curve with its label at the right."""
    most = max(c.budget for c in curves)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
             f"<title>{escape(title)}</title>", '<rect width="100%" height="100%" fill="white"/>']
    parts += axes(most)
    heights = label_heights(curves)
    for i, found in enumerate(curves):
        colour = COLOURS[i % len(COLOURS)]
        line = " ".join(f"{x(t, most):.1f},{y(p):.1f}" for t, p in found.points)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        end = found.points[-1]
        parts.append(f'<text x="{x(end[0], most) + 6:.1f}" y="{heights[i]:.1f}" '
                     f'fill="{colour}">{escape(found.label)} {end[1]:.1f} %</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def label_heights(curves: Sequence[Curve], gap: float = 12) -> list[float]:
    """Where each curve's label goes: beside its end, pushed down so that labels at the same
    budget are at least ``gap`` apart."""
    heights = [y(c.points[-1][1]) + 4 for c in curves]
    for budget in {c.budget for c in curves}:
        same = sorted((i for i, c in enumerate(curves) if c.budget == budget), key=lambda i: heights[i])
        for above, below in itertools.pairwise(same):
            heights[below] = max(heights[below], heights[above] + gap)
    return heights


def axes(most: float) -> list[str]:
    """Gridlines and labels: 0-100 % by tens, budgets 0.1, 1, 10, 100 s and the largest."""
    parts = []
    for percent in range(0, 101, 20):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(percent):.1f}" y2="{y(percent):.1f}" '
                     'stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(percent) + 4:.1f}" text-anchor="end">{percent} %</text>')
    for seconds in [s for s in (0.1, 0.5, 1, 2, 5, 10, 30, 60, 100) if s <= most]:
        parts.append(f'<line x1="{x(seconds, most):.1f}" x2="{x(seconds, most):.1f}" y1="{TOP}" '
                     f'y2="{HEIGHT - BOTTOM}" stroke="#ddd"/>')
        parts.append(f'<text x="{x(seconds, most):.1f}" y="{HEIGHT - BOTTOM + 14}" '
                     f'text-anchor="middle">{seconds:g}</text>')
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
                 "time budget per deal (CPU seconds, log scale)</text>")
    parts.append(f'<text x="14" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2})">deals decided</text>')
    return parts


def x(seconds: float, most: float) -> float:
    span = max(math.log(most / FIRST), 1e-9)
    return LEFT + (WIDTH - LEFT - RIGHT) * math.log(max(seconds, FIRST) / FIRST) / span


def y(percent: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - percent / 100)
