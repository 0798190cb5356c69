"""A reply line read strictly, and a message checked against the protocol schema (spec/schema/).

``parse_line`` is the strict reader every reply line meets when the quick reader (quick.py) declines
it: it names the fault in words (not UTF-8, not JSON, NaN, a lone surrogate, not an object).
``schema_problem`` checks a message in full against spec/schema/protocol.schema.json, for
``--validate-protocol``; jsonschema is imported only then, not at start-up.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from crescent_ref.spec_files import spec_dir

if TYPE_CHECKING:
    import jsonschema


@functools.cache
def protocol_validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one message of spec/schema/protocol.schema.json (``$defs`` entry ``name``)."""
    import jsonschema

    folder = spec_dir() / "schema"
    schemas = {f: json.loads((folder / f).read_text("utf-8")) for f in ("protocol.schema.json", "state.schema.json")}
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    root = schemas["protocol.schema.json"]
    return jsonschema.Draft202012Validator({"$ref": f"{root['$id']}#/$defs/{name}"}, registry=registry)


def schema_problem(name: str, message: Any) -> str | None:
    """None when ``message`` is a valid ``name`` message, else the first problem."""
    import jsonschema

    error = jsonschema.exceptions.best_match(protocol_validator(name).iter_errors(message))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(top)"
    return f"{name} at {where}: {error.message[:200]}"


class _NonFinite(ValueError):
    """NaN or an infinity in a reply (not JSON, though Python's json module reads it)."""


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


def parse_line(line: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """A reply line read strictly: UTF-8, JSON without NaN or Infinity, no lone surrogates, an object.

    Returns the object and None, or None and the fault in words.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, f"wrote bytes that are not UTF-8 (byte {err.start} of the line)"
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except _NonFinite as err:
        return None, f"wrote {err} in a reply, which JSON does not allow"
    except (ValueError, RecursionError):
        return None, "wrote a line that is not JSON (garbage)"
    if not isinstance(value, dict):
        return None, "wrote JSON that is not an object"
    if ("\\ud" in text or "\\uD" in text) and _has_lone_surrogate(value):
        return None, "wrote a string holding a lone surrogate (an escape like \\ud800 that is no character)"
    return value, None


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` holds a lone surrogate. Only an escape (``\\ud800``) can make one
    (strict UTF-8 decoding refuses encoded surrogates), so this runs only on lines holding ``\\ud``."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
