"""Where the spec's data files live: inside the installed package, or beside it in a checkout.

``load_yaml`` takes the files the engine needs at start-up (profiles, reasons) from the copy in
crescent_ref/spec_copy_data.py while the file's bytes still match it (crescent_ref/spec_copy.py), so
``crescent-ref serve`` starts without the YAML parser or pathlib; any other file, or one edited since
the copy was made, is parsed from the YAML.
"""

from __future__ import annotations

import functools
import os
import zlib
from typing import TYPE_CHECKING, Any

from crescent_ref.errors import ScenarioError

if TYPE_CHECKING:
    from pathlib import Path

_HERE = os.path.dirname(os.path.realpath(__file__))


@functools.cache
def _spec_folder() -> str:
    """The spec/ folder as a string (os.path: no pathlib at start-up)."""
    for candidate in (os.path.join(_HERE, "spec"), os.path.join(os.path.dirname(_HERE), "spec")):
        if os.path.isfile(os.path.join(candidate, "profiles.yaml")):
            return candidate
    raise FileNotFoundError(f"spec/ not found beside {_HERE}: reinstall the crescent kit")


def spec_dir() -> Path:
    """The spec/ folder: ``crescent_ref/spec`` in a wheel, ``<checkout>/spec`` otherwise."""
    from pathlib import Path

    return Path(_spec_folder())


@functools.cache
def load_yaml(name: str) -> Any:
    """Load one YAML data file of the spec, with a clear error naming the file on bad YAML."""
    path = os.path.join(_spec_folder(), *name.split("/"))
    with open(path, "rb") as file:
        raw = file.read()
    copied = _copy_of(name)
    if copied is not None and copied[0] == zlib.crc32(raw):
        return copied[1]
    return _parse(path, raw)


def _copy_of(name: str) -> tuple[int, Any] | None:
    """The copy of ``name`` made by crescent_ref/spec_copy.py: its file's CRC-32 and data (None: no copy)."""
    from crescent_ref.spec_copy_data import COPIES

    return COPIES.get(name)


def _parse(path: str, raw: bytes) -> Any:
    import yaml

    try:
        return yaml.load(raw.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise ScenarioError(path, line, "", str(err.problem)) from None
