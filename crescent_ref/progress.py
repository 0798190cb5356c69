"""Progress for long jobs: a tqdm bar on a terminal, silence elsewhere.

A job that may run for more than a few seconds (fuzz, perft, the docs, solver runs) wraps its
work in ``progress``; the bar shows the count, the rate and, when the total is known, the time
left. It writes to stderr, and only when stderr is a terminal and the caller is not quiet, so
pipes, CI logs and tests see nothing of it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Never, TypeVar

if TYPE_CHECKING:  # tqdm is imported when a bar is drawn: start-up does not pay for it
    from tqdm import tqdm

T = TypeVar("T")


def shown(quiet: bool = False) -> bool:
    """Progress is drawn: stderr is a terminal and the caller is not quiet."""
    return not quiet and sys.stderr.isatty()


def progress(items: Iterable[T], what: str, *, total: int | None = None, unit: str = "it",
             quiet: bool = False) -> Iterator[T]:
    """Yield ``items``, drawing a bar named ``what`` while they come (see the module doc)."""
    if not shown(quiet):
        yield from items
        return
    from tqdm import tqdm

    bar = tqdm(items, desc=what, total=total, unit=unit, disable=not shown(quiet), file=sys.stderr,
               dynamic_ncols=True, leave=False)
    yield from bar


def counter(what: str, *, total: float | None = None, unit: str = "it", quiet: bool = False) -> tqdm[Never]:
    """A bar to ``update(n)`` by hand (e.g. actions played, seconds spent); close it when done."""
    from tqdm import tqdm

    return tqdm(desc=what, total=total, unit=unit, disable=not shown(quiet), file=sys.stderr,
                dynamic_ncols=True, leave=False)
