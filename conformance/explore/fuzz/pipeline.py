"""Many requests to a stdio implementation in one go: written together, then the replies read in order.

Differential play knows a game's actions before it asks the implementation (the reference chose
them), so over stdio it sends a whole game at once instead of waiting for each reply: one round
trip a game instead of two an action. Requests go out in chunks small enough that neither pipe
can fill while the other side waits. Replies are read to the last one even after a refusal, so
the stream stays in step; a crash or hang ends the exchange (the adapter restarts the process on
the next request).
"""

from __future__ import annotations

from typing import Any

from conformance.adapter import AdapterError
from conformance.adapters.stdio import StdioAdapter

CHUNK = 200  # requests written before their replies are read (about 15 KB of requests)
Request = tuple[dict[str, Any], str]  # a message and the schema of its reply


def exchange(adapter: StdioAdapter, requests: list[Request]) -> list[dict[str, Any] | AdapterError]:
    """Each request's reply (the whole reply object), or the fault that ended the exchange (last)."""
    answers: list[dict[str, Any] | AdapterError] = []
    for at in range(0, len(requests), CHUNK):
        answers += _chunk(adapter, requests[at : at + CHUNK])
        if answers and isinstance(answers[-1], AdapterError):
            break
    return answers


def _chunk(adapter: StdioAdapter, requests: list[Request]) -> list[dict[str, Any] | AdapterError]:
    try:
        process = adapter._ensure()
        seqs = []
        for message, _ in requests:
            adapter.seq += 1
            seqs.append(adapter.seq)
            process.send({**message, "seq": adapter.seq})
    except AdapterError as err:
        return [err]
    except OSError:
        return [_crash(adapter)]
    answers: list[dict[str, Any] | AdapterError] = []
    for (_, schema), seq in zip(requests, seqs, strict=True):
        try:
            answers.append(adapter._read(process, schema, seq))
        except AdapterError as err:
            answers.append(err)
            break
    return answers


def _crash(adapter: StdioAdapter) -> AdapterError:
    process = adapter.process
    try:
        if process is not None:
            process.proc.wait(timeout=adapter.timeout)
            adapter._fail(process, "stopped reading its input (crash)")
    except AdapterError as err:
        return err
    except Exception:
        pass
    return AdapterError("the implementation stopped reading its input (crash)")
