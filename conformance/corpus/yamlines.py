"""Load YAML while remembering the line of every node, so errors can name file and line.

Aliases (``*name``) are read, but the expanded document may hold at most ``MAX_NODES`` nodes:
a kilobyte of nested aliases would otherwise expand to gigabytes (a "billion laughs"). An alias
inside the node it names (``&a [*a]``) is refused, as is nesting deeper than ``MAX_DEPTH`` or an
integer longer than conformance.reading's bound; the file is read by the bounded reader.

PyYAML is imported at the first parse: a run that finds its corpus in the cache never reads YAML.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.reading import MAX_DEPTH, MAX_DIGITS, read_text
from crescent_ref.errors import ScenarioError

if TYPE_CHECKING:
    import yaml

JsonPath = tuple[str | int, ...]
MAX_NODES = 100_000  # nodes of one expanded document (the largest corpus file has about 2,400)


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
    """Parse ``path``; ScenarioError (with the line where known) for an unreadable file, bad YAML,
    an alias or a duplicate key."""
    return parse(read_text(path), path)


@dataclass(frozen=True, slots=True)
class _Yaml:
    """What the reader takes from PyYAML, imported at the first parse (once, not once a node)."""

    loader: type[yaml.SafeLoader]  # libyaml's when present
    constructor: yaml.constructor.SafeConstructor  # of scalars
    error: type[yaml.YAMLError]
    mapping: type[yaml.MappingNode]
    sequence: type[yaml.SequenceNode]


@functools.cache
def _yaml() -> _Yaml:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return _Yaml(loader, yaml.constructor.SafeConstructor(), yaml.YAMLError, yaml.MappingNode, yaml.SequenceNode)


def parse(text: str, path: Path) -> Located:
    """Parse the YAML ``text`` of the file ``path`` (named in errors); as ``load``."""
    import yaml

    try:
        node = yaml.compose(text, Loader=_yaml().loader)
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise ScenarioError(str(path), line, "", f"YAML syntax: {err.problem}") from None
    except (yaml.YAMLError, RecursionError) as err:
        raise ScenarioError(str(path), None, "", f"YAML: {str(err)[:200]}") from None
    lines: dict[JsonPath, int] = {}
    data = _convert(node, (), lines, str(path), [0], ()) if node is not None else None
    return Located(str(path), data, lines)


def _convert(
    node: yaml.Node, path: JsonPath, lines: dict[JsonPath, int], file: str, seen: list[int], above: tuple[int, ...]
) -> Any:
    """The value of ``node``; ``seen[0]`` counts the nodes expanded so far (an alias's again), ``above``
    holds the ids of the nodes it sits in (an alias to one of them would never end)."""
    kinds = _yaml()
    seen[0] += 1
    where = "/".join(str(p) for p in path)
    line = lines.get(path[:-1], node.start_mark.line + 1)  # the container (an alias's node is the anchor's)
    if seen[0] > MAX_NODES:
        raise ScenarioError(file, line, where, f"more than {MAX_NODES} values once aliases are expanded")
    if id(node) in above:
        raise ScenarioError(file, line, where, "an alias inside the node it names (a recursive alias)")
    if len(above) >= MAX_DEPTH:
        raise ScenarioError(file, line, where, f"nested more than {MAX_DEPTH} levels deep")
    lines[path] = node.start_mark.line + 1
    inside = (*above, id(node))
    if isinstance(node, kinds.mapping):
        return _mapping(node, path, lines, file, seen, inside)
    if isinstance(node, kinds.sequence):
        return [_convert(item, (*path, i), lines, file, seen, inside) for i, item in enumerate(node.value)]
    return _scalar(node, where, file)


def _scalar(node: yaml.Node, where: str, file: str) -> Any:
    found = _yaml()
    line = node.start_mark.line + 1
    if node.tag == "tag:yaml.org,2002:int" and len(str(node.value).lstrip("+-")) > MAX_DIGITS:
        raise ScenarioError(file, line, where, f"an integer of {len(str(node.value))} digits (at most {MAX_DIGITS})")
    try:
        return found.constructor.construct_object(node, deep=True)
    except (found.error, ValueError, OverflowError, RecursionError) as err:
        raise ScenarioError(file, line, where, str(err)[:200]) from None


def _mapping(
    node: yaml.MappingNode,
    path: JsonPath,
    lines: dict[JsonPath, int],
    file: str,
    seen: list[int],
    above: tuple[int, ...],
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = _key(_convert(key_node, (*path, "(key)"), {}, file, seen, above), key_node, path, file)
        if key in result:
            where = "/".join(str(p) for p in (*path, key))
            raise ScenarioError(file, key_node.start_mark.line + 1, where, f"duplicate key {key!r}")
        result[key] = _convert(value_node, (*path, key), lines, file, seen, above)
    return result


def _key(value: Any, node: yaml.Node, path: JsonPath, file: str) -> str:
    """A mapping key as text; a list or a mapping as a key is refused."""
    if isinstance(value, list | dict):
        where = "/".join(str(p) for p in path)
        raise ScenarioError(file, node.start_mark.line + 1, where, "a key that is a list or a mapping")
    return str(value)
