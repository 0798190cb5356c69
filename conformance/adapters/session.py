"""What a run needs whichever front end starts it (CLI or pytest plugin): an adapter and a plan."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from conformance.adapter import RESTART_LIMIT, Adapter
from conformance.corpus.scenarios import Scenario
from crescent_ref.errors import CrescentError
from crescent_ref.profiles import get_profile


class SelectionError(CrescentError):
    """A selection naming what does not exist (a profile, a scenario id), or matching nothing."""


def make_adapter(
    impl: str | None = None,
    cmd: str | None = None,
    timeout: float = 10.0,
    max_line: int | None = None,
    validate: bool = False,
    restart_limit: int = RESTART_LIMIT,
) -> Adapter:
    """``reference``, ``module:factory`` (in-process) or a command line (stdio; ``validate``: every message
    checked in full against the protocol schema; ``restart_limit``: see conformance.adapters.stdio)."""
    if cmd:
        from conformance.adapters.pipes import MAX_LINE
        from conformance.adapters.stdio import StdioAdapter

        return StdioAdapter(cmd, timeout, validate, max_line or MAX_LINE, restart_limit)
    if impl in (None, "", "reference"):
        from conformance.adapters.reference import OnDemandReference

        return OnDemandReference()
    return _in_process(impl or "")


class AdapterLoadError(CrescentError):
    """``--impl module:factory`` names no module, no factory, or a factory that gives no adapter."""


def _in_process(impl: str) -> Adapter:
    """The adapter ``module:factory()`` returns; AdapterLoadError (one line) when it cannot be had."""
    module_name, _, attr = impl.partition(":")
    try:
        factory: Any = getattr(importlib.import_module(module_name), attr or "factory")
        adapter = factory()
    except Exception as err:  # the user's module: whatever it raises is a loading fault
        raise AdapterLoadError(f"--impl {impl!r}: cannot load the adapter: {type(err).__name__}: {err}") from None
    if not isinstance(adapter, Adapter):
        missing = [m for m in ("info", "start", "act", "legal_moves", "message", "close") if not hasattr(adapter, m)]
        raise AdapterLoadError(
            f"--impl {impl!r}: cannot load the adapter: the factory returned {type(adapter).__name__}, "
            f"not an adapter (no {', '.join(missing)})"
        )
    return adapter


def plan(
    scenarios: Iterable[Scenario], profiles: Iterable[str] = (), ids: Iterable[str] = ()
) -> list[tuple[Scenario, str]]:
    """Scenario-profile pairs to run, in corpus order, filtered by profile and id when given."""
    wanted_profiles, wanted_ids = set(profiles), set(ids)
    return [
        (sc, p)
        for sc in scenarios
        if not wanted_ids or sc.id in wanted_ids
        for p in sc.profiles
        if not wanted_profiles or p in wanted_profiles or p.split("+")[0] in wanted_profiles
    ]


def check_selection(scenarios: Iterable[Scenario], profiles: Iterable[str] = (), ids: Iterable[str] = ()) -> None:
    """Raise NotationError for an unknown profile, SelectionError for ids no scenario has."""
    for name in profiles:
        get_profile(name)
    known = {sc.id for sc in scenarios}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise SelectionError(f"--id: no scenario has the id(s) {', '.join(map(repr, unknown))}")
