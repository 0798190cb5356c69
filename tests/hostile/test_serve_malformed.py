"""``crescent-ref serve`` answers every malformed request with ``errored`` (spec/protocol.md) and goes on."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from crescent_ref.serve import serve

GOOD_GAME = b'{"cmd": "new_game", "seq": 90, "profile": "app", "code": "CR1-N-AAAAAAB"}'
MALFORMED: dict[str, bytes] = {
    "not JSON": b"{oops",
    "not UTF-8": b'{"cmd": "act", "seq": 1, "action": "\xff"}',
    "a list": b"[1, 2]",
    "a number": b"42",
    "a string": b'"act"',
    "NaN": b'{"cmd": "act", "seq": NaN, "action": "undo"}',
    "deep nesting": b"[" * 50_000 + b"]" * 50_000,
    "no cmd": b'{"seq": 1}',
    "cmd a list": b'{"cmd": ["act"], "seq": 1}',
    "unknown cmd": b'{"cmd": "dance", "seq": 1}',
    "a private method": b'{"cmd": "_current", "seq": 1}',
    "dunder": b'{"cmd": "__init__", "seq": 1}',
    "new_game without profile": b'{"cmd": "new_game", "seq": 1, "code": "CR1-N-AAAAAAB"}',
    "new_game without position": b'{"cmd": "new_game", "seq": 1, "profile": "app"}',
    "unknown profile": b'{"cmd": "new_game", "seq": 1, "profile": "nosuch", "code": "CR1-N-AAAAAAB"}',
    "position a number": b'{"cmd": "new_game", "seq": 1, "profile": "app", "position": 7}',
    "profile a dict": b'{"cmd": "new_game", "seq": 1, "profile": {}, "code": "CR1-N-AAAAAAB"}',
    "act before a game": b'{"cmd": "act", "seq": 1, "action": "undo"}',
    "action a number": GOOD_GAME + b'\n{"cmd": "act", "seq": 1, "action": 5}',
    "action not notation": GOOD_GAME + b'\n{"cmd": "act", "seq": 1, "action": "p\xc2\xb2-p3"}',
    "message unknown reason": b'{"cmd": "message", "seq": 1, "reason": "nope", "lang": "en"}',
    "message unknown language": b'{"cmd": "message", "seq": 1, "reason": "wrong-suit", "lang": "fr"}',
    "lone surrogate": b'{"cmd": "act", "seq": 1, "action": "\\ud800"}',
}
REFUSED: dict[str, bytes] = {
    "bad code": b'{"cmd": "new_game", "seq": 1, "profile": "app", "code": "CR9-N-AAAAAAB"}',
    "bad position": b'{"cmd": "new_game", "seq": 1, "profile": "app", "position": "piles:- moves:\xc2\xb2"}',
}


def replies(*lines: bytes) -> list[dict[str, Any]]:
    out = io.BytesIO()
    serve(io.BytesIO(b"\n".join(lines) + b"\n"), out)
    text = out.getvalue().decode("utf-8")  # strict: the server writes UTF-8 only
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_request_is_answered_errored_and_the_server_goes_on(name: str) -> None:
    answers = replies(MALFORMED[name], GOOD_GAME)
    assert "errored" in answers[-2], answers[-2]
    assert not answers[-2]["errored"].get("refused")
    assert "result" in answers[-1]


@pytest.mark.parametrize("name", list(REFUSED))
def test_an_invalid_position_or_code_is_refused(name: str) -> None:
    answer = replies(REFUSED[name])[0]
    assert answer["seq"] == 1
    assert answer["errored"]["refused"] is True


def test_the_error_message_quotes_a_long_input_cut() -> None:
    answer = replies(b'{"cmd": "act", "seq": 1, "action": "' + b"x" * 100_000 + b'"}')[0]
    assert len(json.dumps(answer)) < 1000


@pytest.mark.parametrize("name", [n for n in MALFORMED if b"\n" not in MALFORMED[n]] + list(REFUSED))
def test_a_request_inside_a_batch_is_answered_as_alone_without_its_seq(name: str) -> None:
    raw = {**MALFORMED, **REFUSED}[name]
    alone = replies(GOOD_GAME, raw)[-1]
    try:
        request = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        pytest.skip("not a JSON request: it cannot stand inside a batch")
    batch = json.dumps({"cmd": "batch", "seq": 3, "requests": [request]}).encode()
    inner = replies(GOOD_GAME, batch)[-1]["result"]["replies"][0]
    alone.pop("seq", None)
    assert inner == alone


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
