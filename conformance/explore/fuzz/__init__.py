"""Differential play: the reference engine and an implementation side by side, from corner positions.

Modules: ``table`` and ``corners`` (generators of corner positions, one per rule corner),
``policy`` (which action next), ``duel`` (both sides stepped and compared), ``compare`` (what a
difference is), ``shrink`` (fewest steps, then a simpler position, time-capped), ``diagnose`` and
``rulebook`` (each side's verdict, the rule it touches), ``findings`` (scenario files), ``run``
(the driver), ``database`` (past findings replayed first). See docs/fuzzing.md.
"""

from __future__ import annotations

from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.corners import CORNERS, Corner, Start, corners_for, generated_position, make_start
from conformance.explore.fuzz.findings import Finding
from conformance.explore.fuzz.observe import Ignore, Observed
from conformance.explore.fuzz.run import FuzzConfig, FuzzReport, fuzz
from conformance.explore.fuzz.shrink import Case

__all__ = [
    "CORNERS", "Case", "Corner", "Difference", "Finding", "FuzzConfig", "FuzzReport", "Ignore", "Observed", "Start",
    "corners_for", "fuzz", "generated_position", "make_start",
]
