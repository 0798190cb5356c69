"""A kind of request an implementation keeps faulting on is not sent any more, in every door; one that
faults on a kind only in some games keeps it (conformance.adapters.kinds)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import HERE, PYTHON, Pair, cli, key, passing_pairs, run_pairs

from conformance.adapter import NOT_SENT, RESTART_LIMIT, AdapterError
from conformance.adapters.kinds import Ledger, kind_of, probe_requests, request_kind
from conformance.adapters.stdio import StdioAdapter
from conformance.wording import spoiled, spoiled_blocks

FAKE = HERE / "fakes" / "kind_fault_engine.py"
LENIENT = 30.0  # seconds for a request that should succeed (a loaded machine starts Python slowly)


def faulty(
    mode: str, kind: str, faults: Path, *flags: str, timeout: float = LENIENT, limit: int = RESTART_LIMIT
) -> StdioAdapter:
    """The adapter of kind_fault_engine.py faulting on ``kind``, each fault logged to ``faults``."""
    command = f"{PYTHON} {FAKE} {mode} {kind} {faults} {' '.join(flags)}"
    return StdioAdapter(command, timeout=timeout, restart_limit=limit)


def faulted(faults: Path) -> int:
    """How many requests the fake faulted on."""
    return len(faults.read_text().splitlines()) if faults.exists() else 0


def asking_legal_moves(n: int) -> list[Pair]:
    """``n`` passing pairs that ask for the legal moves."""
    return [p for p in passing_pairs() if any("legal_moves" in (s.expected(p[1]).state or {}) for s in p[0].steps)][:n]


def reshuffling(n: int) -> list[Pair]:
    """``n`` passing pairs with a reshuffle."""
    return [p for p in passing_pairs() if any(s.action == "reshuffle" for s in p[0].steps)][:n]


def by_code(n: int) -> list[Pair]:
    """``n`` passing pairs that start from a game code."""
    return [p for p in passing_pairs() if p[0].code][:n]


def by_position(n: int) -> list[Pair]:
    """``n`` passing pairs that start from a position text."""
    return [p for p in passing_pairs() if not p[0].code][:n]


def asking_messages(n: int) -> list[Pair]:
    """``n`` passing pairs that ask for a reason's message."""
    return [p for p in passing_pairs() if any(s.expected(p[1]).messages for s in p[0].steps)][:n]


def quiet(n: int) -> list[Pair]:
    """``n`` passing pairs that neither reshuffle nor ask for the legal moves."""
    asks = {key(p) for p in asking_legal_moves(10**6) + reshuffling(10**6)}
    return [p for p in passing_pairs() if key(p) not in asks][:n]


def test_kinds_of_calls() -> None:
    assert kind_of(("new_game", "app", None, "CR1-N-BAAAAAA", None)) == "code"
    assert kind_of(("new_game", "app", "p1: A♠ ...", None, frozenset())) == "position"
    assert [kind_of(("act", a, None)) for a in ("p3-p11", "p7-hold", "reshuffle", "undo", "tap p5", "drop A♠")] == [
        "move", "move", "reshuffle", "undo", "tap", "drop"
    ]  # fmt: skip
    assert kind_of(("legal_moves",)) == "legal_moves" and kind_of(("message", "wrong-suit", "en")) == "message"


def test_the_ledger_counts_faults_in_a_row_and_an_answer_clears_them() -> None:
    ledger = Ledger(3)
    for _ in range(2):
        ledger.faulted({"reshuffle", "move"})
    ledger.answered("move")
    ledger.faulted({"reshuffle"})
    assert ledger.due() == ["reshuffle"] and ledger.faults == {"reshuffle": 3}
    ledger.lose("reshuffle", AdapterError("no reply within 2s (hang)"), "app CR1-N-BAAAAAA")
    assert ledger.due() == [] and NOT_SENT in ledger.fault("reshuffle").message
    keys = [("new_game", "app", None, "x", None), ("act", "p1-p2", None), ("act", "reshuffle", None), ("legal_moves",)]
    assert ledger.before_lost(keys) == keys[:2]
    with pytest.raises(AdapterError, match="reshuffle actions not sent any more: 3 in a row faulted"):
        ledger.check("reshuffle")
    ledger.check("move")  # not lost: nothing raised
    off = Ledger(0)
    off.faulted({"move"})
    assert off.faults == {} and off.due() == []


KINDS = ["legal_moves", "message", "reshuffle", "undo", "move", "tap", "drop", "code", "position"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_probed_in_the_plain_game(kind: str) -> None:
    """The probe of a kind ends with a request of that kind, which the reference answers in the plain game."""
    from conformance.adapters.handshake import info_from_handshake
    from crescent_ref.serve import Server

    server = Server()
    info = info_from_handshake(server.handle({"cmd": "start", "version": 3}) or {})
    requests = [r for r, _ in probe_requests(info, 10, lean=True, kind=kind)]
    first = requests[0]
    assert (first["cmd"], first["profile"], first["seq"], first["state"]) == ("new_game", "app", 11, [])
    assert ("position" in first) == (kind == "position")
    assert [r["seq"] for r in requests] == [*range(11, 11 + len(requests))]
    assert request_kind(requests[-1]) == kind, requests
    replies = [server.handle(r) or {} for r in requests]
    assert all("result" in r for r in replies), replies
    if kind in ("move", "undo", "reshuffle", "tap"):
        assert replies[-1]["result"]["accepted"] is True, (requests, replies)


@pytest.mark.parametrize("batch", [False, True], ids=["line-each", "batch"])
def test_a_hang_on_every_legal_moves_request_costs_a_few_timeouts(batch: bool, tmp_path: Path) -> None:
    chosen = asking_legal_moves(8)
    flags = ("batch",) if batch else ()
    results = run_pairs(faulty("hang", "legal_moves", tmp_path / "faults", *flags, timeout=2.0), [*chosen, *quiet(3)])
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1, "three games, then the plain game's, then none"
    details = [results[key(p)].detail for p in chosen]
    assert all("(hang)" in d for d in details[:RESTART_LIMIT]), details
    assert all(d.startswith(f"legal_moves requests {NOT_SENT}") for d in details[RESTART_LIMIT:]), details
    assert [results[key(p)].verdict for p in quiet(3)] == ["passed"] * 3, "the rest is still judged"


def test_a_crash_on_every_reshuffle_is_not_sent_again_after_the_probe(tmp_path: Path) -> None:
    chosen = reshuffling(7)
    results = run_pairs(faulty("crash", "reshuffle", tmp_path / "faults"), chosen)
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1
    assert all(r.verdict == "errored" for r in results.values())
    # three faults in two games: the first game's crash is placed by playing it again alone, which counts
    assert sum(spoiled(r.verdict, r.detail) for r in results.values()) == len(chosen) - (RESTART_LIMIT - 1)
    first = results[key(chosen[0])]
    assert first.faulted_at is not None and first.faulted_at.action == "reshuffle", first.detail


def test_a_hang_on_every_message_request_costs_a_few_timeouts(tmp_path: Path) -> None:
    """``message`` is never announced ahead: it is sent alone, after the probe that lost it."""
    chosen = asking_messages(7)
    results = run_pairs(faulty("hang", "message", tmp_path / "faults", "batch", timeout=2.0), chosen)
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1
    assert results[key(chosen[-1])].detail.startswith(f"message requests {NOT_SENT}"), results[key(chosen[-1])].detail


def test_a_crash_on_every_game_code_loses_the_codes_and_keeps_the_positions(tmp_path: Path) -> None:
    """The rule for processes asks the plain game by code, then by position text: the codes are lost, not
    the implementation (it was given up before)."""
    chosen = [*by_code(RESTART_LIMIT + 3), *by_position(3)]
    results = run_pairs(faulty("crash", "code", tmp_path / "faults"), chosen)
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1
    details = [results[key(p)].detail for p in chosen]
    assert all(d.startswith(f"games given by game code {NOT_SENT}") for d in details[RESTART_LIMIT:-3]), details
    assert [results[key(p)].verdict for p in chosen[-3:]] == ["passed"] * 3, details


def test_a_hang_on_every_position_text_loses_the_positions_and_keeps_the_codes(tmp_path: Path) -> None:
    chosen = [*by_position(RESTART_LIMIT + 3), *by_code(3)]
    results = run_pairs(faulty("hang", "position", tmp_path / "faults", timeout=2.0), chosen)
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1
    details = [results[key(p)].detail for p in chosen]
    assert all(d.startswith(f"games given by position text {NOT_SENT}") for d in details[RESTART_LIMIT:-3]), details
    assert [results[key(p)].verdict for p in chosen[-3:]] == ["passed"] * 3, details


def test_faults_on_a_kind_in_some_games_only_keep_it(tmp_path: Path) -> None:
    """Crashes on every reshuffle but in the plain game: each probe answers, so every game is played."""
    chosen = reshuffling(2 * RESTART_LIMIT + 1)
    results = run_pairs(faulty("some", "reshuffle", tmp_path / "faults"), chosen)
    # the first game's fault is met again when it is played alone to place it; from then on every game goes
    # a request at a time and meets its fault once
    assert faulted(tmp_path / "faults") == len(chosen) + 1, "every game sent its reshuffle"
    assert not any(spoiled(r.verdict, r.detail) for r in results.values()), [r.detail for r in results.values()]


def test_a_limit_of_zero_sends_every_request(tmp_path: Path) -> None:
    chosen = reshuffling(RESTART_LIMIT + 2)
    run_pairs(faulty("crash", "reshuffle", tmp_path / "faults", limit=0), chosen)
    assert faulted(tmp_path / "faults") == len(chosen) + 1, "every game's reshuffle, the first's again alone"


def test_the_spoiled_runs_fold_into_a_block_per_cause() -> None:
    lost = f"reshuffle actions {NOT_SENT}: 3 in a row faulted, and so did one in a plain game (app X): hang"
    given = "given up after 4 fresh processes in a row faulted before answering an action: crash"
    blocks = spoiled_blocks([("a[app]", lost), ("b[app]", lost), ("c[open]", given), ("d[app]", lost)])
    assert len(blocks) == 2
    assert blocks[0].startswith("NOT SENT ANY MORE from a[app] on: 3 scenario runs errored") and lost in blocks[0]
    assert blocks[1].startswith("GIVEN UP from c[open] on: 1 scenario run not played")
    assert not spoiled("errored", "no reply within 2s (hang): not sent any more") and not spoiled("failed", lost)


DOORS: dict[str, tuple[str, ...]] = {  # the commands that send reshuffles, each with more of them than the limit
    "run": ("run", "--profile", "app"),
    "fuzz": ("fuzz", "--profile", "app", "--games", "12", "--no-shrink", "--quiet", "--out", "{tmp}/found"),
    "perft": ("perft",),
}


@pytest.mark.parametrize("door", list(DOORS))
def test_every_door_stops_sending_a_lost_kind(door: str, tmp_path: Path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in DOORS[door]]
    done = cli(*argv, "--cmd", f"{PYTHON} {FAKE} crash reshuffle {tmp_path / 'faults'} batch")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert faulted(tmp_path / "faults") == RESTART_LIMIT + 1, done.stdout[-3000:]
    assert NOT_SENT in done.stdout, done.stdout[-3000:]
    if door == "run":
        assert done.stdout.count("NOT SENT ANY MORE from ") == 1, done.stdout[-3000:]

