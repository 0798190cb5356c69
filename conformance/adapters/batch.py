"""Batches (spec/protocol.md, *Batches*): the stdio adapter's side of the ``batch`` capability.

To an implementation declaring ``batch``, a scenario's announced calls go as one request,
``{"seq": N, "cmd": "batch", "requests": [...]}``, answered by one reply line holding a reply per
request in order. The line is read once, when the first of its calls is made: in one typed pass into
every call's answer when each inner reply is a plain result of its call (the common case: a call then
only takes its answer); else quickly (msgspec, each inner reply left unread until its call reads it as
a reply of its own) or, when the quick reader declines the line, strictly (every inner reply an
object). A batch answered as a whole (skipped, errored), or with a number of replies other than the
number of requests, is a fault of the implementation.

``BatchReplies`` is the part of StdioAdapter that reads them; it names what it uses of the adapter
(the line reader, the strict parser, the fault) and StdioAdapter gives them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from conformance.adapter import AdapterError, Skip
from conformance.adapters import quick
from conformance.adapters.pipes import Child
from conformance.adapters.replies import Errored, result_of

T = TypeVar("T")
Asked = frozenset[str] | None  # the state fields asked for (None: the whole state, or no state in the reply)


def batch_request(seq: int, inners: list[bytes]) -> bytes:
    """The request line of a batch of the requests ``inners`` (each without seq or newline)."""
    return b'{"seq":%d,"cmd":"batch","requests":[%s]}\n' % (seq, b",".join(inners))


@dataclass(slots=True)
class Batch:
    """A batch request written: its seq, its calls (command and state fields asked, in order), its reply
    line once read, and then either every call's answer (``answers``: the line read in one typed pass) or
    its inner replies split (each unread, msgspec.Raw; or objects when ``strict``: the quick reader
    declined the line)."""

    seq: int
    calls: tuple[quick.Called, ...]
    line: bytes | None = None
    inner: list[Any] | None = None
    strict: bool = False
    answers: list[Any] | None = None
    keys: Sequence[Any] = ()  # the calls' keys (conformance.adapters.stdio), for the kinds a fault counts against

    @property
    def size(self) -> int:
        """The number of requests it holds."""
        return len(self.calls)

    @property
    def read(self) -> bool:
        """Whether its reply line has been read (into answers or inner replies)."""
        return self.answers is not None or self.inner is not None


class BatchReplies:
    """Reading the replies of batches; the methods below the line are StdioAdapter's."""

    validate: bool
    timeout: float

    def _from_batch(
        self,
        process: Child,
        batch: Batch,
        index: int,
        schema: str,
        fast: Callable[[Any, int | None, Asked], T | None],
        strict: Callable[[dict[str, Any], Asked], T],
        asked: Asked,
        loading: bool,
    ) -> T:
        """The answer to a call sent in a batch: taken from the answers read at once, else its inner reply
        read quickly or strictly as a reply is."""
        self._read_batch(process, batch)
        if batch.answers is not None:
            ready: T = batch.answers[index]
            return ready
        assert batch.inner is not None
        inner = batch.inner[index]
        if not batch.strict:
            answer = fast(inner, None, asked)
            if answer is not None:
                return answer
            inner = self._parse(process, bytes(inner), schema)
        try:
            result = result_of(inner, loading)
        except Errored:
            raise  # a well-formed errored reply: the process goes on
        except AdapterError as err:
            self._fail(process, f"reply breaks the protocol schema: {err.message}", bytes(batch.line or b""))
        return self._read_field(lambda: strict(result, asked))

    def _read_batch(self, process: Child, batch: Batch) -> None:
        """A batch's reply line read once: into every call's answer when each inner reply is a plain result
        of its call, else into its inner replies (quickly: each unread; else strictly: objects); a batch
        reply that is not a result of one object per request kills the process (AdapterError)."""
        if batch.read:
            return
        line = batch.line = self._receive(process, time.monotonic() + self.timeout)
        if not self.validate:
            batch.answers = quick.batch_answers(line, batch.seq, batch.calls)
            if batch.answers is not None:
                return
        raws = None if self.validate else quick.batch_replies(line, batch.seq, batch.size)
        if raws is None:
            batch.strict = True
            raws = self._strict_batch(process, line, batch)
        batch.inner = raws

    def _strict_batch(self, process: Child, line: bytes, batch: Batch) -> list[Any]:
        result = self._answer_batch(process, (line, self._parse(process, line, "batch-reply")), batch.seq)
        replies = result.get("replies")
        if not isinstance(replies, list) or len(replies) != batch.size or not all(isinstance(r, dict) for r in replies):
            what = f"a list of {batch.size} reply objects"
            self._fail(process, f'reply breaks the protocol schema: field "result.replies": expected {what}', line)
        return replies

    def _answer_batch(self, process: Child, got: tuple[bytes, dict[str, Any]], seq: int) -> dict[str, Any]:
        """A batch reply's result: a batch that is skipped or errored as a whole is a fault (the runner only
        sends batches an implementation declaring ``batch`` can read)."""
        try:
            return self._answer(process, got, seq, False)
        except (Errored, Skip) as err:
            self._fail(process, f"answered a batch request as a whole, not request by request: {err}", got[0])

    # --- what the adapter gives (conformance.adapters.stdio.StdioAdapter) ------------------------------

    def _receive(self, process: Child, deadline: float) -> bytes:
        raise NotImplementedError

    def _parse(self, process: Child, line: bytes, schema: str) -> dict[str, Any]:
        raise NotImplementedError

    def _answer(self, process: Child, got: tuple[bytes, dict[str, Any]], seq: int, loading: bool) -> dict[str, Any]:
        raise NotImplementedError

    def _fail(self, process: Child, what: str, seen: str | bytes = "") -> NoReturn:
        raise NotImplementedError

    def _read_field(self, read: Callable[[], T]) -> T:
        raise NotImplementedError
