"""An implementation in any language, driven over stdin/stdout JSON lines (spec/protocol.md).

The process is started lazily and kept for the whole run. When it crashes, hangs past the timeout,
writes something that is not a reply (not UTF-8, not JSON, NaN, a lone surrogate, a line past
``max_line`` bytes), echoes the wrong ``seq`` or breaks the message schema, the request fails with
AdapterError (the scenario is recorded as errored, with what was seen), the process group is
killed, and the next game starts a fresh one. A failed handshake is not retried: every later
request fails at once with it. Nor is an implementation that fails every game: after
``restart_limit`` processes in a row faulted before answering an action, the next fresh process
is asked for one plain game and one move in it (``probe_requests``), and if that faults too, no process is started
again (every later request fails at once, saying so), so that a run against an implementation that
hangs on every request takes a few timeouts, not one per scenario. The same rule holds per kind of
request (conformance.adapters.kinds): a kind that faults ``restart_limit`` times in a row, and on a
plain game too, is not sent any more. The pipes themselves are bounded by conformance.adapters.pipes.

A well-formed reply is read in one pass by conformance.adapters.quick (msgspec); any other line is
read again by the strict reader (lines.py, replies.py), which names the fault. To an implementation
declaring ``batch`` a scenario's announced calls go as one ``batch`` request (spec/protocol.md), its
reply read by conformance.adapters.batch.

Requests announced ahead (``prefetch``) are owed replies in order. A fault is named by the call whose
reply it spoils: a write ahead that the child refuses leaves the replies owed for earlier requests to
their calls (a process is killed only once a call needs what it can no longer give).
"""

from __future__ import annotations

import collections
import contextlib
import shlex
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from conformance.adapter import (
    BATCH,
    GIVEN_UP,
    RESTART_LIMIT,
    STATE_ON_DEMAND,
    AdapterError,
    Call,
    Info,
    Reply,
    RuleError,
    Skip,
)
from conformance.adapters import quick
from conformance.adapters.batch import Asked, Batch, BatchReplies, batch_request
from conformance.adapters.handshake import PROTOCOL_VERSION, info_from_handshake
from conformance.adapters.kinds import WAYS, Ledger, kind_of, probe_place, probe_requests, ways
from conformance.adapters.lines import parse_line, protocol_validator, schema_problem
from conformance.adapters.pipes import MAX_LINE, Child, LineTooLong
from conformance.adapters.replies import (
    Errored,
    act_reply,
    check_seq,
    clip_context,
    legal_moves,
    message_text,
    result_of,
    shown,
    state_of,
)

__all__ = [
    "PROTOCOL_VERSION",
    "RESTART_LIMIT",
    "StdioAdapter",
    "clip_context",
    "parse_line",
    "protocol_validator",
    "schema_problem",
]
T = TypeVar("T")


class StdioAdapter(BatchReplies):
    """The adapter protocol spoken to a subprocess."""

    def __init__(
        self,
        command: str,
        timeout: float = 10.0,
        validate: bool = False,
        max_line: int = MAX_LINE,
        restart_limit: int = RESTART_LIMIT,
    ) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the command line is empty")
        self.timeout = timeout
        self.validate = validate
        self.max_line = max_line
        self.seq = 0
        self.process: Child | None = None
        self._info: Info | None = None
        self._broken: AdapterError | None = None
        self.restarts = 0
        self.restart_limit = restart_limit  # 0: always start again
        self._dead_starts = 0  # processes in a row that faulted before answering an action
        self._answered = False  # the current process has answered a request past its game's start (an errored
        # reply counts): an implementation that loads games but hangs on every action is no better than a dead one
        self._queue: collections.deque[_Sent] = collections.deque()  # announced requests sent, replies unread
        self._in_flight = False  # a request sent and its reply not read: an interrupt came, or a fault
        self._held: str | None = None  # a write of requests ahead failed: the fault the next new request meets
        self._lean = False  # state on demand, once the handshake declared it
        self._batching = False  # batch requests, once the handshake declared them
        self.calls = 0  # calls written (each request of a batch counts)
        self._encode = quick.encoder()
        self._bodies: dict[Key, bytes] = {}  # a call's request line after its seq
        self._inners: dict[Key, bytes] = {}  # a call's request inside a batch
        self._ledger = Ledger(restart_limit)  # faults in a row per kind of call, and the kinds lost
        self.faults = 0  # faults met (each ended a process)
        self.silences = 0  # faults where the replies stopped coming (a crash, a hang): ``alone`` places them
        self._placing = False  # inside ``alone``
        self._dead_alone = False  # the last play ``alone`` faulted on its first request
        self._answered_alone = False  # a request made ``alone`` was answered

    def info(self) -> Info:
        """The handshake's answer (starting the process if needed)."""
        self._ensure()
        assert self._info is not None
        return self._info

    @property
    def given_up(self) -> str:
        """The fault the implementation was given up for ("" while it is still started: see the module)."""
        broken = self._broken
        return broken.message if broken is not None and broken.message.startswith(GIVEN_UP) else ""

    @property
    def ledger(self) -> Ledger:
        """The faults in a row per kind of request, and the kinds no longer sent (conformance.adapters.kinds)."""
        return self._ledger

    @property
    def placing(self) -> bool:
        """Whether a fault is worth placing (``alone``): not while processes in a row fault before answering an
        action and the last play alone faulted on its first request (an implementation failing every game)."""
        return not (self._dead_starts and not self._answered and self._dead_alone)

    @property
    def pending(self) -> bool:
        """Whether requests announced before are still to be called (their replies, or faults, held)."""
        return bool(self._queue)

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        """Calls made inside go one request at a time (nothing announced is kept), to place a fault met
        while requests went together: a buffering implementation that crashes loses the replies it had not
        written, so the fault is met by an earlier call, or an earlier scenario. They count for the give-up
        and lost-kind rules as any call does (so a fault every game meets costs no more processes or
        timeouts than before: the rules trip after as many faults)."""
        self._discard()
        self._placing, self._answered_alone, faults = True, False, self.faults
        try:
            yield
        finally:
            self._placing = False
            self._dead_alone = self.faults > faults and not self._answered_alone

    @property
    def on_demand(self) -> bool:
        """Whether the implementation declared ``state-on-demand`` (replies hold only the state asked for);
        never under ``validate``, where every state is checked whole against the schema."""
        return not self.validate and self._info is not None and STATE_ON_DEMAND in self._info.capabilities

    def _ensure(self) -> Child:
        """The running process, started (and shaken hands with) when needed.

        A failed handshake is remembered: every later request fails at once with the same fault.
        """
        if self._broken is not None:
            raise AdapterError(self._broken.message, self._broken.context)
        if self._held is not None and self.process is not None:
            self._meet_held(self.process, self._held)
        if self.process is not None and self.process.proc.poll() is None:
            return self.process
        process = self._start()
        if self.restart_limit and self._dead_starts >= self.restart_limit:
            process = self._probe(process)
        for kind in self._ledger.due():
            process = self._probe_kind(process, kind)
        return process

    def _start(self) -> Child:
        """A fresh process, shaken hands with (the last one killed); a failed start or handshake is remembered."""
        if self.process is not None:
            self.process.kill()
            self.restarts += 1
        try:
            self.process = Child(self.argv, self.max_line)
        except (OSError, ValueError) as err:
            self.process = None
            self._broken = AdapterError(f"cannot start {shlex.join(self.argv)}: {err}")
            raise self._broken from None
        try:
            self._handshake(self.process)
        except AdapterError as err:
            self._broken = AdapterError(f"handshake failed: {err.message}", err.context)
            raise self._broken from None
        self._answered = False
        return self.process

    def _probe(self, process: Child) -> Child:
        """After ``restart_limit`` processes in a row faulted before answering an action: one plain game and
        one move in it asked of the fresh one (the process that is left: a fresh one when it faulted). Answers
        (errored ones too) say the faults were the games' own, and play goes on. A fault, and the plain game
        is asked again given the other way (by position text after a game code): if that answers, the first
        way is lost (conformance.adapters.kinds); else the process is not started again (every later
        request fails at once)."""
        faulted, info = self._dead_starts, self._info
        assert info is not None
        tried: list[tuple[str, AdapterError]] = []
        for n, way in enumerate(ways(info, self._ledger)):
            process = self._start() if n else process  # the first way's fault killed the process
            start, *rest = probe_requests(info, self.seq, self._lean, way=way)
            try:
                self._ask(process, [start])
            except AdapterError as err:  # the game given this way: the other way may do
                tried.append((way, err))
                continue
            try:
                self._ask(process, rest)
            except AdapterError as err:  # the game was given: no way does better
                tried.append((way, err))
                break
            for lost, fault in tried:  # the ways before that faulted where this one answered
                self._ledger.lose(lost, fault, probe_place(info), faulted)
            self._dead_starts = 0
            return process
        last = tried[-1][1] if tried else AdapterError("no way left to give it a game")
        self._broken = AdapterError(
            f"{GIVEN_UP} after {faulted + 1} fresh processes in a row faulted before answering an action (the "
            f"last on a plain game): {last.message}",
            last.context,
        )
        raise self._broken from None

    def _probe_kind(self, process: Child, kind: str) -> Child:
        """After ``restart_limit`` calls of ``kind`` in a row faulted: a plain game and a request of that kind
        asked of the fresh process (conformance.adapters.kinds; for a way of giving a game, the plain game
        given that way). An answer clears the kind; a fault on the request loses it (the process that is
        left: a fresh one). A fault on the plain game (given the usual way) is the call's."""
        assert self._info is not None
        requests = probe_requests(self._info, self.seq, self._lean, kind)
        setup = [] if kind in WAYS else requests[:1]
        self._ask(process, setup)
        dead = self._dead_starts
        try:
            self._ask(process, requests[len(setup) :])
        except AdapterError as err:
            self._ledger.lose(kind, err, probe_place(self._info))
            self._dead_starts = dead  # the kind's fault, not a dead start
            return self._start()
        self._ledger.answered(kind)
        return process

    def _ask(self, process: Child, requests: list[tuple[dict[str, Any], str]]) -> None:
        """A probe's requests, each sent and its reply read in turn (a refusal, an errored or a skipped reply
        is an answer; a fault kills the process, AdapterError)."""
        deadline = time.monotonic() + self.timeout
        for request, schema in requests:
            self.seq = request["seq"]
            self._send(process, self._encode(request), deadline)
            line, reply = self._read(process, schema, deadline)
            with contextlib.suppress(Errored, RuleError, Skip):  # refused or skipped: answered all the same
                self._answer(process, (line, reply), self.seq, loading=schema == "new-game-reply")

    def _handshake(self, process: Child) -> None:
        deadline = time.monotonic() + self.timeout
        self._send(process, self._encode({"cmd": "start", "version": PROTOCOL_VERSION}), deadline)
        line, reply = self._read(process, "start-reply", deadline)
        try:
            self._info = info_from_handshake(reply)
        except AdapterError as err:
            self._fail(process, err.message, line)
        self._lean = self.on_demand
        self._batching = not self.validate and self._info is not None and BATCH in self._info.capabilities

    def _meet_held(self, process: Child, what: str) -> NoReturn:
        """Name the fault a write of requests ahead met, now that a call needs a reply they did not bring."""
        process.settle(min(1.0, self.timeout))  # its own exit code and last words, if it is going
        self._fail(process, what, silent=True)

    def _fail(self, process: Child, what: str, seen: str | bytes = "", silent: bool = False) -> NoReturn:
        """End the process for a fault (AdapterError); ``silent``: its replies stopped coming (a crash, a hang,
        a closed pipe), so the replies it had not written yet are lost with it."""
        self.faults += 1
        self.silences += silent
        self._dead_starts = 0 if self._answered else self._dead_starts + 1
        self._queue.clear()
        self._held = None
        process.kill()
        tail = shown(process.stderr.text(), one_line=False)
        context = (f"seen on stdout: {seen[:300]!r}\n" if seen else "") + (f"stderr tail:\n{tail}" if tail else "")
        code = process.proc.returncode
        raise AdapterError(f"implementation {shlex.join(self.argv)}: {what} (exit code {code})", context.rstrip())

    def _send(self, process: Child, data: bytes, deadline: float) -> None:
        """Write ``data`` now; a child that does not take it is a fault (AdapterError, the process killed)."""
        try:
            self._send_bytes(process, data, deadline)
        except _Unwritable as err:
            self._meet_held(process, str(err))

    def _send_bytes(self, process: Child, data: bytes, deadline: float) -> None:
        """Write ``data`` (the one place requests are written); _Unwritable says why the child did not take it."""
        try:
            process.send(data, deadline)
        except TimeoutError:
            raise _Unwritable(f"did not read its input within {self.timeout:g}s (hang)") from None
        except OSError:
            raise _Unwritable("stopped reading its input (crash)") from None

    def _live(self) -> Child:
        """The process; one with replies still due is kept even if it has exited since (they are in the pipe)."""
        if self._owes() and self.process is not None:
            return self.process
        return self._ensure()

    def _owes(self) -> bool:
        """Whether a reply to an announced request is still unread (the read ones come first in the queue)."""
        return bool(self._queue) and not self._queue[-1].resolved

    def _receive(self, process: Child, deadline: float) -> bytes:
        """The next reply line, unparsed; a hang, an overlong line or an exit kills the process (AdapterError)."""
        try:
            line = process.receive(deadline)
        except TimeoutError:
            self._fail(process, f"no reply within {self.timeout:g}s (hang)", bytes(process.pending[:300]), silent=True)
        except LineTooLong as err:
            self._fail(process, f"wrote {err} (raise the limit with --max-line)", bytes(process.pending[:300]))
        if line is None:
            process.kill()
            self._fail(process, "exited (crash)" if process.proc.returncode else "closed its output", silent=True)
        return line

    def _parse(self, process: Child, line: bytes, schema: str) -> dict[str, Any]:
        """A reply line's object, parsed strictly (checked in full with ``validate``); a fault kills the process."""
        reply, fault = parse_line(line)
        if fault:
            self._fail(process, fault, line)
        assert reply is not None
        problem = schema_problem(schema, reply) if self.validate else None
        if problem:
            self._fail(process, f"reply breaks the protocol schema: {problem}", line)
        return reply

    def _read(self, process: Child, schema: str, deadline: float) -> tuple[bytes, dict[str, Any]]:
        """The next reply line and its object (parsed strictly; checked in full with ``validate``)."""
        line = self._receive(process, deadline)
        return line, self._parse(process, line, schema)

    def _call(
        self,
        key: Key,
        schema: str,
        fast: Callable[[Any, int | None, Asked], T | None],
        strict: Callable[[dict[str, Any], Asked], T],
        asked: Asked = None,
        loading: bool = False,
    ) -> T:
        """The answer to the call ``key`` (``_reply``), its kind's faults in a row counted (a lost kind fails
        at once: conformance.adapters.kinds)."""
        ledger, queue = self._ledger, self._queue
        if ledger.lost:
            ledger.check(kind_of(key))
        head = queue[0] if queue else None
        try:
            answer = self._reply(key, schema, fast, strict, asked, loading)
        except (Errored, RuleError, Skip):
            self._answered_alone |= self._placing
            if ledger.faults:
                ledger.answered(kind_of(key))
            raise
        except AdapterError:
            if self._broken is None:
                ledger.faulted(_suspects(key, head))
            raise
        self._answered_alone |= self._placing
        if ledger.faults:
            ledger.answered(kind_of(key))
        return answer

    def _reply(
        self,
        key: Key,
        schema: str,
        fast: Callable[[Any, int | None, Asked], T | None],
        strict: Callable[[dict[str, Any], Asked], T],
        asked: Asked,
        loading: bool,
    ) -> T:
        """The answer to the call ``key``: sent now unless announced, its reply read by the quick reader when
        that accepts it, else strictly (the strict reader names a fault: the process is killed)."""
        queue, acting = self._queue, key[0] != "new_game"  # an answer past a game's start: the process works
        if queue and (sent := queue[0]).key == key and sent.fault is None and self.process is not None:
            answers = sent.batch.answers if sent.batch is not None else None
            if answers is not None:  # the next call announced, its batch's line read into answers already
                queue.popleft()
                answer: T = answers[sent.index]
                self._answered = self._answered or acting
                return answer
        self._in_flight = True  # an interrupt leaves it so: close() then kills at once
        try:
            process, sent = self._exchange(key, schema)
            if sent.fault is not None:  # met when its reply was read ahead: this call's fault
                raise AdapterError(sent.fault.message, sent.fault.context)
            if sent.batch is not None:
                answer = self._from_batch(process, sent.batch, sent.index, schema, fast, strict, asked, loading)
                self._in_flight, self._answered = False, self._answered or acting
                return answer
            if sent.got is None and not self.validate:
                line = self._receive(process, sent.deadline or time.monotonic() + self.timeout)
                quickly = fast(line, sent.seq, asked)
                if quickly is not None:
                    self._in_flight, self._answered = False, self._answered or acting
                    return quickly
                sent.got = (line, self._parse(process, line, schema))
            got = sent.got or self._read(process, schema, sent.deadline or time.monotonic() + self.timeout)
            result = self._answer(process, got, sent.seq, loading)
            answer = self._read_field(lambda: strict(result, asked))
        except Exception as err:  # a fault or an errored reply: answered
            self._in_flight = False
            self._answered = self._answered or (acting and isinstance(err, Errored))
            raise
        self._in_flight, self._answered = False, self._answered or acting
        return answer

    def _exchange(self, key: Key, schema: str) -> tuple[Child, _Sent]:
        """The process and the request ``key`` as sent (announced before, or written now), its reply unread
        unless read ahead."""
        queue = self._queue
        if queue and queue[0].key == key and self.process is not None:  # the next one announced: in the pipe,
            return self.process, queue.popleft()  # or read (a crash is met when its reply is read)
        process = self._live()
        if self._queue and (self._queue[0].key == key or self._skip_to(key)):  # already sent
            return process, self._queue.popleft()
        if self._queue and key[0] == "new_game":  # a game not announced (a failure played again): the calls
            self._settle(process)  # announced after it wait, their replies read; the calls left of the game
            self._drop_leftovers()  # played before it are no one's
        elif self._owes():
            if key[0] == "message":  # asks nothing of the game played: the announced calls may wait
                self._settle(process)
            else:
                self._discard()
        process = self._ensure()  # a fault a write ahead met is named here (the replies due are read)
        if self._ledger.lost:  # the fresh process's probe may have lost this call's kind just now
            self._ledger.check(kind_of(key))
        self.seq += 1
        self.calls += 1
        deadline = time.monotonic() + self.timeout
        self._send(process, self._line(key, self.seq), deadline)
        return process, _Sent(key, self.seq, deadline=deadline)

    def _answer(self, process: Child, got: tuple[bytes, dict[str, Any]], seq: int, loading: bool) -> dict[str, Any]:
        """The ``result`` of the reply to request ``seq``; a malformed reply kills the process (AdapterError)."""
        line, reply = got
        try:
            check_seq(reply, seq)
        except AdapterError as err:
            self._fail(process, err.message, line)
        try:
            return result_of(reply, loading)
        except Errored:
            raise  # a well-formed errored reply: the process goes on
        except AdapterError as err:
            self._fail(process, f"reply breaks the protocol schema: {err.message}", line)

    def prefetch(self, calls: Sequence[Call], ahead: bool = False) -> None:
        """Pipelining: send the requests of ``calls`` now, in one write; the replies are read when the
        same calls are made (``start``, ``act``, ``legal_moves`` with the same arguments, in order).
        ``ahead``: after the calls announced before (the next scenario's, sent while this one plays).

        A call that differs from the next announced one first reads and drops the replies still due
        (up to an announced ``new_game`` equal to it; a ``message`` request lets them wait), so the
        stream always stays in step.

        A child that does not take the write (it crashed, closed its input, or stopped reading) is not
        killed here: the replies it owes for requests written before are still in the pipe, and the
        calls they belong to read them (a crash among them is named by the call it hit). The fault is
        held, nothing more is written, and the first call needing a request of its own meets it.
        """
        self.prefetch_all([calls], ahead)

    def prefetch_all(self, scripts: Sequence[Sequence[Call]], ahead: bool = False) -> None:
        """``prefetch`` for the calls of several scenarios, in order, in one write (a request or a batch
        each: a reply line each, so a fault is still met by the scenario it hits); nothing is sent ahead
        ``alone``."""
        if self._placing:
            return
        if not ahead:
            self._discard()
        if self._held is not None:
            return  # nothing more goes to a child that stopped reading: the calls meet its fault
        process = self._live()
        entries: list[_Sent] = []
        chunks = []
        for calls in scripts:
            keys = [self._key_for(name, args) for name, args in calls]
            sent, data = self._requests(self._ledger.before_lost(keys) if self._ledger.lost else keys)
            entries += sent
            chunks.append(data)
        try:
            self._send_bytes(process, b"".join(chunks), time.monotonic() + self.timeout)
        except _Unwritable as err:  # the replies already due are read first; the fault waits for a call
            self._held = str(err)  # that needs more (AdapterError then): killing now would lose them
            return
        self.calls += len(entries)
        self._queue.extend(entries)

    def _requests(self, keys: list[Key]) -> tuple[list[_Sent], bytes]:
        """The calls ``keys`` as sent: their queue entries and the bytes to write (one batch request when the
        implementation declared ``batch``, else a line each)."""
        if self._batching and len(keys) > 1:  # one request holding them all
            self.seq += 1
            seq, inners, called = self.seq, self._inners, []
            batch = Batch(seq, ())
            entries, bodies = [], []
            for n, key in enumerate(keys):  # one pass: it runs for every step of the corpus
                called.append(_called(key))
                bodies.append(inners.get(key) or self._inner(key))
                entries.append(_Sent(key, seq, None, None, batch, n))  # fields by place (0.9 us, 1.9 by keyword)
            batch.calls, batch.keys = tuple(called), keys
            return entries, batch_request(seq, bodies)
        entries, lines = [], []
        for key in keys:
            self.seq += 1
            entries.append(_Sent(key, self.seq))
            lines.append(self._line(key, self.seq))
        return entries, b"".join(lines)

    def _key_for(self, name: str, args: Mapping[str, Any]) -> Key:
        """What identifies an announced call: its command and arguments (the state fields only when asked)."""
        if name == "start":
            asked = self._asked(args.get("fields"))
            return ("new_game", args["profile"], args.get("position"), args.get("code"), asked)
        if name == "act":
            return ("act", args["action"], self._asked(args.get("fields")))
        if name == "legal_moves":
            return _LEGAL_MOVES
        raise ValueError(f"no such call to announce: {name!r}")

    def _asked(self, fields: frozenset[str] | None) -> frozenset[str] | None:
        """The state fields to ask for: ``fields`` under state on demand, else None (the whole state)."""
        return fields if self._lean else None

    def _line(self, key: Key, seq: int) -> bytes:
        """The request line of the call ``key`` with ``seq``: ``seq`` first, then the call's fields, encoded
        once per call (a corpus repeats its actions and starts)."""
        return b'{"seq":%d%s' % (seq, self._body(key))

    def _body(self, key: Key) -> bytes:
        """The request line of the call ``key`` after its ``seq`` (``,"cmd":...}`` and the newline)."""
        body = self._bodies.get(key)
        if body is None:
            line = self._encode(_message(key, 0))
            assert line.startswith(_NO_SEQ), line  # both encoders write compact JSON in the message's order
            body = line[len(_NO_SEQ) :]
            if len(self._bodies) < BODIES:
                self._bodies[key] = body
        return body

    def _inner(self, key: Key) -> bytes:
        """The call ``key`` as a request inside a batch (no seq, no newline), encoded once per call."""
        inner = self._inners.get(key)
        if inner is None:
            inner = b"{" + self._body(key)[1:-1]
            if len(self._inners) < BODIES:
                self._inners[key] = inner
        return inner

    def _skip_to(self, key: Key) -> bool:
        """For a ``new_game`` announced further on (the calls before it were never made: a scenario
        ended early), read and drop the replies before it; False when there is none or a fault."""
        if key[0] != "new_game" or self.process is None:
            return False
        at = next((n for n, sent in enumerate(self._queue) if sent.key == key), None)
        if at is None:
            return False
        try:
            for _ in range(at):
                self._resolve(self.process, self._queue.popleft())
        except AdapterError:
            return False  # the process is gone, the queue with it
        return True

    def _resolve(self, process: Child, sent: _Sent) -> None:
        """Read the reply of ``sent`` into it unless read already (a fault kills the process, AdapterError)."""
        if sent.resolved:
            return
        if sent.batch is not None:
            self._read_batch(process, sent.batch)
        else:
            sent.got = self._read(process, _REPLY_SCHEMA[sent.key[0]], time.monotonic() + self.timeout)

    def _read_ahead(self, process: Child) -> None:
        """Read every reply still due into its queue entry (a fault kills the process, AdapterError)."""
        for sent in self._queue:
            self._resolve(process, sent)

    def _settle(self, process: Child) -> None:
        """Read every reply still due into its entry, keeping the outcome: a fault stays with the call whose
        reply it spoils (raised when that call is made), the entries after it are dropped (never answered)."""
        entries = list(self._queue)
        for n, sent in enumerate(entries):
            try:
                self._resolve(process, sent)
            except AdapterError as err:
                last = n
                if sent.batch is not None:
                    last = n + sent.batch.size - 1 - sent.index
                for spoilt in entries[n : last + 1]:
                    spoilt.fault = err
                self._queue = collections.deque(entries[: last + 1])
                return

    def _drop_leftovers(self) -> None:
        """Drop the entries before the next announced ``new_game`` (calls of a game no longer played)."""
        while self._queue and self._queue[0].key[0] != "new_game":
            self._queue.popleft()

    def _discard(self) -> None:
        """Read and drop the replies still due; a fault there only ends the process (the next request
        starts a new one): those requests are no longer anyone's."""
        if not self._queue or self.process is None:
            self._queue.clear()
            return
        with contextlib.suppress(AdapterError):
            self._read_ahead(self.process)
        self._queue.clear()

    def start(
        self,
        profile: str,
        *,
        position: str | None = None,
        code: str | None = None,
        fields: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """Start a game (``fields``: only these state fields are needed, under state on demand)."""
        if self._info is None:  # the handshake says whether fields may be asked for
            self._live()
        key = self._key_for("start", {"profile": profile, "position": position, "code": code, "fields": fields})
        return self._call(key, "new-game-reply", quick.start_state, state_of, key[4], loading=True)

    def act(self, action: str, fields: frozenset[str] | None = None) -> Reply:
        """Apply an action (``fields``: only these state fields are needed, under state on demand)."""
        if self._info is None:
            self._live()
        asked = fields if self._lean else None
        return self._call(("act", action, asked), "act-reply", quick.act_reply, act_reply, asked)

    def legal_moves(self) -> list[str]:
        """The legal card moves."""
        return self._call(_LEGAL_MOVES, "legal-moves-reply", quick.legal_moves, _legal_moves)

    def message(self, reason: str, lang: str) -> str:
        """The message text for a reason code."""
        return self._call(("message", reason, lang), "message-reply", quick.message_text, _message_text)

    def _read_field(self, read: Callable[[], T]) -> T:
        """A result's fields read strictly; a field of the wrong type ends the process (the stream is suspect)."""
        try:
            return read()
        except AdapterError as err:
            process = self.process
            if process is None:
                raise
            self._fail(process, f"reply breaks the protocol schema: {err.message}")

    def close(self) -> None:
        """Ask the process to stop, give it a moment (at most 2 s) to exit, then kill its whole group (at
        once when a request is still unanswered: an interrupt is answered without waiting; an interrupt
        during the wait still kills it)."""
        interrupted, self._in_flight = self._in_flight, False
        self._queue.clear()
        process, self.process = self.process, None
        if process is None:
            return
        grace = min(2.0, self.timeout)
        try:
            if process.proc.poll() is None and not interrupted:
                with contextlib.suppress(OSError, TimeoutError):
                    process.send(b'{"cmd": "stop"}\n', time.monotonic() + grace)
                process.settle(grace)
        finally:
            process.kill()


Key = tuple[Any, ...]  # a call: its command and arguments, ("act", "p3-p11", frozenset({"status"}))
_LEGAL_MOVES: Key = ("legal_moves",)
# the schema of the reply to an announced call read ahead, by its command (validate checks it in full)
_REPLY_SCHEMA = {"new_game": "new-game-reply", "act": "act-reply", "legal_moves": "legal-moves-reply"}


def _called(key: Key) -> quick.Called:
    """An announced call's command and the state fields it asks for (what its answer is read as)."""
    return key[0], None if key is _LEGAL_MOVES else key[-1]


def _suspects(key: Key, head: _Sent | None) -> set[str]:
    """The kinds a fault met by the call ``key`` counts against: its own, and when it was sent in a batch
    (``head``: the entry it was announced by), those of the calls after it there (one reply line held them)."""
    if head is not None and head.key == key and head.batch is not None:
        return {kind_of(k) for k in head.batch.keys[head.index :]}
    return {kind_of(key)}


def _legal_moves(result: dict[str, Any], asked: Asked) -> list[str]:
    return legal_moves(result)


def _message_text(result: dict[str, Any], asked: Asked) -> str:
    return message_text(result)


BODIES = 4096  # request lines kept encoded
_NO_SEQ = b'{"seq":0'


def _message(key: Key, seq: int) -> dict[str, Any]:
    """The request object of the call ``key``, ``seq`` first (a state field only when fields are asked for)."""
    cmd = key[0]
    if cmd == "act":
        message: dict[str, Any] = {"seq": seq, "cmd": "act", "action": key[1]}
    elif cmd == "new_game":
        _, profile, position, code, _ = key
        given = {"code": code} if code else {"position": position}
        message = {"seq": seq, "cmd": "new_game", "profile": profile, **given}
    elif cmd == "message":
        return {"seq": seq, "cmd": "message", "reason": key[1], "lang": key[2]}
    else:
        return {"seq": seq, "cmd": cmd}
    if key[-1] is not None:
        message["state"] = sorted(key[-1])
    return message


@dataclass(slots=True)
class _Sent:
    """A request written: its call, seq, its reply once read, and its deadline when sent on its own; a call
    sent in a batch has the batch and its place there instead."""

    key: Key
    seq: int
    got: tuple[bytes, dict[str, Any]] | None = None
    deadline: float | None = None
    batch: Batch | None = None
    index: int = 0
    fault: AdapterError | None = None  # met reading its reply ahead (the process is gone)

    @property
    def resolved(self) -> bool:
        """Whether its reply has been read (or the fault met instead)."""
        if self.batch is not None:
            return self.batch.read or self.fault is not None
        return self.got is not None or self.fault is not None


class _Unwritable(Exception):
    """The child did not take a request (its input closed, or not read in time): the fault in words."""
