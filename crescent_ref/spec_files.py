"""Where the spec's data files live: inside the installed package, or beside it in a checkout."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

from crescent_ref.errors import ScenarioError


@functools.cache
def spec_dir() -> Path:
    """The spec/ folder: ``crescent_ref/spec`` in a wheel, ``<checkout>/spec`` otherwise."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "spec", here.parent / "spec"):
        if (candidate / "profiles.yaml").is_file():
            return candidate
    raise FileNotFoundError(f"spec/ not found beside {here}: reinstall the crescent kit")


@functools.cache
def load_yaml(name: str) -> Any:
    """Load one YAML data file of the spec, with a clear error naming the file on bad YAML."""
    path = spec_dir() / name
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise ScenarioError(str(path), line, "", str(err.problem)) from None
