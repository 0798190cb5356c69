"""Which declaration would turn a failure into a declared difference: one rule parameter set otherwise.

For a failed scenario-in-profile, each parameter of spec/profiles.yaml is tried at its other
values (the other boolean or enum value, no limit or the usual one, one reshuffle fewer or none);
the first that, declared as a deviation of the profile's base, makes the same implementation
pass the scenario is named, with the handshake field that declares it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from conformance.adapter import Adapter
from conformance.contract import Contract
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import judge
from crescent_ref.profiles import parameter_names
from crescent_ref.spec_files import load_yaml


def other_values(parameter: str, value: Any) -> list[Any]:
    """The values tried instead of ``value``."""
    kind = str(load_yaml("profiles.yaml")["parameters"][parameter]["type"])
    if kind.startswith("enum"):
        return [o.strip() for o in kind[kind.index("[") + 1 : kind.index("]")].split(",") if o.strip() != value]
    if isinstance(value, bool):
        return [not value]
    if parameter == "pile_limit":
        return [13] if value is None else [None]
    if parameter == "undo_limit":
        return [None, 100] if value == 0 else [0, None] if value is not None else [100]
    if kind != "integer" or not isinstance(value, int):
        return []  # an order of piles, say: too many to try
    return [v for v in (value - 1, 0, value + 1) if v >= 0 and v != value]


def _trials(contract: Contract, profile: str) -> Iterator[tuple[str, Any]]:
    rules = contract.rules(profile)
    for parameter in parameter_names():
        for value in other_values(parameter, getattr(rules, parameter)):
            yield parameter, value


def explaining_deviation(adapter: Adapter, contract: Contract, scenario: Scenario, profile: str) -> str | None:
    """``"deviations": {"app": {"reshuffles": 0}}`` when declaring it makes the failure pass, else None."""
    base = profile.split("+")[0]
    declared = dict(contract.info.deviations.get(base, {}))
    for parameter, value in _trials(contract, profile):
        changes = {**declared, parameter: value}
        info = dataclasses.replace(contract.info, deviations={**contract.info.deviations, base: changes})
        if judge(adapter, dataclasses.replace(contract, info=info), scenario, profile).verdict == "passed":
            return '"deviations": ' + json.dumps({base: changes})
    return None
