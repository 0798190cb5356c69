"""The handshake reply read into an ``Info``: protocol versions, capabilities, declared deviations.

Version 2 of the protocol adds the observation capabilities (``reasons``, ``waiting``, ...) and the
``deviations`` field. A version 1 implementation was required to report every part of a reply, so
it is taken to observe all of them (``undo-count`` only with ``undo``, as version 1 checked the undo
field only then). Version 3 adds the observations ``move-count``, ``reshuffle-count`` and ``lost``
(a version 2 implementation was required to report them, so they are implied below 3) and the
``reason_codes`` field (partial reasons: the only reason codes the implementation names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.adapter import COUNTERS, OBSERVATIONS, AdapterError, Info
from conformance.adapters.replies import is_int, shown, text_field, texts
from crescent_ref.errors import NotationError
from crescent_ref.profiles import base_names, check_parameter
from crescent_ref.spec_files import load_yaml

PROTOCOL_VERSION = 3
SPOKEN = (1, 2, 3)


def implied_by_version(version: int, capabilities: frozenset[str]) -> frozenset[str]:
    """The capabilities a handshake of ``version`` declares, implied ones included."""
    if version >= 3:
        return capabilities
    if version == 2:
        return capabilities | set(COUNTERS)
    implied = {c for c in OBSERVATIONS if c != "undo-count" or "undo" in capabilities}
    return capabilities | implied


def parse_reason_codes(raw: Any) -> frozenset[str] | None:
    """The ``reason_codes`` field (absent: None); AdapterError names a value that is not a known code.

    Raises:
        AdapterError: not a list of the reason codes of spec/reasons.yaml.
    """
    if raw is None:
        return None
    known = [str(r["code"]) for r in load_yaml("reasons.yaml")["reasons"]]
    if not isinstance(raw, list) or not all(isinstance(code, str) for code in raw):
        raise AdapterError(f'handshake field "reason_codes": expected a list of reason codes, got {raw!r}')
    unknown = sorted(set(raw) - set(known))
    if unknown:
        where = 'handshake field "reason_codes"'
        raise AdapterError(f"{where}: unknown reason code {unknown[0]!r}; known: {', '.join(known)}")
    return frozenset(raw)


def parse_deviations(raw: Any) -> dict[str, dict[str, Any]]:
    """The ``deviations`` field checked against spec/profiles.yaml; AdapterError names the field and value.

    Raises:
        AdapterError: not a mapping of base profiles to mappings, an unknown base profile or
            parameter, or a value outside its parameter's type.
    """
    if not isinstance(raw, Mapping):
        raise AdapterError(f'handshake field "deviations": expected an object, got {raw!r}')
    parsed: dict[str, dict[str, Any]] = {}
    for base, changes in raw.items():
        where = f'handshake field "deviations.{base}"'
        if base not in base_names():
            raise AdapterError(f"{where}: unknown base profile {base!r}; known: {', '.join(base_names())}")
        if not isinstance(changes, Mapping):
            raise AdapterError(f"{where}: expected an object of parameter: value, got {changes!r}")
        for key, value in changes.items():
            try:
                check_parameter(key, value)
            except NotationError as err:
                raise AdapterError(f"{where}: {err}") from None
        parsed[base] = dict(changes)
    return parsed


def info_from_handshake(reply: Mapping[str, Any]) -> Info:
    """The ``Info`` of a start reply of a spoken version, every field typed.

    Raises:
        AdapterError: an unknown version (``true`` is no version), a field of the wrong type (named,
            with its value: ``"profiles": "app"`` is no list), or bad deviations.
    """
    version = reply.get("version")
    if not is_int(version) or version not in SPOKEN:
        raise AdapterError(f"protocol version {version!r}; the runner speaks {', '.join(map(str, SPOKEN))}")
    impl = reply.get("implementation")
    if not isinstance(impl, Mapping):
        raise AdapterError(f'handshake field "implementation": expected an object, got {impl!r}'[:200])
    where = "implementation."
    name = shown(text_field(impl, "name", where))
    if not name:
        raise AdapterError('handshake field "implementation.name": expected a name, got ""')
    return Info(
        name=name,
        version=shown(text_field(impl, "version", where)),
        language=shown(text_field(impl, "language", where)),
        profiles=_listed(impl, "profiles", required=True),
        variants=_listed(impl, "variants"),
        capabilities=implied_by_version(version, frozenset(_listed(impl, "capabilities"))),
        languages=_listed(impl, "languages"),
        deviations=parse_deviations(impl.get("deviations", {})),
        reason_codes=parse_reason_codes(impl.get("reason_codes")),
    )


def _listed(impl: Mapping[str, Any], name: str, required: bool = False) -> tuple[str, ...]:
    """A list of names of the handshake; absent is empty unless ``required``, anything but a list of
    strings an AdapterError naming the field."""
    if required and name not in impl:
        raise AdapterError(f'handshake field "implementation.{name}": missing')
    return tuple(shown(t) for t in texts(impl, name, "implementation."))
