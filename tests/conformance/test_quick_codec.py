"""The quick codec (msgspec) changes speed, never verdicts: whatever reply line it accepts, the strict reader
accepts with the same value; every line it declines goes to the strict reader; the serve loop reads and
writes what the standard library would."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from harness import SERVE, passing_pairs, run_pairs
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.adapter import AdapterError, Reply, RuleError, Skip
from conformance.adapters import quick, replies
from conformance.adapters.stdio import StdioAdapter, parse_line
from crescent_ref import serve

pytestmark = pytest.mark.skipif(not quick.AVAILABLE, reason="msgspec not installed")
ASKED = [None, frozenset(), frozenset({"status"}), frozenset({"piles", "moves"})]
WHOLE = {"piles": [["A♠"], []], "hidden": [0, 1], "foundations": {"A♠": "2♠"}, "held": [], "reshuffles": 2,
         "moves": 3, "status": "playing"}  # fmt: skip


def strict(line: bytes, seq: int, read: Callable[[dict[str, Any]], Any], loading: bool = False) -> Any:
    """What the strict reader makes of ``line`` (None for any fault, skip, error or refusal)."""
    reply, fault = parse_line(line)
    if fault or reply is None:
        return None
    try:
        replies.check_seq(reply, seq)
        return read(replies.result_of(reply, loading))
    except (AdapterError, Skip, RuleError):
        return None


def both_act(line: bytes, asked: frozenset[str] | None) -> tuple[Reply | None, Reply | None]:
    return quick.act_reply(line, 7, asked), strict(line, 7, lambda r: replies.act_reply(r, asked))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
state_fields = st.dictionaries(
    st.sampled_from([*replies.STATE_REQUIRED, "selected", "undo", "foundation_cards", "extra"]),
    json_values | st.sampled_from(list(WHOLE.values())),
    max_size=8,
)
act_results = st.fixed_dictionaries(
    {},
    optional={
        "accepted": st.booleans() | json_values,
        "reason": st.none() | st.sampled_from(["wrong-suit"]) | json_values,
        "effect": st.sampled_from([None, "move", "undo", "jump"]) | json_values,
        "moves": st.lists(st.text(max_size=3), max_size=2) | json_values,
        "state": state_fields | json_values,
    },
)
envelopes = st.fixed_dictionaries(
    {"seq": st.sampled_from([7, 7, 6, True, 7.0, "7"])},
    optional={"result": act_results | json_values, "skipped": json_values, "errored": json_values},
)


@settings(max_examples=400, deadline=None)
@given(envelopes, st.sampled_from(ASKED))
def test_an_act_line_the_quick_reader_accepts_reads_the_same_strictly(reply: dict[str, Any], asked: Any) -> None:
    line = json.dumps(reply, ensure_ascii=False).encode("utf-8", "surrogatepass")
    fast, slow = both_act(line, asked)
    assert fast is None or fast == slow


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120) | st.text(max_size=120).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random_bytes_are_never_read_otherwise(raw: bytes) -> None:
    fast, slow = both_act(raw, None)
    assert fast is None or fast == slow
    state = quick.start_state(raw, 7, frozenset())
    assert state is None or state == strict(raw, 7, lambda r: replies.state_of(r, frozenset()), loading=True)


HOSTILE = {
    "lone surrogate": rb'{"seq":7,"result":{"accepted":true,"reason":"\ud800"}}',
    "lone surrogate in a field not read": rb'{"seq":7,"note":"\udc00","result":{"accepted":true}}',
    "encoded surrogate in a field not read": b'{"seq":7,"note":"\xed\xa0\x80","result":{"accepted":true}}',
    "not UTF-8 in a field not read": b'{"seq":7,"note":"\xff","result":{"accepted":true}}',
    "NaN": b'{"seq":7,"result":{"accepted":true},"x":NaN}',
    "Infinity": b'{"seq":7,"result":{"accepted":true,"state":{"moves":Infinity}}}',
    "a number out of range": b'{"seq":7,"result":{"accepted":true,"state":{"moves":1e400}}}',
    "deep nesting": b'{"seq":7,"x":' + b"[" * 5000 + b"]" * 5000 + b',"result":{"accepted":true}}',
    "true for a seq": b'{"seq":true,"result":{"accepted":true}}',
    "5.0 for a seq": b'{"seq":7.0,"result":{"accepted":true}}',
    "the wrong seq": b'{"seq":8,"result":{"accepted":true}}',
    "result null": b'{"seq":7,"result":null}',
    "result and errored": b'{"seq":7,"result":{"accepted":true},"errored":{"message":"x"}}',
    "skipped": b'{"seq":7,"skipped":{"message":"no"}}',
    "moves null": b'{"seq":7,"result":{"accepted":true,"moves":null}}',
    "accepted 1": b'{"seq":7,"result":{"accepted":1}}',
    "a state missing a field asked": b'{"seq":7,"result":{"accepted":true,"state":{"moves":1}}}',
    "hidden true": b'{"seq":7,"result":{"accepted":true,"state":{"status":"x","hidden":[true]}}}',
    "a list": b"[1]",
    "trailing garbage": b'{"seq":7,"result":{"accepted":true}} x',
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_line_is_left_to_the_strict_reader(name: str) -> None:
    assert quick.act_reply(HOSTILE[name], 7, frozenset({"status"})) is None


def test_well_formed_replies_take_the_quick_path() -> None:
    whole = json.dumps({"seq": 7, "result": {"accepted": True, "effect": "move", "moves": ["p1-p2"], "state": WHOLE}})
    assert quick.act_reply(whole.encode(), 7, None) == Reply(True, None, "move", ("p1-p2",), WHOLE)
    lean = b'{"seq":7,"result":{"accepted":false,"reason":"wrong-suit","effect":null,"moves":[]}}'
    assert quick.act_reply(lean, 7, frozenset()) == Reply(False, "wrong-suit", None, ())
    assert quick.legal_moves(b'{"seq":7,"result":{"moves":["p1-p2"]}}', 7) == ["p1-p2"]
    assert quick.message_text(b'{"seq":7,"result":{"text":"\xe2\x99\xa0"}}', 7) == "♠"
    assert quick.start_state(b'{"seq":7,"result":{}}', 7, frozenset()) == {}


def test_a_state_with_a_field_of_its_own_is_read_with_it() -> None:
    for asked in (None, frozenset({"moves"})):
        line = json.dumps({"seq": 7, "result": {"accepted": True, "state": {**WHOLE, "extra": [1]}}}).encode()
        fast, slow = both_act(line, asked)
        assert slow is not None and slow.state["extra"] == [1]
        assert fast is None or fast == slow


def test_the_request_encoder_writes_one_json_line() -> None:
    line = quick.encoder()({"cmd": "act", "seq": 3, "action": "p5-A♠", "state": ["moves"]})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"cmd": "act", "seq": 3, "action": "p5-A♠", "state": ["moves"]}


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80) | st.dictionaries(st.text(max_size=4), json_values, max_size=4).map(
    lambda d: json.dumps(d, ensure_ascii=False).encode("utf-8", "surrogatepass")))  # fmt: skip
def test_serve_reads_a_request_as_the_standard_library_does(raw: bytes) -> None:
    request, refusal = serve.read_request(raw)
    try:
        expected = json.loads(raw.decode("utf-8"), parse_constant=float)
    except (ValueError, RecursionError):
        assert refusal is not None
        return
    if refusal is None:
        assert request == expected


def test_serve_echoes_a_lone_surrogate_as_replacement_characters() -> None:
    out = io.BytesIO()
    serve.serve(io.BytesIO(b'{"cmd": "act", "seq": "\\ud800", "action": "undo"}\n'), out)
    reply = json.loads(out.getvalue().decode("utf-8"))
    assert set(reply["seq"]) == {"\ufffd"} and "errored" in reply  # as the standard library path writes it


def test_without_msgspec_both_ends_take_the_standard_library_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quick, "AVAILABLE", False)
    monkeypatch.setattr(serve, "_QUICK_DECODE", None)
    monkeypatch.setattr(serve, "_QUICK_ENCODE", None)
    assert quick.act_reply(b'{"seq":7,"result":{"accepted":true}}', 7, frozenset()) is None
    out = io.BytesIO()
    serve.serve(
        io.BytesIO(b'{"cmd": "new_game", "seq": 1, "profile": "app", "code": "CR1-N-AAAAAAB", "state": []}\n'), out
    )
    assert out.getvalue() == b'{"seq": 1, "result": {}}\n'  # json.dumps's spacing: the stdlib wrote it
    chosen = passing_pairs()[:15]
    results = run_pairs(StdioAdapter(f"{SERVE}", timeout=30), chosen)
    assert {r.verdict for r in results.values()} == {"passed"}


CALLS = [("act", None), ("act", frozenset()), ("act", frozenset({"status"})), ("new_game", frozenset()),
         ("new_game", None), ("legal_moves", None)]  # fmt: skip
inner_results = act_results | st.fixed_dictionaries({}, optional={"moves": json_values}) | json_values
inner_seqs = st.sampled_from([1, "1"])
inner_replies = st.fixed_dictionaries(
    {}, optional={"result": inner_results, "errored": json_values, "skipped": json_values, "seq": inner_seqs}
)
ONE_BY_ONE: dict[str, Callable[[Any, int | None, Any], Any]] = {
    "act": quick.act_reply, "new_game": quick.start_state, "legal_moves": quick.legal_moves
}


def one_by_one(line: bytes, calls: tuple[quick.Called, ...]) -> list[Any] | None:
    """What the inner replies of a batch read one by one give (None when any is declined)."""
    raws = quick.batch_replies(line, 9, len(calls))
    if raws is None:
        return None
    answers = [ONE_BY_ONE[cmd](raw, None, asked) for raw, (cmd, asked) in zip(raws, calls, strict=True)]
    return None if any(a is None for a in answers) else answers


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(inner_replies, st.sampled_from(CALLS)), min_size=1, max_size=4), st.booleans())
def test_a_batch_read_in_one_pass_reads_as_its_replies_one_by_one(pairs: list[Any], short: bool) -> None:
    inners, calls = [p[0] for p in pairs], tuple(p[1] for p in pairs)
    line = json.dumps({"seq": 9, "result": {"replies": inners}}, ensure_ascii=False).encode("utf-8", "surrogatepass")
    asked = calls[:-1] if short and len(calls) > 1 else calls  # a batch answered with a reply more than asked
    at_once = quick.batch_answers(line, 9, asked)
    assert at_once is None or at_once == one_by_one(line, asked)


def test_a_plain_batch_is_read_in_one_pass_and_a_declined_one_is_not() -> None:
    plain = {"result": {"accepted": True, "effect": "move", "moves": ["p1-p2"], "state": {"status": "playing"}}}
    calls: tuple[quick.Called, ...] = (("new_game", frozenset()), ("act", frozenset({"status"})), ("legal_moves", None))
    line = json.dumps({"seq": 9, "result": {"replies": [{"result": {}}, plain, {"result": {"moves": []}}]}}).encode()
    expected = [{}, Reply(True, None, "move", ("p1-p2",), {"status": "playing"}), []]
    assert quick.batch_answers(line, 9, calls) == expected == one_by_one(line, calls)
    refused = line.replace(b'{"result": {}}', b'{"errored": {"message": "bad position", "refused": true}}')
    assert quick.batch_answers(refused, 9, calls) is None  # each is read on its own: the refusal is named
    assert quick.batch_answers(line, 8, calls) is None  # the wrong seq
    assert quick.batch_answers(line, 9, calls[:2]) is None  # a reply more than the requests
