"""A game that plays only the app's rules and lacks three offers, for ``--impl app_only:factory`` (this folder on
the path): what a newcomer's first engine often is. Its runs show "not claimed" and "not run, and why"."""

from __future__ import annotations

import dataclasses

from conformance.adapter import Info
from conformance.adapters.reference import ReferenceAdapter

LACKS = frozenset({"game-codes", "tap", "legal-moves"})


class AppOnly(ReferenceAdapter):
    """The reference engine declaring the app alone, no variants, and no game codes, tap or legal moves."""

    def info(self) -> Info:
        """The reference's handshake, cut down."""
        full = super().info()
        return dataclasses.replace(
            full, name="app-only", version="0.1", profiles=("app",), variants=(), capabilities=full.capabilities - LACKS
        )


def factory() -> AppOnly:
    """The app-only engine."""
    return AppOnly()
