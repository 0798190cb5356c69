"""Finding, validating and reading scenario files into Scenario objects.

A broken file is the corpus's fault: every problem is a ScenarioError naming the file, the line,
the JSON path and the offending text.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.corpus import cache
from conformance.corpus.scenarios import Citation, Expect, Scenario, Step
from conformance.corpus.yamlines import JsonPath, Located, load, parse
from conformance.reading import decode, read_bytes
from crescent_ref.errors import CrescentError, NotationError, ScenarioError
from crescent_ref.profiles import base_names, get_profile
from crescent_ref.spec_files import spec_dir

if TYPE_CHECKING:  # imported when a file is validated: a warm cache's start-up does not pay for it
    import jsonschema


def json_path(path: Iterable[str | int]) -> str:
    """``$.scenarios[3].steps[0].action`` for a path of keys and indices."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


@functools.cache
def scenario_validator() -> jsonschema.Draft202012Validator:
    """The (cached) validator of scenario files."""
    import jsonschema

    return jsonschema.Draft202012Validator(scenario_schema())


@functools.cache
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file."""
    schema: dict[str, Any] = json.loads((spec_dir() / "schema" / "scenario.schema.json").read_text("utf-8"))
    return schema


def corpus_dirs(extra: Iterable[Path] = ()) -> list[Path]:
    """The shipped corpus folder followed by any extra folders."""
    return [spec_dir() / "scenarios", *extra]


def scenario_files(dirs: Iterable[Path]) -> list[Path]:
    """Every ``*.yaml`` file below the folders, sorted for a stable order."""
    files: list[Path] = []
    for folder in dirs:
        files.extend(sorted(folder.rglob("*.yaml")) if folder.is_dir() else [folder])
    return files


def schema_errors(doc: Located, validator: jsonschema.Draft202012Validator | None = None) -> list[ScenarioError]:
    """Every JSON Schema violation of a loaded file (against ``validator``, by default the shipped schema)."""
    checker = validator or scenario_validator()
    found = sorted(checker.iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path])
    return [_schema_error(doc, err) for err in found]


def _schema_error(doc: Located, err: jsonschema.ValidationError) -> ScenarioError:
    path: JsonPath = tuple(err.absolute_path)
    message = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    return ScenarioError(doc.file, doc.line(path), _scenario_id(doc, path) + json_path(path), message)


def _scenario_id(doc: Located, path: JsonPath) -> str:
    """``id: `` of the scenario a path points into, when it has a readable id."""
    if len(path) < 2 or path[0] != "scenarios" or not isinstance(doc.data, dict):
        return ""
    scenarios = doc.data.get("scenarios")
    index = path[1]
    if not isinstance(scenarios, list) or not isinstance(index, int) or not isinstance(scenarios[index], dict):
        return ""
    found = scenarios[index].get("id")
    return f"{found}: " if isinstance(found, str) else ""


def read_file(path: Path, validator: jsonschema.Draft202012Validator | None = None) -> list[Scenario]:
    """Load one scenario file; raises the first ScenarioError found (schema first; ``validator``: another schema).

    A file read before in this process and unchanged since (same size and modification time) is not
    parsed again (with the shipped schema only).
    """
    if validator is not None:
        return _parse_file(path, validator)
    try:
        stat = path.stat()
    except OSError:
        return _parse_file(path)  # raises the ScenarioError that names the file
    return list(_read_unchanged(path, path.absolute(), stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=512)
def _read_unchanged(path: Path, absolute: Path, mtime_ns: int, size: int) -> tuple[Scenario, ...]:
    return tuple(_parse_file(path))


def _parse_file(path: Path, validator: jsonschema.Draft202012Validator | None = None) -> list[Scenario]:
    doc = load(path) if validator is not None else _validated(path)
    if validator is not None:
        errors = schema_errors(doc, validator)
        if errors:
            raise errors[0]
    area = doc.data["area"]
    return [_scenario(doc, area, i, raw) for i, raw in enumerate(doc.data["scenarios"])]


def _validated(path: Path) -> Located:
    """The file loaded and checked against the shipped schema, from the cache when it holds these bytes."""
    content = read_bytes(path)  # bounded in size (conformance.reading)
    hit = cache.lookup(str(path), content)
    if hit is not None:
        _RECORDS[str(path)] = FileRecord(hit[0], content, hit[1])
        return hit[0]
    doc = parse(decode(content, path), path)
    errors = schema_errors(doc)
    if errors:
        raise errors[0]
    cache.store(doc, content)
    _RECORDS[str(path)] = FileRecord(doc, content, False)
    return doc


@dataclass(frozen=True)
class FileRecord:
    """A scenario file read in this process: its document, its bytes, and whether lint found it clean."""

    doc: Located
    content: bytes
    lint_clean: bool


_RECORDS: dict[str, FileRecord] = {}


def record(file: str) -> FileRecord | None:
    """What this process read of the scenario file named ``file`` (as in ``Scenario.file``)."""
    return _RECORDS.get(file)


def mark_clean(file: str) -> None:
    """Lint found every scenario of ``file`` clean: remember it here and in the cache."""
    found = _RECORDS.get(file)
    if found is not None and not found.lint_clean:
        _RECORDS[file] = FileRecord(found.doc, found.content, True)
        cache.mark_clean([(found.doc, found.content)])


def _scenario(doc: Located, area: str, index: int, raw: dict[str, Any]) -> Scenario:
    base: JsonPath = ("scenarios", index)
    given = raw["given"]
    source = raw.get("source", [])
    sources = source if isinstance(source, list) else [source]
    return Scenario(
        id=raw["id"],
        title=raw["title"],
        area=area,
        file=doc.file,
        line=doc.line(base),
        sources=tuple(Citation(**s) for s in sources),
        statements=tuple(raw.get("statements", ())),
        profiles=tuple(raw["profiles"]),
        features=tuple(raw.get("features", ())),
        interpretations=tuple(raw.get("interpretation", ())),
        position=given.get("position"),
        code=given.get("code"),
        given_state=given.get("state", {}),
        given_by_profile={k: v.get("state", {}) for k, v in given.get("by_profile", {}).items()},
        steps=tuple(_step(doc, (*base, "steps", n), n + 1, s) for n, s in enumerate(raw["steps"])),
        declared=_declared(doc, (*base, "declared", "deviations"), raw.get("declared", {}).get("deviations", {})),
    )


def _declared(doc: Located, path: JsonPath, deviations: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The deviations a scenario was written under, each checked against spec/profiles.yaml.

    Raises:
        ScenarioError: an unknown base profile or parameter, or a value outside its type.
    """
    for base, changes in deviations.items():
        try:
            if base not in base_names():
                raise NotationError("base profile", base, f"known: {', '.join(base_names())}")
            get_profile(base).changed(changes)
        except NotationError as err:
            raise ScenarioError(
                doc.file, doc.line((*path, base)), "/".join(map(str, (*path, base))), str(err)
            ) from None
    return {str(base): dict(changes) for base, changes in deviations.items()}


def _expect(raw: dict[str, Any]) -> Expect:
    moves = raw.get("moves")
    return Expect(
        outcome=raw.get("outcome"),
        reason=raw.get("reason"),
        effect=raw.get("effect"),
        moves=tuple(moves) if moves is not None else None,
        state=raw.get("state", {}),
        messages=raw.get("messages"),
    )


def _step(doc: Located, path: JsonPath, number: int, raw: dict[str, Any]) -> Step:
    return Step(
        number=number,
        line=doc.line(path),
        action=raw["action"],
        expect=_expect(raw),
        by_profile={k: _expect(v) for k, v in raw.get("by_profile", {}).items()},
        note=raw.get("note", ""),
    )


def load_corpus(extra: Iterable[Path] = ()) -> list[Scenario]:
    """All scenarios of the shipped corpus and extra folders, in a stable order; raises on any fault."""
    scenarios: list[Scenario] = []
    for path in scenario_files(corpus_dirs(extra)):
        scenarios.extend(read_file(path))
    _check_unique(scenarios)
    return scenarios


def load_files(extra: Iterable[Path] = ()) -> list[tuple[Path, list[Scenario] | CrescentError]]:
    """Every scenario file with its scenarios, or with the error that keeps it from loading.

    A file reusing an id of an earlier file is such an error; the other files still load.
    """
    loaded: list[tuple[Path, list[Scenario] | CrescentError]] = []
    seen: dict[str, Scenario] = {}
    for path in scenario_files(corpus_dirs(extra)):
        try:
            scenarios = read_file(path)
            _check_unique([*seen.values(), *scenarios])
        except CrescentError as err:
            loaded.append((path, err))
            continue
        seen.update((sc.id, sc) for sc in scenarios)
        loaded.append((path, scenarios))
    return loaded


def _check_unique(scenarios: list[Scenario]) -> None:
    seen: dict[str, Scenario] = {}
    for sc in scenarios:
        if sc.id in seen:
            raise ScenarioError(
                sc.file, sc.line, "$.id", f"id {sc.id!r} is used twice (first at {seen[sc.id].location})"
            )
        seen[sc.id] = sc
