"""In-process implementations that declare deviations, for ``--impl declaring:<name>`` (this folder on the path)."""

from __future__ import annotations

from conformance.adapters.reference import ReferenceAdapter


def no_pile_limit() -> ReferenceAdapter:
    """The app without the 13-card limit and with five undo steps, both declared."""
    return ReferenceAdapter({"app": {"pile_limit": None, "undo_limit": 5}})
