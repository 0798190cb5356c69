"""Placing a fault met while requests went together (the stdio adapter's ``alone``).

An implementation that answers the lines it read together in one write loses every reply it had not
written when it crashes or hangs, so the fault first shows at an earlier request than the one that
caused it. Every door that sends requests together plays the part that met such a fault again inside
``alone`` (a request at a time, on a fresh process), where the fault is met by the request that made
it: scenarios in conformance.judging.runner, perft cases and winnable lines with the helpers here,
fuzz games in conformance.explore.fuzz.duel.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TypeVar

from conformance.adapter import Adapter, AdapterError

T = TypeVar("T")


def silences(adapter: Adapter) -> int:
    """The faults where the adapter's replies stopped coming (a crash, a hang; 0 for an in-process one)."""
    return int(getattr(adapter, "silences", 0))


def again_alone(adapter: Adapter, attempt: Callable[[], T]) -> tuple[T, bool]:
    """``attempt()``; when it meets a crash or hang and the adapter can place it, ``attempt()`` again alone:
    its fault, now at the request that made it, is raised. The second value: a fault was met that did not
    repeat alone."""
    before = silences(adapter)
    try:
        return attempt(), False
    except AdapterError:
        alone = getattr(adapter, "alone", None)
        if not callable(alone) or silences(adapter) == before:
            raise
    with alone():
        return attempt(), True


@contextlib.contextmanager
def placed(doing: str) -> Iterator[None]:
    """A fault met inside is raised again saying what was being done (``at playing p1-p2 p5-p10: ...``),
    once: the innermost place is kept."""
    try:
        yield
    except AdapterError as err:
        if err.message.startswith("at "):
            raise
        raise AdapterError(f"at {doing}: {err.message}", err.context) from None
