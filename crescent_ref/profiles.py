"""Rule profiles: the parameters of each rule system, read from spec/profiles.yaml.

A profile name is a base profile plus variants joined by ``+``: ``app``, ``open+four``,
``hoffmann-1892+closed+give-backs``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crescent_ref.errors import NotationError, quoted
from crescent_ref.spec_files import load_yaml


@dataclass(frozen=True, slots=True)
class Profile:
    """The rule parameters of one rule system (see spec/profiles.yaml for each one's meaning)."""

    name: str
    pile_wrap: bool
    pile_limit: int | None
    reshuffles: int
    between_foundations: bool
    give_backs: bool
    autoplay: bool
    autoplay_order: str | tuple[int, ...]
    autoplay_when: str
    drop_both_fit: str
    deal: str
    hold_double_fit: bool
    undo_limit: int | None
    undo_cleared_by_reshuffle: bool
    stuck_when: str

    @classmethod
    def named(cls, name: str) -> Profile:
        """The profile called ``name`` (base plus ``+variant`` parts)."""
        return get_profile(name)

    @property
    def closed(self) -> bool:
        """Only the top card of each pile is dealt face up."""
        return self.deal == "closed"

    def parameters(self) -> dict[str, Any]:
        """The parameters as a plain mapping (name excluded)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def changed(self, changes: Mapping[str, Any]) -> Profile:
        """This profile with some parameters set otherwise (a declared deviation, a coverage probe).

        NotationError names an unknown parameter or a value outside its type in spec/profiles.yaml.
        The name records the change: ``app[pile_limit=null,undo_limit=5]``.
        """
        for key, value in changes.items():
            check_parameter(key, value)
        if not changes:
            return self
        changes = {k: tuple(v) if isinstance(v, list) else v for k, v in changes.items()}
        said = ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(changes.items()))
        return dataclasses.replace(self, name=f"{self.name}[{said}]", **changes)

    @classmethod
    def declared(cls, name: str, changes: Mapping[str, Any]) -> Profile:
        """The profile ``name`` as an implementation declares it: its base with ``changes`` (the deviations
        declared for the base), then its variants on top (spec/protocol.md, *Declared deviations*).

        ``Profile.declared("app+six", {"reshuffles": 4}).reshuffles == 6``: the variant still sets what it
        names. The name records the change on the base: ``app[reshuffles=4]+six``.
        """
        return declared_profile(name, changes)

    @property
    def plain_name(self) -> str:
        """The profile name without its recorded changes: ``app+six`` of ``app[reshuffles=4]+six``."""
        head, _, rest = self.name.partition("[")
        return head + rest.rpartition("]")[2]

    def changes(self) -> dict[str, Any]:
        """The parameters this profile sets otherwise than its named profile (a declared deviation's effect)."""
        if "[" not in self.name:
            return {}
        plain = get_profile(self.plain_name).parameters()
        return {key: value for key, value in self.parameters().items() if plain[key] != value}

    def __repr__(self) -> str:
        if "[" in self.name:
            head, _, rest = self.name.partition("[")
            said, _, variants = rest.rpartition("]")
            parts = (part.split("=", 1) for part in re.split(r",(?=[a-z_]+=)", said))
            changes = {k: json.loads(v) for k, v in parts}
            if variants:
                return f"Profile.declared({head + variants!r}, {changes!r})"
            return f"Profile.named({head!r}).changed({changes!r})"
        return f"Profile.named({self.name!r})"


def _values(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: spec["value"] for key, spec in entry["parameters"].items()}


@functools.cache
def get_profile(name: str) -> Profile:
    """Build the profile ``base+variant+...``; NotationError names an unknown part."""
    data = load_yaml("profiles.yaml")
    base, *variants = name.strip().split("+")
    if base not in data["profiles"]:
        why = f"unknown base profile {quoted(base, 30)}; known: {', '.join(base_names())}"
        raise NotationError("profile", name, why)
    values = _values(data["profiles"][base])
    for variant in variants:
        if variant not in data["variants"]:
            why = f"unknown variant {quoted(variant, 30)}; known: {', '.join(variant_names())}"
            raise NotationError("profile", name, why)
        values.update(_values(data["variants"][variant]))
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return Profile(name="+".join([base, *variants]), **values)


def declared_profile(name: str, changes: Mapping[str, Any]) -> Profile:
    """``name`` (base+variants) with ``changes`` applied to the base before its variants; NotationError
    names an unknown part, parameter or value."""
    if not changes:
        return get_profile(name)
    base, *variants = get_profile(name).name.split("+")
    profile = get_profile(base).changed(changes)
    data = load_yaml("profiles.yaml")
    values = {key: value for variant in variants for key, value in _values(data["variants"][variant]).items()}
    return dataclasses.replace(profile, name="+".join([profile.name, *variants]), **values)


def base_names() -> list[str]:
    """Names of the base profiles, in file order."""
    return list(load_yaml("profiles.yaml")["profiles"])


def variant_names() -> list[str]:
    """Names of the variants, in file order."""
    return list(load_yaml("profiles.yaml")["variants"])


def parameter_names() -> list[str]:
    """Names of the rule parameters, in file order."""
    return list(load_yaml("profiles.yaml")["parameters"])


def _pile_order(value: Any) -> bool:
    """``ascending``, ``descending``, or the 16 pile numbers each once, in the order autoplay looks at them."""
    if value in ("ascending", "descending"):
        return True
    return isinstance(value, list | tuple) and sorted(value) == list(range(1, 17)) and all(
        type(n) is int for n in value)


_TYPES: dict[str, Any] = {
    "pile-order": _pile_order,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "integer-or-null": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0),
}


def check_parameter(name: str, value: Any) -> None:
    """NotationError unless ``name`` is a rule parameter and ``value`` fits its type."""
    spec = load_yaml("profiles.yaml")["parameters"].get(name)
    if spec is None:
        raise NotationError("parameter", name, f"not a rule parameter; known: {', '.join(parameter_names())}")
    kind = str(spec["type"])
    if kind.startswith("enum"):
        allowed = [a.strip() for a in kind[kind.index("[") + 1 : kind.index("]")].split(",")]
        ok = value in allowed
    else:
        ok = _TYPES[kind](value)
    if not ok:
        raise NotationError("parameter value", f"{name}={json.dumps(value)}", f"expected {kind}")
