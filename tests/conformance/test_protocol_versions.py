"""Protocol versions 1 and 2 over stdio, the handshake schema, and an errored reply's context."""

from __future__ import annotations

import json
import shlex

import jsonschema
import pytest
from harness import HERE, PYTHON, key, passing_pairs, run_pairs

from conformance.adapter import OBSERVATIONS, AdapterError
from conformance.adapters.stdio import StdioAdapter, clip_context, protocol_validator, schema_problem
from crescent_ref.profiles import parameter_names
from crescent_ref.serve import hello
from crescent_ref.spec_files import load_yaml, spec_dir

ENGINE = HERE / "fakes" / "handshake_engine.py"
LENIENT = 30.0


def engine(reply: dict[str, object]) -> StdioAdapter:
    return StdioAdapter(f"{PYTHON} {shlex.quote(str(ENGINE))} {shlex.quote(json.dumps(reply))}", timeout=LENIENT)


def version_1_hello() -> dict[str, object]:
    reply = hello()
    impl = dict(reply["implementation"])
    impl["capabilities"] = [c for c in impl["capabilities"] if c not in OBSERVATIONS]
    return {"version": 1, "implementation": impl}


def test_a_version_1_implementation_is_judged_on_everything_as_before() -> None:
    adapter = engine(version_1_hello())
    chosen = [p for p in passing_pairs() if p[0].area == "reasons"][:3]
    results = run_pairs(adapter, chosen)
    assert {r.verdict for r in results.values()} == {"passed"}
    assert all(not r.unchecked for r in results.values())
    assert key(chosen[0]) in results


def test_a_bad_deviation_in_a_stdio_handshake_is_an_error_naming_it() -> None:
    reply = hello()
    reply["implementation"] = {**reply["implementation"], "deviations": {"app": {"pile_limit": "none"}}}
    adapter = engine(reply)
    with pytest.raises(AdapterError, match=r'"deviations.app": .*pile_limit="none"'):
        adapter.info()
    adapter.close()


def test_the_reference_hello_declares_every_capability_and_fits_the_schema() -> None:
    reply = hello()
    assert reply["version"] == 3
    assert set(reply["implementation"]["capabilities"]) >= set(OBSERVATIONS)
    assert schema_problem("start-reply", reply) is None
    assert schema_problem("start-reply", version_1_hello()) is None


@pytest.mark.parametrize(
    ("deviations", "valid"),
    [
        ({"app": {"pile_limit": None, "undo_limit": 5}}, True),
        ({"open": {"deal": "closed", "autoplay": False}}, True),
        ({"apps": {"pile_limit": None}}, False),
        ({"app": {"pile_limt": None}}, False),
        ({"app": {"pile_limit": "none"}}, False),
        ({"app": {"undo_limit": -1}}, False),
        ({"app": {"deal": "shut"}}, False),
    ],
)
def test_the_schema_checks_the_deviations_field(deviations: dict[str, object], valid: bool) -> None:
    reply = hello()
    reply["implementation"] = {**reply["implementation"], "deviations": deviations}
    problem = schema_problem("start-reply", reply)
    assert (problem is None) == valid, problem


def test_the_schema_knows_every_parameter_of_the_profiles() -> None:
    schema = json.loads((spec_dir() / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
    impl = schema["$defs"]["start-reply"]["properties"]["implementation"]["properties"]
    deviations = impl["deviations"]
    assert set(deviations["additionalProperties"]["properties"]) == set(parameter_names())
    assert deviations["propertyNames"]["enum"] == list(load_yaml("profiles.yaml")["profiles"])
    assert set(OBSERVATIONS) <= set(impl["capabilities"]["items"]["enum"])
    jsonschema.Draft202012Validator.check_schema(schema)
    assert protocol_validator("start-request").is_valid({"cmd": "start", "version": 2})


def test_an_errored_context_keeps_the_end_of_a_long_traceback() -> None:
    trace = "Traceback (most recent call last):\n" + "  File 'x.py', line 1, in f\n" * 200 + "ZeroDivisionError: boom"
    clipped = clip_context(trace)
    assert clipped.startswith("Traceback") and clipped.endswith("ZeroDivisionError: boom")
    assert "characters left out" in clipped and len(clipped) < 1600
    assert clip_context("short") == "short"
    assert clip_context({"where": "x"}) == '{"where": "x"}'
