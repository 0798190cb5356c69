"""The driver: seeded games from corner positions until the budget (games, seconds) is spent.

Each game starts from a generator's position (corners.py), plays the policy's actions on both
sides and stops at the first difference. A new difference is shrunk (shrink.py), checked to
replay the same way twice, diagnosed (diagnose.py) and written as a scenario (findings.py);
one already seen (same signature, or the same diagnosis key after shrinking) is folded.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.adapter import Adapter, AdapterError, Info
from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.corners import Corner, Start, corners_for, make_start
from conformance.explore.fuzz.diagnose import Diagnosis, diagnose
from conformance.explore.fuzz.duel import Chooser, Duel, fixed, new_game
from conformance.explore.fuzz.findings import Finding, scenario, write
from conformance.explore.fuzz.observe import Ignore, Observed
from conformance.explore.fuzz.policy import Policy, optional_actions
from conformance.explore.fuzz.shrink import Case, Shrinker
from crescent_ref.game import Game
from crescent_ref.progress import counter

GAME_OVER_GRACE = 3  # actions still tried once a game is won or lost


@dataclass
class FuzzConfig:
    """The budget, where findings go, and what to look past."""

    profile: str = "app"
    games: int = 300
    seconds: float | None = None
    steps: int = 40
    seed: int = 0
    out: Path | None = Path("fuzz-findings")
    shrink: bool = True
    shrink_seconds: float = 10.0
    max_findings: int = 5
    ignore: Ignore = field(default_factory=Ignore)
    corners: tuple[str, ...] = ()
    replay: tuple[Case, ...] = ()
    quiet: bool = True
    part: tuple[int, int] = (0, 1)  # (k, n): play games k, k+n, k+2n, ... of the run (xdist workers)


@dataclass
class FuzzReport:
    """What a run did and found."""

    seed: int
    profile: str
    implementation: str = ""
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    folded: int = 0
    first_difference: float | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Actions per second (both sides)."""
        return self.actions / self.seconds if self.seconds else 0.0


class Run:
    """One fuzz run against one implementation adapter."""

    def __init__(self, impl: Adapter, info: Info, config: FuzzConfig) -> None:
        self.config, self.info = config, info
        self.seen = Observed.of(info, config.ignore)
        self.reference = info.reference_profile(config.profile)
        self.duel = Duel(impl, config.profile, self.reference, self.seen)
        self.kinds = optional_actions(info.capabilities, config.ignore.actions)
        self.corners = [c for c in corners_for(self.reference, info.capabilities)
                        if not config.corners or c.name in config.corners]
        self.report = FuzzReport(config.seed, config.profile, f"{info.name} {info.version}")
        self.began = time.monotonic()
        self.signatures: set[tuple[object, ...]] = set()
        self.keys: set[tuple[object, ...]] = set()

    def elapsed(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.began

    def over(self) -> bool:
        """The budget is spent or enough findings are in."""
        c = self.config
        played = self.report.games * c.part[1] + c.part[0]
        timed_out = c.seconds is not None and self.elapsed() >= c.seconds
        return played >= c.games or timed_out or len(self.report.findings) >= c.max_findings

    def go(self) -> FuzzReport:
        """Replay past findings, then play games until the budget is spent."""
        for case in self.config.replay:
            self._consider(self._oracle(case), case)
        bar = counter(f"fuzz {self.config.profile}", unit=" games", quiet=self.config.quiet)
        try:
            while self.corners and not self.over():
                number = self.report.games * self.config.part[1] + self.config.part[0]
                self._game(random.Random(f"{self.config.seed}:{number}"))
                bar.update(1)
                bar.set_postfix_str(f"{self.report.actions / max(self.elapsed(), 1e-9):,.0f} actions/s, "
                                    f"{len(self.report.findings)} findings", refresh=False)
        finally:
            bar.close()
        self.report.seconds = self.elapsed()
        return self.report

    def _game(self, rng: random.Random) -> None:
        self.report.games += 1
        start = make_start(rng.choice(self.corners), self.reference, rng)
        if start is not None:
            found, case = self._play(start, rng)
            self._consider(found, case)

    def _play(self, start: Start, rng: random.Random) -> tuple[Difference | None, Case]:
        found, played = self.duel.play(start.given, self._chooser(Policy(rng, start, self.kinds), start))
        self.report.actions += len(played) + 1
        return found, Case(start.given, played)

    def _chooser(self, policy: Policy, start: Start) -> Chooser:
        limit, grace = len(start.script) + self.config.steps, [GAME_OVER_GRACE]

        def choose(game: Game, played: int) -> str | None:
            if game.status() in ("won", "lost"):
                grace[0] -= 1
            return policy.next(game, played) if played < limit and grace[0] >= 0 else None

        return choose

    def _consider(self, found: Difference | None, case: Case) -> None:
        if found is None or found.kind == "ignored":
            return
        if self.report.first_difference is None:
            self.report.first_difference = self.elapsed()
        if found.signature() in self.signatures:
            self.report.folded += 1
            return
        self.signatures.add(found.signature())
        self._record(found, case)

    def _record(self, found: Difference, case: Case) -> None:
        found_at, began = self.elapsed(), time.monotonic()
        if self.config.shrink:
            case, found = Shrinker(self._oracle, self.reference, self.config.shrink_seconds).shrink(case, found)
        found = self._steady(case, found)
        diagnosis = self._diagnose(case, found)
        if diagnosis.key in self.keys:
            self.report.folded += 1
            return
        self.keys.add(diagnosis.key)
        path = self._write(case, found, diagnosis)
        self.report.findings.append(Finding(case, found, diagnosis, path, found_at, time.monotonic() - began))

    def _oracle(self, case: Case) -> Difference | None:
        return self.duel.play(case.given, fixed(case.actions))[0]

    def _steady(self, case: Case, found: Difference) -> Difference:
        """``found`` when the case shows it twice more; else a ``flaky`` difference."""
        again = [self._oracle(case) for _ in range(2)]
        if all(a is not None and a.signature() == found.signature() for a in again):
            return found
        if found.kind == "fault":  # a crash is a finding even when a replay does not crash again
            return dataclasses.replace(found, message=f"{found.message} (not repeated when the game was replayed)")
        return Difference("flaky", found.step, found.action, message=(
            f"the same game played again gave different answers (first: {found}; "
            f"then: {', '.join(str(a) if a else 'no difference' for a in again)})"))

    def _diagnose(self, case: Case, found: Difference) -> Diagnosis:
        upto = case.actions if found.kind == "legal-moves" or not case.actions else case.actions[:-1]
        try:
            return diagnose(found, self._reference_at(case.given, upto), lambda move: self._ask(case, move))
        except Exception as err:  # the finding stands even when explaining it fails
            title = f"{str(found).splitlines()[0]} (no diagnosis: {type(err).__name__}: {err})"
            return Diagnosis(title, "reasons", "", None, (str(found),), (found.kind, str(found)))

    def _reference_at(self, given: dict[str, str], actions: Iterable[str]) -> Game:
        game = new_game(self.reference, given)
        for action in actions:
            game.apply(action)
        return game

    def _ask(self, case: Case, move: str) -> tuple[bool, str | None] | None:
        """The implementation's verdict on ``move`` after the case's actions."""
        impl = self.duel.impl
        try:
            impl.start(self.config.profile, **case.given)
            for action in case.actions:
                impl.act(action)
            reply = impl.act(move)
        except Exception:
            return None
        return reply.accepted, reply.reason

    def _write(self, case: Case, found: Difference, diagnosis: Diagnosis) -> Path | None:
        if self.config.out is None or (found.kind in ("fault", "flaky", "refused") and not case.given):
            return None
        origin = {"seed": self.config.seed, "implementation": self.report.implementation}
        return write(self.config.out, scenario(self.config.profile, self.reference, case, found, diagnosis, origin))


def fuzz(subject: Callable[[], Adapter], config: FuzzConfig) -> FuzzReport:
    """Differential play of ``subject()`` against the reference; the report lists every distinct finding."""
    impl = subject()
    try:
        try:
            info = impl.info()
        except AdapterError as err:
            return _handshake_fault(config, err)
        return Run(impl, info, config).go()
    finally:
        impl.close()


def _handshake_fault(config: FuzzConfig, err: AdapterError) -> FuzzReport:
    report = FuzzReport(config.seed, config.profile)
    diff = Difference("fault", 0, None, message=f"engine fault on the handshake: {str(err).splitlines()[0]}")
    diagnosis = Diagnosis(diff.message, "reasons", "", None, (str(err),), ("fault",))
    report.findings.append(Finding(Case({}, ()), diff, diagnosis, None, 0.0, 0.0))
    report.first_difference = 0.0
    return report


def corner_names(corners: Iterable[Corner]) -> list[str]:
    """Distinct generator names, in order."""
    return list(dict.fromkeys(c.name for c in corners))
