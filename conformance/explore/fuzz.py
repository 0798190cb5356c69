"""Differential play: the reference engine and an implementation side by side, under hypothesis.

A ``RuleBasedStateMachine`` deals a game (a game code, or a position reached by random play from one),
then plays random legal and illegal actions on both, comparing outcome, reason, state and (where the
implementation lists them) legal moves after every step. On a difference hypothesis shrinks the game;
the minimal one is written out as a scenario file in the corpus format, ready to commit once a person
adds its source and statements.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test

from conformance.adapter import Adapter, Info, Reply, RuleError
from conformance.adapters.reference import ReferenceAdapter
from conformance.judging.state import state_text
from crescent_ref.actions import HOLD, PILES, PLACES, place_text
from crescent_ref.deal import MAX_SEED, GameCode
from crescent_ref.game import Game

COMPARED = ("piles", "hidden", "foundations", "held", "reshuffles", "moves", "status", "foundation_cards")


@dataclass
class FuzzConfig:
    """The user's budget and where findings go."""

    profile: str = "app"
    examples: int = 50
    steps: int = 40
    seed: int = 0
    out: Path = Path("fuzz-findings")
    generated_positions: bool = True
    shrink: bool = True
    findings: list[Path] = field(default_factory=list)
    pending: tuple[dict[str, str], list[tuple[str, Reply]], str] | None = None


class Divergence(AssertionError):
    """The implementation answered differently from the reference."""


class NonDeterministic(AssertionError):
    """The implementation answered differently to the same game played twice."""


class Refused(AssertionError):
    """The implementation refused to load a position the reference accepts."""


def all_actions(info: Info) -> list[str]:
    """Every action text worth trying: all moves between places, reshuffle, and the optional ones."""
    moves = [f"{place_text(s)}-{place_text(d)}" for s in range(PLACES) if s != HOLD for d in range(PLACES)]
    extra = ["reshuffle"]
    extra += ["undo"] if "undo" in info.capabilities else []
    extra += [f"tap {place_text(p)}" for p in range(PLACES)] if "tap" in info.capabilities else []
    extra += [f"drop {place_text(p)}" for p in range(PLACES) if p != HOLD] if "drop" in info.capabilities else []
    return moves + extra


def generated_position(seed: int, plies: int, profile: str) -> str:
    """A position reached from a dealt code by ``plies`` pseudo-random legal actions (reproducible).

    Every other ply prefers a move towards the foundations (or the hold) when there is one, so that
    play gets far enough for foundations to meet and double-fit cards to appear.
    """
    game = Game.deal(profile, str(GameCode(seed % (MAX_SEED + 1))))
    for ply in range(plies):
        moves = game.legal_moves()
        options = [str(m) for m in moves] + (["reshuffle"] if game.position.reshuffles else [])
        if not options or game.status() in ("won", "lost"):
            break
        homeward = [str(m) for m in moves if m.src < PILES <= m.dst]
        pick = homeward if homeward and ply % 2 else options
        digest = hashlib.sha256(f"{seed}:{ply}".encode()).digest()
        game.apply(pick[int.from_bytes(digest[:4], "big") % len(pick)])
    return game.position.to_text()


def make_machine(subject: Callable[[], Adapter], config: FuzzConfig) -> type[RuleBasedStateMachine]:
    """A state machine class comparing ``subject()`` with the reference under ``config``."""
    reference, impl = ReferenceAdapter(), subject()
    info = impl.info()
    universe = all_actions(info)

    class Differential(RuleBasedStateMachine):
        """One game played on both engines."""

        def __init__(self) -> None:
            super().__init__()
            self.given: dict[str, str] = {}
            self.played: list[tuple[str, Reply]] = []
            self.started = False

        @initialize(seed=st.integers(0, MAX_SEED), plies=st.integers(0, 60), generated=st.booleans())
        def deal(self, seed: int, plies: int, generated: bool) -> None:
            if generated and config.generated_positions:
                self.given = {"position": generated_position(seed, plies, config.profile)}
            else:
                self.given = {"code": str(GameCode(seed))}
            expected = reference.start(config.profile, **self.given)
            try:
                actual = impl.start(config.profile, **self.given)
            except RuleError as err:
                raise Refused(f"implementation refused to load {self.given}: {err}") from None
            self._compare_state("given", expected, actual)
            self.started = True

        @precondition(lambda self: self.started)
        @rule(data=st.data(), legal=st.booleans())
        def act(self, data: st.DataObject, legal: bool) -> None:
            options = reference.legal_moves() if legal else []
            choices = options or universe
            action = choices[data.draw(st.integers(0, len(choices) - 1))]
            expected, actual = reference.act(action), impl.act(action)
            self.played.append((action, expected))
            self._compare_reply(action, expected, actual)
            if "legal-moves" in info.capabilities:
                want, got = sorted(reference.legal_moves()), sorted(impl.legal_moves())
                if want != got:
                    self._diverge(f"after {action}: legal moves differ: expected {want}, got {got}")

        def _compare_reply(self, action: str, expected: Reply, actual: Reply) -> None:
            if (expected.accepted, expected.reason) != (actual.accepted, actual.reason):
                self._diverge(f"{action}: expected {_verdict(expected)}, got {_verdict(actual)}")
            self._compare_state(action, expected.state, actual.state)

        def _compare_state(self, where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
            keys = COMPARED + (("undo",) if "undo" in info.capabilities else ())
            diff = [k for k in keys if expected.get(k) != actual.get(k)]
            if diff:
                self._diverge(
                    f"{where}: state differs in {', '.join(diff)}: expected {state_text(expected)}, "
                    f"got {state_text(actual)}"
                )

        def _diverge(self, message: str) -> None:
            self._check_determinism()
            config.pending = (self.given, list(self.played), message)
            raise Divergence(message)

        def _check_determinism(self) -> None:
            first = [impl.act(a) for a in _replay(impl, config.profile, self.given, self.played)]
            second = [impl.act(a) for a in _replay(impl, config.profile, self.given, self.played)]
            if [(r.accepted, r.reason, r.state) for r in first] != [(r.accepted, r.reason, r.state) for r in second]:
                raise NonDeterministic(f"the same game played twice gave different answers: {self.given}")

    return Differential


def _replay(impl: Adapter, profile: str, given: dict[str, str], played: list[tuple[str, Reply]]) -> list[str]:
    impl.start(profile, **given)
    return [a for a, _ in played]


def _verdict(reply: Reply) -> str:
    return "accepted" if reply.accepted else f"rejected ({reply.reason})"


def write_finding(
    config: FuzzConfig, info: Info, given: dict[str, str], played: list[tuple[str, Reply]], message: str
) -> Path:
    """Write the game as a scenario file (corpus format) and return its path."""
    config.out.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(json.dumps([config.profile, given, [a for a, _ in played]]).encode()).hexdigest()[:8]
    path = config.out / f"differential-{digest}.yaml"
    steps = [_step_yaml(a, r) for a, r in played]
    scenario = {
        "id": f"differential-{int(digest, 16) % 1000:03d}",
        "title": f"Found by differential play: {message[:100]}",
        "origin": {
            "kind": "differential",
            "seed": config.seed,
            "implementation": f"{info.name} {info.version}",
            "found": message.splitlines()[0][:200],
        },
        "profiles": [config.profile],
        "features": _features(given, played),
        "given": given,
        "steps": steps,
    }
    if not scenario["features"]:
        del scenario["features"]
    text = "# yaml-language-server: $schema=../schema/scenario.schema.json\n" + json_yaml(
        {"area": "differential", "scenarios": [scenario]}
    )
    path.write_text(text, encoding="utf-8")
    config.findings.append(path)
    return path


def _features(given: dict[str, str], played: list[tuple[str, Reply]]) -> list[str]:
    needed = {"game-codes"} if "code" in given else set()
    needed |= {a.split()[0] for a, _ in played if a.split()[0] in ("undo", "tap", "drop")}
    return sorted(needed)


def _step_yaml(action: str, reply: Reply) -> dict[str, Any]:
    step: dict[str, Any] = {"action": action, "outcome": "accepted" if reply.accepted else "rejected"}
    if not reply.accepted:
        step["reason"] = reply.reason
    step["state"] = {"position": state_text(reply.state), "status": reply.state["status"]}
    return step


def json_yaml(data: Any) -> str:
    """YAML via the yaml library, keeping key order and unicode."""
    import yaml

    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000))


def fuzz(subject: Callable[[], Adapter], config: FuzzConfig) -> None:
    """Run differential play; raises Divergence, NonDeterministic or Refused on a difference."""
    machine = make_machine(subject, config)
    hypothesis.seed(config.seed)(machine)
    settings = hypothesis.settings(
        max_examples=config.examples,
        stateful_step_count=config.steps,
        deadline=None,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
        phases=[p for p in hypothesis.Phase if config.shrink or p is not hypothesis.Phase.shrink],
    )
    try:
        run_state_machine_as_test(machine, settings=settings)
    except hypothesis.errors.Flaky as err:
        raise NonDeterministic(f"the implementation answered differently when a game was played twice: {err}") from None
    except Divergence as err:
        if config.pending is None:
            raise
        given, played, message = config.pending
        path = write_finding(config, machine_info(subject), given, played, message)
        raise Divergence(f"{err}\nminimal game written to {path}") from None


def machine_info(subject: Callable[[], Adapter]) -> Info:
    """The subject's handshake (a fresh adapter, closed at once)."""
    adapter = subject()
    try:
        return adapter.info()
    finally:
        adapter.close()
