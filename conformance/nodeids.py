"""Node ids of the kit's items given on pytest's command line, as pytest prints them.

pytest prints a failing scenario run as ``crescent/piles.yaml::piles-006[app]``; a user copies that
back (``pytest crescent/piles.yaml::piles-006[app] --crescent-cmd ...``). No such file exists: the
kit adds its items itself, after collection. So before pytest collects, each of its file-or-folder
arguments (``config.args``: never an option's value) naming a kit node (it starts with ``crescent/``
and names no real path) is taken out and kept; the first is replaced by the shipped corpus folder,
which pytest collects as an empty folder (so a command of only kit node ids never falls back to
collecting the current directory); each xdist worker does the same with the same arguments. After
the kit adds its items, only the kit items those node ids name are kept, as pytest keeps the items
of a file or test function named on the command line: ``crescent/piles.yaml`` names every run in the
file, ``crescent/piles.yaml::piles-006`` every profile of that scenario. Other items (a user's own
tests named beside them) are left alone. A node id naming nothing is a usage error, as pytest's
own "not found" is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PREFIX = "crescent/"
_WANTED = pytest.StashKey[tuple[str, ...]]()


def names_kit_node(arg: str) -> bool:
    """The argument is a kit node id, not an option or a path that exists."""
    return arg.startswith(PREFIX) and not Path(arg.split("::")[0]).exists()


def take(config: pytest.Config) -> None:
    """Take the kit node ids out of pytest's file-or-folder arguments, keeping them on ``config``."""
    args = config.args
    wanted = tuple(a for a in args if names_kit_node(a))
    if not wanted:
        return
    from crescent_ref.spec_files import spec_dir

    config.stash[_WANTED] = wanted
    first = args.index(wanted[0])
    args[:] = [a for a in args if a not in wanted]
    args.insert(first, str(spec_dir() / "scenarios"))


def wanted(config: pytest.Config) -> tuple[str, ...]:
    """The kit node ids the command line named (none: every kit item is wanted)."""
    return config.stash.get(_WANTED, ())


def named_by(nodeid: str, wanted_id: str) -> bool:
    """``wanted_id`` names the item ``nodeid``: itself, its file, or its scenario in every profile."""
    return nodeid == wanted_id or nodeid.startswith(wanted_id + "::") or nodeid.startswith(wanted_id + "[")


def select(config: pytest.Config, items: list[pytest.Item], active: bool) -> None:
    """Keep, of the kit's items, those the command line named; deselect the others. ``active``: an
    implementation is named, so the corpus's items were added."""
    ids = wanted(config)
    if not ids:
        return
    missing = [w for w in ids if not any(named_by(item.nodeid, w) for item in items)]
    if missing:
        raise pytest.UsageError(_not_found(missing, active))
    kit = [item for item in items if item.nodeid.startswith(PREFIX)]
    dropped = [item for item in kit if not any(named_by(item.nodeid, w) for w in ids)]
    if dropped:
        gone = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in gone]
        config.hook.pytest_deselected(items=dropped)


def _not_found(missing: list[str], active: bool) -> str:
    hint = (
        "`pytest --collect-only -q` with the same options lists every node id"
        if active
        else "the kit adds its items only with --crescent-cmd or --crescent-impl"
    )
    return "not found: " + ", ".join(missing) + f" (no scenario run has that node id; {hint})"
