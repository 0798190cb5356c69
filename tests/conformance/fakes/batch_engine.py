"""``crescent-ref serve`` that breaks its third batch reply: ``python batch_engine.py MODE``.

MODE: ``whole-errored`` (the batch errored as a whole), ``short`` (one reply missing), ``inner-errored``
(the second request errored, a well-formed reply), ``inner-wrong-type`` (``accepted: "yes"``), ``nan`` (NaN
in the line), ``lone-surrogate`` (an escaped lone surrogate in a reason), ``none`` (nothing broken).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from crescent_ref.serve import Server


def broken(mode: str, reply: dict[str, Any]) -> str:
    """The reply line of the third batch, broken as ``mode`` says."""
    replies = reply["result"]["replies"]
    if mode == "whole-errored":
        return json.dumps({"seq": reply["seq"], "errored": {"message": "no batches today"}})
    if mode == "short":
        replies.pop()
    elif mode == "inner-errored":
        replies[1] = {"errored": {"message": "the second one failed"}}
    elif mode == "inner-wrong-type":
        replies[1] = {"result": {"accepted": "yes"}}
    elif mode == "nan":
        replies[1]["note"] = float("nan")
    elif mode == "lone-surrogate":
        return json.dumps(reply, ensure_ascii=False).replace(
            '"result": {"accepted"', '"result": {"x": "\\ud800", "accepted"', 1
        )
    return json.dumps(reply, ensure_ascii=False)


def main() -> int:
    """Serve; the third batch's reply broken."""
    mode, server, batches = sys.argv[1], Server(), 0
    for line in sys.stdin:
        request = json.loads(line)
        reply = server.handle(request)
        if reply is None:
            break
        batches += request.get("cmd") == "batch"
        text = (
            broken(mode, reply)
            if batches == 3 and request.get("cmd") == "batch"
            else json.dumps(reply, ensure_ascii=False)
        )
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        batches += 10 * (batches == 3 and request.get("cmd") == "batch")  # only the third
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
