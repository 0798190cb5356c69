"""The runner checks the app's quoted messages through the ``message`` request, and records when it cannot."""

from __future__ import annotations

import dataclasses
import functools
import json

import jsonschema
import pytest

from conformance.adapter import Info
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.report import report_header, result_record, unchecked_summary
from conformance.judging.runner import run_scenario
from crescent_ref.spec_files import spec_dir


class WrongWords(ReferenceAdapter):
    """The reference engine with its Chinese messages lost in translation."""

    def message(self, reason: str, lang: str) -> str:
        return "?" if lang == "zh" else super().message(reason, lang)


@functools.cache
def with_messages() -> list[Scenario]:
    return [sc for sc in load_corpus() if any(st.expect.messages for st in sc.steps)]


def test_scenarios_check_every_quoted_message() -> None:
    checked = {st.expect.reason for sc in with_messages() for st in sc.steps if st.expect.messages}
    assert checked == {"pile-full", "wrong-suit", "wrong-rank", "empty-pile", "base-locked", "no-reshuffles"}


@pytest.mark.parametrize("scenario", with_messages()[:3], ids=lambda sc: sc.id)
def test_a_wrong_message_fails_the_scenario(scenario: Scenario) -> None:
    adapter = WrongWords()
    result = run_scenario(adapter, adapter.info(), scenario, "app")
    assert result.verdict == "failed"
    assert result.failure is not None
    assert any(m.what.startswith("message (zh)") and m.actual == "?" for m in result.failure.mismatches)


@pytest.mark.parametrize("scenario", with_messages()[:3], ids=lambda sc: sc.id)
def test_without_the_capability_the_check_is_recorded_as_not_made(scenario: Scenario) -> None:
    adapter = WrongWords()
    info = adapter.info()
    info = dataclasses.replace(info, capabilities=info.capabilities - {"messages"})
    result = run_scenario(adapter, info, scenario, "app")
    assert result.verdict == "passed"
    assert result.unchecked == ("messages: no capability messages",)


def test_a_language_not_declared_is_not_asked() -> None:
    adapter = WrongWords()
    info: Info = dataclasses.replace(adapter.info(), languages=("en", "id"))
    result = run_scenario(adapter, info, with_messages()[0], "app")
    assert result.verdict == "passed"
    assert result.unchecked == ("messages: language zh not declared",)


def test_the_reference_passes_with_every_message_checked() -> None:
    adapter = ReferenceAdapter()
    results = [run_scenario(adapter, adapter.info(), sc, "app") for sc in with_messages()]
    assert [(r.key, r.verdict, r.unchecked) for r in results if r.verdict != "passed" or r.unchecked] == []


def test_the_summary_and_the_json_report_say_what_was_not_checked() -> None:
    adapter = WrongWords()
    info = dataclasses.replace(adapter.info(), capabilities=adapter.info().capabilities - {"messages"})
    results = [run_scenario(adapter, info, sc, "app") for sc in with_messages()]
    want = f"not checked ({len(results)} scenario runs): messages: no capability messages"
    assert unchecked_summary(results) == [want]
    record = result_record(results[0])
    assert record["unchecked"] == ["messages: no capability messages"]
    jsonschema.validate({**report_header(info, ["app"], False), "summary": {}, "results": [record]}, report_schema())


def report_schema() -> dict[str, object]:
    schema: dict[str, object] = json.loads((spec_dir() / "schema" / "report.schema.json").read_text("utf-8"))
    return schema
