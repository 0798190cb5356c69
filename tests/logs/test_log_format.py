"""The game-log format: spec/schema/game-log.schema.json and the reader agree on what a line is; a bad
line is one clear error naming file, line and text, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.cli import main as conformance_main
from conformance.logs.check import check_log
from conformance.logs.read import LogError, read_lines
from conformance.logs.record import random_log, write_log
from crescent_ref.spec_files import spec_dir

HEADER = {"crescent_log": 1, "profile": "app", "code": "CR1-N-AAAAAAB"}
GOOD_HEADERS = [
    HEADER,
    {**HEADER, "implementation": {"name": "my-game", "version": "2.1"}, "meta": {"player": "x"}},
    {**HEADER, "deviations": {"app": {"pile_limit": None, "undo_limit": 5}}, "state": {"moves": 0}},
]
GOOD_RECORDS = [
    {"action": "p8-A♠", "accepted": True},
    {"action": "p8-A♠", "accepted": True, "reason": None, "effect": "move", "moves": ["p8-A♠"],
     "state": {"moves": 1, "foundations": {"A♠": "2♠"}, "status": "playing", "selected": None}},
    {"action": "p3-p1", "accepted": False, "reason": "wrong-suit", "moves": []},
    {"action": "p3-p1", "accepted": False, "reason": None, "meta": {"ms": 120}},
]
# lines both the schema and the reader refuse
BAD_HEADERS = [
    {"profile": "app", "code": "CR1-N-AAAAAAB"},
    {**HEADER, "crescent_log": 2},
    {**HEADER, "position": "up:..."},
    {"crescent_log": 1, "profile": "app"},
    {**HEADER, "players": 2},
    {**HEADER, "profile": 7},
    {**HEADER, "code": "CR1-N-aaaaaab"},
    {**HEADER, "implementation": {"name": "x", "build": 3}},
    {**HEADER, "deviations": {"app": 5}},
]
BAD_RECORDS = [
    {"action": "p8-A♠"},
    {"action": "p8-A♠", "accepted": "yes"},
    {"action": "p8-A♠", "accepted": True, "score": 10},
    {"action": "p8-A♠", "accepted": True, "reason": "wrong-suit"},
    {"action": "p8-A♠", "accepted": True, "effect": "jump"},
    {"action": "p8-A♠", "accepted": True, "moves": "p8-A♠"},
    {"action": "p8-A♠", "accepted": True, "state": {"score": 3}},
    {"action": "p8-A♠", "accepted": True, "state": {"moves": "1"}},
    {"action": "p8-A♠", "accepted": True, "state": {"status": "paused"}},
    {"action": 5, "accepted": True},
]
# lines the schema lets through but the notation refuses (the reader reads the texts)
BAD_NOTATION = [
    {"action": "p8-p17", "accepted": True},
    {"action": "p8-A♠", "accepted": True, "moves": ["reshuffle"]},
]


def text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((spec_dir() / "schema" / "game-log.schema.json").read_text("utf-8"))
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("header", GOOD_HEADERS)
@pytest.mark.parametrize("record", GOOD_RECORDS)
def test_good_lines_pass_the_schema_and_the_reader(
    validator: jsonschema.Draft202012Validator, header: dict[str, Any], record: dict[str, Any]
) -> None:
    assert validator.is_valid(header) and validator.is_valid(record)
    log = read_lines("g.jsonl", [text(header), text(record)])
    assert log.header.profile == "app" and log.records[0].line == 2


@pytest.mark.parametrize("header", BAD_HEADERS, ids=str)
def test_a_bad_header_is_refused_by_both(validator: jsonschema.Draft202012Validator, header: dict[str, Any]) -> None:
    assert not validator.is_valid(header)
    with pytest.raises(LogError) as caught:
        read_lines("g.jsonl", [text(header)])
    assert caught.value.line == 1 and str(caught.value).startswith("g.jsonl:1: ")


@pytest.mark.parametrize("record", BAD_RECORDS, ids=str)
def test_a_bad_record_is_refused_by_both(validator: jsonschema.Draft202012Validator, record: dict[str, Any]) -> None:
    assert not validator.is_valid(record)
    with pytest.raises(LogError) as caught:
        check_log(read_lines("g.jsonl", [text(HEADER), "", text(record)]))  # a field's value: when compared
    assert caught.value.line == 3 and text(record)[:60] in str(caught.value)


@pytest.mark.parametrize("record", BAD_NOTATION, ids=str)
def test_notation_the_schema_cannot_see_is_refused_by_the_reader(
    validator: jsonschema.Draft202012Validator, record: dict[str, Any]
) -> None:
    assert validator.is_valid(record)
    with pytest.raises(LogError, match=r"g\.jsonl:2: invalid"):
        read_lines("g.jsonl", [text(HEADER), text(record)])


@pytest.mark.parametrize("line", ["not json", "[1, 2]", '{"crescent_log": 1,'])
def test_a_line_that_is_no_json_object_is_named(line: str) -> None:
    with pytest.raises(LogError, match=r"g\.jsonl:1: not a JSON object|g\.jsonl:1: not JSON"):
        read_lines("g.jsonl", [line])


def test_an_empty_log_and_unknown_profile_or_deviation_are_errors() -> None:
    with pytest.raises(LogError, match="empty log"):
        read_lines("g.jsonl", ["", "  "])
    for header in ({**HEADER, "profile": "apps"}, {**HEADER, "deviations": {"app": {"pile_size": 3}}}):
        with pytest.raises(LogError, match=r"g\.jsonl:1: "):
            check_log(read_lines("g.jsonl", [text(header)]))


def test_a_malformed_state_field_that_differs_is_an_error_not_a_divergence() -> None:
    record = {"action": "p8-A♠", "accepted": True, "state": {"piles": [["8♦"]] * 15}}
    with pytest.raises(LogError, match=r"g\.jsonl:2: state field 'piles'"):
        check_log(read_lines("g.jsonl", [text(HEADER), text(record)]))


def test_every_line_of_a_reference_log_matches_the_schema(validator: jsonschema.Draft202012Validator) -> None:
    lines = random_log("app", "CR1-N-AAAAAAB", 30, seed=2)
    assert [n for n, line in enumerate(lines) if not validator.is_valid(json.loads(line))] == []


def test_check_log_says_one_line_for_a_bad_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    write_log(bad, [text(HEADER), "{oops"])
    assert conformance_main(["check-log", str(bad), str(tmp_path / "missing.jsonl")]) == 2
    seen = capsys.readouterr()
    err = seen.err.splitlines()
    assert err[0].startswith(f"check-log: log {bad}:2: not JSON") and err[0].endswith("{oops")
    assert err[1].startswith(f"check-log: log {tmp_path / 'missing.jsonl'}:0: cannot read the log")
    assert "not JSON" not in seen.out and "cannot read" not in seen.out
    assert conformance_main(["check-log", str(bad), "--profile", "nope"]) == 2
    assert "invalid profile: 'nope'" in capsys.readouterr().err


def test_the_examples_of_spec_game_log_md_check_clean() -> None:
    page = (spec_dir() / "game-log.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in page.split("```json\n")[1:]]
    header = json.dumps(json.loads(blocks[0]), ensure_ascii=False)
    verdict = check_log(read_lines("game-log.md", [header, *blocks[1].splitlines()]))
    assert verdict.consistent and verdict.checked == 3


def test_the_log_of_the_adapter_guide_checks_clean() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "writing-an-adapter.md").read_text("utf-8")
    block = guide.split("## 12.")[1].split("```json\n")[1].split("```")[0]
    assert check_log(read_lines("guide.jsonl", block.splitlines())).consistent
