"""Reading a JSON run report back (``report``, ``html-report``, ``matrix``, ``compare``, ``badge``).

The file is read by the bounded reader (conformance.reading) and checked field by field against
spec/schema/report.schema.json: a field of the wrong type (``"id": 7``, ``"verdict": null``) is one
InputFileError naming the file, the line of the field and its JSON path. Fields the schema does
not know are let through (a report of a newer kit still reads). The optional fields of a record
that the readers print are filled in (``title``, ``file``, ``detail`` empty, ``line`` 0; a failure's
``action``, ``line``, ``before`` and ``after``), and so
are the header's versions (``?``) and profiles (none), so every reader can take a checked report as
it is.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema

from conformance.reading import InputFileError, fail, json_path, line_of_path, load_json
from crescent_ref.spec_files import spec_dir

RECORD_DEFAULTS: dict[str, Any] = {"title": "", "file": "", "line": 0, "detail": ""}
HEADER_DEFAULTS: dict[str, Any] = {"kit_version": "?", "corpus_version": "?", "profiles": []}


@functools.cache
def report_validator() -> jsonschema.Draft202012Validator:
    """The validator of spec/schema/report.schema.json."""
    schema = json.loads((spec_dir() / "schema" / "report.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def read_report(path: Path) -> dict[str, Any]:
    """A checked run report (optional record fields filled in).

    Raises:
        InputFileError: the file cannot be read, is not JSON within the bounds, or a field is missing
            or of the wrong type (the message names file, line and field).
    """
    try:
        data, text = load_json(path, "report")
    except InputFileError as err:
        raise InputFileError(err.file, err.line, err.where, f"not a readable JSON report: {err.why}") from None
    if not isinstance(data, dict):
        fail(path, 1, "$", f"not a run report: a JSON object is expected, not {_kind(data)}")
    data = {**HEADER_DEFAULTS, **data}
    _check(path, data, text)
    return {**data, "results": [_filled(record) for record in data["results"]]}


def _filled(record: dict[str, Any]) -> dict[str, Any]:
    """A checked record with the optional fields the readers print (its failure's too)."""
    full = {**RECORD_DEFAULTS, **record}
    if isinstance(full.get("failure"), dict):
        full["failure"] = {"action": None, "line": full["line"], "before": "", "after": "", **full["failure"]}
    return full


CHECKED = frozenset({"type", "enum", "minimum", "required", "properties", "items", "additionalProperties"})
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,), "object": (dict,),
    "array": (list,), "null": (type(None),),
}  # fmt: skip


def conforms(value: Any, schema: Any) -> bool:
    """A quick check of ``value`` against the keywords report.schema.json uses (``CHECKED``; a test holds
    the schema to them): jsonschema, 80 times slower, then runs only to word the fault it found."""
    kinds = schema.get("type")
    if kinds is not None:
        wanted = [kinds] if isinstance(kinds, str) else kinds
        if not any(isinstance(value, _TYPES[k]) and not (isinstance(value, bool) and k in ("integer", "number"))
                   for k in wanted):  # fmt: skip
            return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "minimum" in schema and isinstance(value, int | float) and value < schema["minimum"]:
        return False
    if isinstance(value, dict):
        if any(k not in value for k in schema.get("required", ())):
            return False
        properties, rest = schema.get("properties", {}), schema.get("additionalProperties")
        for key, item in value.items():
            inner = properties.get(key, rest if isinstance(rest, dict) else None)
            if inner is not None and not conforms(item, inner):
                return False
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return all(conforms(item, schema["items"]) for item in value)
    return True


def _check(path: Path, data: dict[str, Any], text: str) -> None:
    """The first schema violation (unknown fields aside) as an InputFileError."""
    validator = report_validator()
    if conforms(data, validator.schema):
        return
    errors = [e for e in validator.iter_errors(data) if e.validator != "additionalProperties"]
    if not errors:
        return
    error = min(errors, key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    where = list(error.absolute_path)
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        why = f"not a {'run report' if not where else 'report record'}: missing {', '.join(missing)}"
    else:
        why = f"{_shown(error.instance)} is not {_wanted(error)}"
    fail(path, line_of_path(text, where), json_path(where), why)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _wanted(error: jsonschema.ValidationError) -> str:
    """What the schema asks for, in words: ``a string``, ``one of passed, failed, ...``."""
    wanted: Any = error.validator_value
    if error.validator == "enum":
        return "one of " + ", ".join(map(str, wanted))
    if error.validator == "type":
        kinds = [str(k) for k in (wanted if isinstance(wanted, list) else [wanted])]
        return " or ".join(_ARTICLE.get(k, k) for k in kinds)
    return f"valid here ({error.message[:120]})"


_ARTICLE = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
            "object": "an object", "array": "a list", "null": "null"}  # fmt: skip


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false"}.get(
        type(value), "null"
    )


def is_interrupted(report: dict[str, Any]) -> bool:
    """Fewer results than the run planned (an interrupted or stopped run)."""
    planned = report.get("planned")
    return isinstance(planned, int) and len(report["results"]) < planned


def place(record: dict[str, Any]) -> int:
    """The line an errored record points to: its step's when a fault was placed at a step (``faulted_at``;
    the detail names the step), else the scenario's."""
    at = record.get("faulted_at")
    return int(at["line"]) if at else int(record["line"])
