"""Declared deviations: the rules as declared are judged, the rest as written, and the handshake checks them."""

from __future__ import annotations

import functools

import pytest
from harness import Pair, key, pairs, passing_pairs, run_pairs
from mutants import BY_NAME, MutantAdapter
from test_mutants import names_rule

from conformance.adapter import AdapterError
from conformance.adapters.handshake import info_from_handshake, parse_deviations
from conformance.adapters.reference import ReferenceAdapter
from conformance.coverage import dependents
from conformance.judging.declared import replayed
from conformance.judging.report import declared_lines, report_header, result_record
from conformance.judging.runner import run_scenario
from crescent_ref.errors import NotationError

NO_LIMIT = {"app": {"pile_limit": None}}


def app_pairs() -> list[Pair]:
    return [p for p in pairs() if p[1].split("+")[0] == "app"]


@functools.cache
def pile_limit_dependents() -> frozenset[str]:
    profiles = sorted({profile for _, profile in app_pairs()})
    return frozenset().union(*(dependents(p, "pile_limit", None) for p in profiles))


def test_replaying_a_scenario_on_the_reference_rereads_the_same_checks() -> None:
    reference = ReferenceAdapter()
    info = reference.info()
    for sc, profile in pairs()[::7]:
        again = replayed(sc, profile, ReferenceAdapter())
        assert [s.action for s in again.steps] == [s.action for s in sc.steps]
        assert [set(s.expected(profile).state) for s in again.steps] == [
            set(s.expected(profile).state) for s in sc.steps
        ]
        assert run_scenario(reference, info, again, profile).verdict == "passed", key((sc, profile))


def test_the_pile_limit_scenarios_are_computed_not_tagged() -> None:
    found = pile_limit_dependents()
    assert {"pile-limit-001[app]", "pile-limit-002[app]"} <= found
    assert all(k.split("[")[1].startswith("app") for k in found)
    assert not any(k.startswith("undo-") for k in found)


def test_an_engine_without_the_pile_limit_that_declares_it_passes() -> None:
    results = run_pairs(ReferenceAdapter(NO_LIMIT), app_pairs())
    assert {k for k, r in results.items() if r.verdict != "passed"} == set()
    assert {k for k, r in results.items() if r.judged_as} == pile_limit_dependents()
    judged = next(r for r in results.values() if r.judged_as)
    assert result_record(judged)["judged_as"] == "app, except pile_limit=null"


def test_the_same_engine_undeclared_fails_on_exactly_the_pile_limit_scenarios() -> None:
    results = run_pairs(MutantAdapter(BY_NAME["no_pile_limit_in_app"]), app_pairs())
    failing = {k for k, r in results.items() if r.verdict != "passed"}
    assert failing == pile_limit_dependents()
    assert any(results[k].scenario.area == "pile-limit" for k in failing)


# Mutants that patch the rules themselves (a profile-changing mutant would be bypassed by the declared profile).
@pytest.mark.parametrize(
    ("name", "declared"),
    [
        ("rank_before_suit", {"pile_limit": None}),
        ("empty_piles_refillable", {"pile_limit": None}),
        ("full_pile_says_wrong_suit", {"undo_limit": 5}),
    ],
)
def test_an_undeclared_extra_bug_is_still_caught_with_a_deviation_declared(
    name: str, declared: dict[str, object]
) -> None:
    mutant = BY_NAME[name]
    adapter = MutantAdapter(mutant)
    adapter.deviations = {"app": declared}
    chosen = [p for p in passing_pairs() if names_rule(mutant, p) and p[1].startswith("app")]
    results = run_pairs(adapter, chosen)
    assert any(r.verdict == "failed" for r in results.values()), f"{name} hides behind the declared deviation"


def test_the_summary_states_the_declared_deviations() -> None:
    info = ReferenceAdapter({"app": {"pile_limit": None, "undo_limit": 5}}).info()
    assert info.deviation_lines() == ["app, except pile_limit=null, undo_limit=5"]
    header = report_header(info, ["app"], True)
    assert header["deviations"] == {"app": {"pile_limit": None, "undo_limit": 5}}
    records = [{"judged_as": "app, except pile_limit=null, undo_limit=5"}, {}]
    assert declared_lines(header, records)[0].startswith(
        "DECLARED DEVIATIONS: app, except pile_limit=null, undo_limit=5 (1 scenario run depends on them"
    )


def hello(version: int = 2, **impl: object) -> dict[str, object]:
    return {
        "version": version,
        "implementation": {"name": "x", "version": "1", "language": "c", "profiles": ["app"], **impl},
    }


@pytest.mark.parametrize(
    ("deviations", "named"),
    [
        ({"apps": {"pile_limit": None}}, "'apps'"),
        ({"app": {"pile_limt": None}}, "pile_limt"),
        ({"app": {"pile_limit": "none"}}, 'pile_limit="none"'),
        ({"app": {"undo_limit": -1}}, "undo_limit=-1"),
        ({"app": {"deal": "shut"}}, 'deal="shut"'),
        ({"app": ["pile_limit"]}, "['pile_limit']"),
        (["app"], "['app']"),
    ],
)
def test_a_bad_deviation_is_a_handshake_error_naming_the_field_and_value(deviations: object, named: str) -> None:
    with pytest.raises(AdapterError, match='handshake field "deviations') as err:
        info_from_handshake(hello(deviations=deviations))
    assert named in str(err.value)


def test_a_good_deviation_is_read() -> None:
    info = info_from_handshake(hello(deviations={"app": {"pile_limit": None, "undo_limit": 5}}))
    assert info.deviations == {"app": {"pile_limit": None, "undo_limit": 5}}
    assert info.reference_profile("app+four").pile_limit is None
    assert info.reference_profile("app+four").undo_limit == 5
    assert info.reference_profile("open") == ReferenceAdapter().info().reference_profile("open")
    assert parse_deviations({}) == {}


def test_version_1_implies_every_observation_and_version_2_takes_what_it_declares_but_the_counters() -> None:
    old = info_from_handshake(hello(1, capabilities=["undo"]))
    assert all(old.observes(c) for c in ("reasons", "waiting", "undo-count", "effect", "card-moves"))
    assert not info_from_handshake(hello(1)).observes("undo-count")
    new = info_from_handshake(hello(2, capabilities=["undo", "reasons"]))
    assert new.observes("reasons") and not new.observes("waiting") and not new.observes("undo-count")
    assert all(new.observes(c) for c in ("move-count", "reshuffle-count", "lost"))
    newest = info_from_handshake(hello(3, capabilities=["move-count"]))
    assert newest.observes("move-count") and not newest.observes("reshuffle-count") and not newest.observes("lost")
    with pytest.raises(AdapterError, match="protocol version 4"):
        info_from_handshake(hello(4))


@pytest.mark.parametrize(
    ("deviations", "named"),
    [({"apps": {}}, "'apps'"), ({"app+four": {}}, r"'app\+four'"), ({"app": {"pile_limt": 1}}, "'pile_limt'")],
)
def test_an_in_process_adapter_declaring_a_bad_deviation_is_refused_at_once(deviations: object, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        ReferenceAdapter(deviations).info()  # type: ignore[arg-type]
