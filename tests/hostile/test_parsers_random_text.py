"""Random text into every parser: only the kit's own error types may come out, never a crash.

Parsers: action, place, card, position, game code, profile name, scenario YAML, expectations YAML,
protocol request lines (the reference server) and reply lines (the stdio adapter's reader).
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.adapters.stdio import parse_line
from conformance.contract.expectations import load_expectations
from conformance.corpus.load import read_file
from crescent_ref.actions import parse_action, parse_place
from crescent_ref.cards import parse_index
from crescent_ref.deal import deal_position, parse_code
from crescent_ref.errors import CrescentError, NotationError
from crescent_ref.position import Position
from crescent_ref.profiles import get_profile
from crescent_ref.serve import Server, read_request

EXAMPLES = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
NOTATION = "p0123456789-AKQJTVRSHDC♠♥♦♣ holdtapdropreshuffleundo²٣１[],/:+\u00a0\ud800"
POSITION = deal_position("CR1-N-AAAAAAB").to_text()
YAML_BITS = ["area: ", "scenarios:", "- id: ", "  given:", "    code: ", "deviations:", "  x: y", "&a ", "*a",
             "[", "]", "{", "}", ": ", "\n", "  ", "- ", "!!python/object ", "'", '"', "%YAML 1.1", "---", "\t"]

notation_text = st.text(alphabet=NOTATION, max_size=40) | st.text(max_size=40)
yaml_text = st.lists(st.sampled_from(YAML_BITS) | st.text(max_size=8), max_size=30).map("".join)


def mutated_position() -> st.SearchStrategy[str]:
    """The dealt position with one slice replaced by random text."""
    return st.tuples(st.integers(0, len(POSITION)), st.integers(0, 20), notation_text).map(
        lambda t: POSITION[: t[0]] + t[2] + POSITION[t[0] + t[1] :]
    )


@EXAMPLES
@given(notation_text)
def test_notation_parsers_raise_only_notation_errors(text: str) -> None:
    for parse in (parse_action, parse_place, parse_index, parse_code, get_profile):
        try:
            parse(text)
        except NotationError as err:
            assert len(str(err)) < 600  # the input is quoted, cut to a readable length


@EXAMPLES
@given(mutated_position() | notation_text)
def test_the_position_parser_raises_only_notation_errors(text: str) -> None:
    try:
        Position.from_text(text)
    except NotationError as err:
        assert len(str(err)) < 1200


@EXAMPLES
@given(yaml_text)
def test_scenario_and_expectations_files_raise_only_kit_errors(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = tmp_path_factory.getbasetemp() / "random.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for read in (read_file, load_expectations):
        with contextlib.suppress(CrescentError):
            read(path)


@EXAMPLES
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_protocol_lines_are_read_or_refused_with_a_fault(raw: bytes) -> None:
    reply, fault = parse_line(raw)
    assert (reply is None) != (fault is None)
    _, refusal = read_request(raw)
    assert refusal is None or "errored" in refusal


requests = st.fixed_dictionaries(
    {"cmd": st.sampled_from(["new_game", "act", "legal_moves", "message", "x", "_act"]) | st.text(max_size=5)},
    optional={
        "seq": st.integers() | st.none() | st.text(max_size=3),
        "profile": st.sampled_from(["app", "open+four", "nosuch"]) | st.integers() | notation_text,
        "code": st.sampled_from(["CR1-N-AAAAAAB"]) | notation_text | st.none(),
        "position": st.sampled_from([POSITION]) | mutated_position() | st.lists(st.integers()),
        "action": notation_text | st.integers(),
        "reason": st.sampled_from(["wrong-suit"]) | notation_text,
        "lang": st.sampled_from(["en", "id", "zh", "fr"]),
    },
)


@EXAMPLES
@given(st.lists(requests | st.lists(st.integers()) | st.integers(), max_size=6))
def test_the_server_answers_every_request_without_raising(batch: list[object]) -> None:
    server = Server()
    for request in batch:
        reply = server.handle(request)
        assert reply is not None and sum(k in reply for k in ("result", "errored")) == 1
        json.dumps(reply)
