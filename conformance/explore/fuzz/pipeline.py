"""Many requests to a stdio implementation in one go: written together, then the replies read in order.

Differential play knows a game's actions before it asks the implementation (the reference chose
them), so over stdio it sends a whole game at once instead of waiting for each reply: one round
trip a game instead of two an action. Requests go out in chunks small enough that neither pipe
can fill while the other side waits. Replies are read to the last one even after a refusal, so
the stream stays in step; a crash or hang ends the exchange (the adapter restarts the process on
the next request). Faults and answers count per kind of request as the adapter's own calls do
(conformance.adapters.kinds): a request of a kind no longer sent ends the exchange with that fault,
unsent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator
from typing import Any

from conformance.adapter import AdapterError
from conformance.adapters.kinds import Ledger, request_kind
from conformance.adapters.replies import check_seq
from conformance.adapters.stdio import StdioAdapter

CHUNK = 200  # requests written before their replies are read (about 15 KB of requests)
Request = tuple[dict[str, Any], str]  # a message and the schema of its reply


def exchange(adapter: StdioAdapter, requests: list[Request]) -> Generator[dict[str, Any] | AdapterError, None, None]:
    """Each request's reply (the whole reply object), read as the caller asks for it; a fault ends it.

    Closing the iterator early reads (and drops) the replies still due for requests already sent,
    so the next request finds the stream in step; requests not yet sent are never sent.
    """
    try:
        adapter._ensure()  # a fresh process's probes first: they may lose a kind these requests hold
    except AdapterError as err:
        yield err
        return
    ledger = adapter.ledger
    lost = _first_lost(ledger, requests)
    for at in range(0, lost, CHUNK):
        chunk = requests[at : min(at + CHUNK, lost)]
        sent = _send(adapter, chunk)
        if isinstance(sent, AdapterError):
            yield sent
            return
        pending = list(zip(chunk, sent, strict=True))
        try:
            while pending:
                (message, schema), seq = pending[0]
                try:
                    reply = _read(adapter, schema, seq)
                except AdapterError:
                    ledger.faulted({request_kind(message)})
                    raise
                ledger.answered(request_kind(message))
                pending.pop(0)
                yield reply
        except AdapterError as err:
            pending.clear()
            yield err
            return
        except GeneratorExit:  # the caller stopped early: the finally reads what is due, the process stays
            raise
        except BaseException:  # Ctrl-C, SIGTERM: answered at once, no replies waited for
            pending.clear()
            if adapter.process is not None:
                adapter.process.kill()
            raise
        finally:
            _drain(adapter, [(schema, seq) for (_, schema), seq in pending])
    if lost < len(requests):
        yield ledger.fault(request_kind(requests[lost][0]))


def _first_lost(ledger: Ledger, requests: list[Request]) -> int:
    """The place of the first request of a kind no longer sent (the number of requests when none is)."""
    lost = ledger.lost
    return next((n for n, (message, _) in enumerate(requests) if request_kind(message) in lost), len(requests))


def _send(adapter: StdioAdapter, requests: list[Request]) -> list[int] | AdapterError:
    try:
        process = adapter._ensure()
        seqs, lines = [], []
        for message, _ in requests:
            adapter.seq += 1
            seqs.append(adapter.seq)
            lines.append(json.dumps({**message, "seq": adapter.seq}, ensure_ascii=False))
        process.send(("\n".join(lines) + "\n").encode("utf-8"), time.monotonic() + adapter.timeout)
    except TimeoutError:
        return _crash(adapter)
    except AdapterError as err:
        return err
    except OSError:
        return _crash(adapter)
    return seqs


def _read(adapter: StdioAdapter, schema: str, seq: int) -> dict[str, Any]:
    """The next reply, read strictly (conformance.adapters.replies), echoing ``seq``."""
    process = adapter.process
    if process is None:
        raise AdapterError("the implementation is not running")
    line, reply = adapter._read(process, schema, time.monotonic() + adapter.timeout)
    try:
        check_seq(reply, seq)
    except AdapterError as err:
        adapter._fail(process, err.message, line)
    return reply


def _drain(adapter: StdioAdapter, pending: list[tuple[str, int]]) -> None:
    """Read the replies still due (the caller stopped early); a fault leaves the process to restart."""
    for schema, seq in pending:
        try:
            _read(adapter, schema, seq)
        except AdapterError:
            return


def _crash(adapter: StdioAdapter) -> AdapterError:
    """The fault of a process that stopped reading: its exit code and stderr if it exits within a second."""
    process = adapter.process
    try:
        if process is not None:
            process.settle(min(1.0, adapter.timeout))
            adapter._fail(process, "stopped reading its input (crash)", silent=True)
    except AdapterError as err:
        return err
    return AdapterError("the implementation stopped reading its input (crash)")
