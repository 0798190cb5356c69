"""spec/dependence.md: every parameter of every base profile probed, and the file fresh (checked on samples)."""

from __future__ import annotations

import pytest
from harness import corpus

from conformance.judging.dependence import base_dependents, probes, recorded
from crescent_ref.profiles import base_names, parameter_names


def test_every_parameter_of_every_base_is_probed_and_recorded() -> None:
    for base in base_names():
        tried = probes(base)
        assert {p for p, _ in tried} == set(parameter_names())
        assert all(recorded(base, p, v) is not None for p, v in tried), base


@pytest.mark.parametrize(("base", "parameter", "value"), [("app", "pile_limit", None), ("open", "autoplay", False)])
def test_the_recorded_dependents_are_what_replay_finds(base: str, parameter: str, value: object) -> None:
    found = base_dependents(base, parameter, value, corpus())
    assert found, "the corpus pins this parameter"
    assert recorded(base, parameter, value) == found, "stale: run crescent-conformance dependence --write"
