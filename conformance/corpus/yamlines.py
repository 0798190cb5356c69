"""Load YAML while remembering the line of every node, so errors can name file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from crescent_ref.errors import ScenarioError

JsonPath = tuple[str | int, ...]
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present


class Located:
    """Loaded data plus the line (1-based) of each node, keyed by its JSON path."""

    def __init__(self, file: str, data: Any, lines: dict[JsonPath, int]) -> None:
        self.file = file
        self.data = data
        self.lines = lines

    def line(self, path: JsonPath) -> int:
        """The line of the deepest node on ``path`` that was loaded."""
        for cut in range(len(path), -1, -1):
            if path[:cut] in self.lines:
                return self.lines[path[:cut]]
        return 1


def load(path: Path) -> Located:
    """Parse ``path``; a YAML syntax error or a duplicate key raises ScenarioError with its line."""
    text = path.read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise ScenarioError(str(path), line, "", f"YAML syntax: {err.problem}") from None
    lines: dict[JsonPath, int] = {}
    data = _convert(node, (), lines, str(path)) if node is not None else None
    return Located(str(path), data, lines)


_constructor = yaml.constructor.SafeConstructor()


def _convert(node: yaml.Node, path: JsonPath, lines: dict[JsonPath, int], file: str) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        return _mapping(node, path, lines, file)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), lines, file) for i, item in enumerate(node.value)]
    return _constructor.construct_object(node, deep=True)


def _mapping(node: yaml.MappingNode, path: JsonPath, lines: dict[JsonPath, int], file: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = str(_constructor.construct_object(key_node, deep=True))
        if key in result:
            where = "/".join(str(p) for p in (*path, key))
            raise ScenarioError(file, key_node.start_mark.line + 1, where, f"duplicate key {key!r}")
        result[key] = _convert(value_node, (*path, key), lines, file)
    return result
