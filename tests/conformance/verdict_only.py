"""A game that only says yes or no: an adapter wrapped to drop what real engines often cannot observe.

The reasons of refusals, the ``waiting`` status (reported as ``playing``), STATE's undo count, the
effect and the card moves of a reply are all dropped, and the observation capabilities are not
declared. ``--crescent-impl verdict_only:factory`` (this folder on the path) is the wrapped reference.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from conformance.adapter import OBSERVATIONS, Adapter, Info, Reply
from conformance.adapters.reference import ReferenceAdapter


def blind(state: dict[str, Any]) -> dict[str, Any]:
    """The state as a game without ``waiting`` and without an undo count reports it."""
    seen = {k: v for k, v in state.items() if k != "undo"}
    return {**seen, "status": "playing"} if state.get("status") == "waiting" else seen


class Wrapped:
    """An adapter seen through another game: legal moves, messages and closing go to ``inner`` as they are."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner

    def legal_moves(self) -> list[str]:
        """The inner engine's legal moves."""
        return self.inner.legal_moves()

    def message(self, reason: str, lang: str) -> str:
        """The inner engine's message for a reason."""
        return self.inner.message(reason, lang)

    def close(self) -> None:
        """Close the inner adapter."""
        self.inner.close()


class VerdictOnly(Wrapped):
    """``inner`` seen through a game that only decides whether an action is legal."""

    def info(self) -> Info:
        """The inner info without the observation capabilities."""
        info = self.inner.info()
        return dataclasses.replace(
            info, name=f"verdict-only {info.name}", capabilities=info.capabilities - set(OBSERVATIONS)
        )

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Start, and report the state blind."""
        return blind(self.inner.start(profile, position=position, code=code))

    def act(self, action: str) -> Reply:
        """Yes or no, and the table after."""
        reply = self.inner.act(action)
        return Reply(reply.accepted, None, None, (), blind(reply.state))


def factory() -> VerdictOnly:
    """The reference engine, verdict only."""
    return VerdictOnly(ReferenceAdapter())
