"""The driver: seeded games from corner positions until the budget (games, seconds) is spent.

Each game starts from a generator's position (corners.py) and plays the policy's actions on both
sides. At a difference the broken rule is named (diagnose.py, by experiment). A rule not seen
before becomes a finding: shrunk (shrink.py, within one time cap), made portable (a plain step
instead of a legal-move or undo-count check where that shows it), checked to replay the same way,
diagnosed again and written as a scenario (findings.py). A rule already found (or ignored with
``--ignore rule:ID``) is folded into its finding's count. Either way the rule is then masked and the
game plays on from the reference's position before the difference, so one bug does not hide the
next: a run reports every rule it can reach within its budget, each once.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.adapter import Adapter, AdapterError, Info, Reply
from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.corners import Corner, Start, corners_for, make_start
from conformance.explore.fuzz.diagnose import Diagnosis, classify, diagnose
from conformance.explore.fuzz.duel import Chooser, Duel, fixed, new_game
from conformance.explore.fuzz.experiment import Scene
from conformance.explore.fuzz.findings import Finding, scenario, write
from conformance.explore.fuzz.mask import Mask
from conformance.explore.fuzz.observe import Ignore, Observed
from conformance.explore.fuzz.policy import Policy, optional_actions
from conformance.explore.fuzz.shrink import Case, Shrinker
from crescent_ref.game import Game
from crescent_ref.progress import counter

GAME_OVER_GRACE = 3  # actions still tried once a game is won or lost
DEFAULT_GAMES = 300  # when neither --games nor --seconds is given
MOST_SEGMENTS = 12  # times one game plays on from before a known difference
MOST_UNDOS = 150  # undos appended to make an undo-count difference a plain step
STEADY_REPLAYS = 2  # replays of a shrunk case that must show the same difference (inside the shrink cap)


@dataclass
class FuzzConfig:
    """The budget, where findings go, and what to look past."""

    profile: str = "app"
    games: int | None = None  # None: DEFAULT_GAMES, or no game limit when ``seconds`` is given
    seconds: float | None = None
    steps: int = 40
    seed: int = 0
    out: Path | None = Path("fuzz-findings")
    shrink: bool = True
    shrink_seconds: float = 10.0
    max_findings: int = 20
    ignore: Ignore = field(default_factory=Ignore)
    corners: tuple[str, ...] = ()
    replay: tuple[Case, ...] = ()
    quiet: bool = True
    part: tuple[int, int] = (0, 1)  # (k, n): play games k, k+n, k+2n, ... of the run (xdist workers)

    def game_limit(self) -> int | None:
        """Most games: as given, else DEFAULT_GAMES unless the run is bounded by time."""
        if self.games is not None:
            return self.games
        return None if self.seconds is not None else DEFAULT_GAMES


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
    ignored: Counter[str] = field(default_factory=Counter)  # differences of ignored rules, by rule
    given_up: str = ""  # the fault the implementation was given up for (no more games were played)

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
        self.mask = Mask(self.reference, config.ignore)
        self.duel = Duel(impl, config.profile, self.reference, self.seen, self.mask.sift)
        plain = dataclasses.replace(self.seen, legal_moves=False,
                                    fields=tuple(f for f in self.seen.fields if f != "undo"))
        self.plain = Duel(impl, config.profile, self.reference, plain)
        self.kinds = optional_actions(info.capabilities, config.ignore.actions)
        self.corners = [c for c in corners_for(self.reference, info.capabilities)
                        if not config.corners or c.name in config.corners]
        self.report = FuzzReport(config.seed, config.profile, f"{info.name} {info.version}")
        self.began = time.monotonic()
        self.by_rule: dict[str, int] = {}  # rule id -> index of its finding
        self.counts: list[Counter[str]] = []  # per finding: the differences folded into it, by kind

    def elapsed(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.began

    def over(self) -> bool:
        """The budget is spent or enough findings are in."""
        c, limit = self.config, self.config.game_limit()
        played = self.report.games * c.part[1] + c.part[0]
        timed_out = c.seconds is not None and self.elapsed() >= c.seconds
        enough = (limit is not None and played >= limit) or timed_out or len(self.report.findings) >= c.max_findings
        return enough or bool(self._given_up())

    def _given_up(self) -> str:
        """The fault the implementation was given up for, if it was (conformance.adapters.stdio)."""
        self.report.given_up = str(getattr(self.duel.impl, "given_up", "") or "")
        return self.report.given_up

    def go(self) -> FuzzReport:
        """Replay past findings, then play games until the budget is spent."""
        for case in self.config.replay:
            found, _ = self.duel.play(case.given, fixed(case.actions))
            self._consider(found, case)
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
        self.report.findings = [dataclasses.replace(f, seen=dict(self.counts[k]))
                                for k, f in enumerate(self.report.findings)]
        return self.report

    def _game(self, rng: random.Random) -> None:
        self.report.games += 1
        start = make_start(rng.choice(self.corners), self.reference, rng)
        if start is None:
            return
        policy, given = Policy(rng, start, self.kinds), start.given
        left, avoid = len(start.script) + self.config.steps, None
        for _ in range(MOST_SEGMENTS):
            found, played = self.duel.play(given, self._chooser(policy, left, avoid))
            self.report.actions += len(played) + 1
            case = Case(given, played)
            if found is None or not self._consider(found, case) or self.over():
                return
            restart = self._before(case, found)
            if restart is None:
                return
            given, done = restart
            left, avoid = left - done, found.action
            policy = policy.later(done)

    def _chooser(self, policy: Policy, limit: int, avoid: str | None) -> Chooser:
        grace = [GAME_OVER_GRACE]

        def choose(game: Game, played: int) -> str | None:
            if game.status() in ("won", "lost"):
                grace[0] -= 1
            if played >= limit or grace[0] < 0:
                return None
            action = policy.next(game, played)
            if played == 0 and action == avoid:
                action = policy.next(game, played)
            return None if played == 0 and action == avoid else action

        return choose

    def _before(self, case: Case, found: Difference) -> tuple[dict[str, str], int] | None:
        """Where to play on after ``found``: the reference's position before it, and the actions that took."""
        done = found.step if found.kind == "legal-moves" else found.step - 1
        if done <= 0 or found.kind in ("fault", "flaky", "refused"):
            return None
        game = new_game(self.reference, case.given)
        for action in case.actions[:done]:
            game.apply(action)
        if game.selected is not None or game.status() in ("won", "lost"):
            return None
        return {"position": game.position.to_text()}, done

    def _consider(self, found: Difference | None, case: Case) -> bool:
        """Name the rule of ``found``; a new one becomes a finding. False: stop this game."""
        if found is None:
            return False
        if found.kind == "ignored":
            return True
        if self.report.first_difference is None:
            self.report.first_difference = self.elapsed()
        rule_id = self._classify(case, found)
        if rule_id in self.mask.ignored:
            self.report.ignored[rule_id] += 1
        elif rule_id in self.by_rule:
            self._fold(rule_id, rule_id, found)
        else:
            self._record(found, case, rule_id)  # before the mask learns it: shrinking must still see it
        self.mask.learn(found, self._reference_at(case.given, _upto(case, found)), rule_id)
        return True

    def _fold(self, rule_id: str, into: str, found: Difference) -> None:
        index = self.by_rule[into]
        self.by_rule[rule_id] = index
        self.counts[index][found.kind] += 1
        self.report.folded += 1

    def _classify(self, case: Case, found: Difference) -> str:
        try:
            return classify(found, self._scene(case, found)).rule
        except Exception:  # naming the rule failed: the kind of difference stands for it
            return {"reply": "reason-order", "legal-moves": "reason-order"}.get(found.kind, "engine-fault")

    def _record(self, found: Difference, case: Case, rule_id: str) -> None:
        """Shrink, make portable, check and diagnose a difference of a new rule; fold it when the shrunk
        case names a rule already found."""
        found_at, began = self.elapsed(), time.monotonic()
        deadline = began + self.config.shrink_seconds
        oracle: Callable[[Case], Difference | None] = self._oracle
        kind = found.kind
        if self.config.shrink:
            shrinker = Shrinker(oracle, self.reference, deadline, reserve=STEADY_REPLAYS)
            case, found = shrinker.shrink(case, found)
            case, found, oracle = self._portable(case, found, rule_id, deadline - shrinker.mean() * STEADY_REPLAYS)
        found = self._steady(case, found, oracle)
        shrunk = time.monotonic() - began  # shrinking, the plain step and the replays: inside --shrink-seconds
        diagnosis = self._diagnose(case, found)
        final = diagnosis.rule or rule_id
        if final in self.by_rule:
            self._fold(rule_id, final, dataclasses.replace(found, kind=kind))
            return
        self.by_rule[rule_id] = self.by_rule[final] = len(self.report.findings)
        self.counts.append(Counter({kind: 1}))
        path = self._write(case, found, diagnosis)
        self.report.findings.append(Finding(case, found, diagnosis, path, found_at, shrunk))

    def _oracle(self, case: Case) -> Difference | None:
        return self.duel.play(case.given, fixed(case.actions))[0]

    def _plain_oracle(self, case: Case) -> Difference | None:
        return self.plain.play(case.given, fixed(case.actions))[0]

    def _portable(self, case: Case, found: Difference, rule_id: str, deadline: float
                  ) -> tuple[Case, Difference, Callable[[Case], Difference | None]]:
        """The same difference shown by a plain step (outcome, reason, state), when one shows it (and
        the time left before ``deadline`` allows a replay)."""
        for tail in _plain_tails(found):
            began = time.monotonic()
            if began >= deadline:
                break
            candidate = Case(case.given, case.actions + tail)
            seen = self._plain_oracle(candidate)
            if seen is not None and seen.kind in ("reply", "state") and seen.step > len(case.actions):
                shrunk = Case(case.given, candidate.actions[: seen.step])
                if self._classify(shrunk, seen) in (rule_id, self._classify(case, found)):
                    return shrunk, seen, self._plain_oracle
            deadline -= time.monotonic() - began  # one more candidate only if another such replay fits
        return case, found, self._oracle

    def _steady(self, case: Case, found: Difference, oracle: Callable[[Case], Difference | None]) -> Difference:
        """``found`` when the case shows it twice more; else a ``flaky`` difference."""
        again = [oracle(case) for _ in range(STEADY_REPLAYS)]
        if all(a is not None and a.signature() == found.signature() for a in again):
            return found
        if found.kind == "fault":  # a crash is a finding even when a replay does not crash again
            return dataclasses.replace(found, message=f"{found.message} (not repeated when the game was replayed)")
        return Difference("flaky", found.step, found.action, message=(
            f"the same game played again gave different answers (first: {found}; "
            f"then: {', '.join(str(a) if a else 'no difference' for a in again)})"))

    def _diagnose(self, case: Case, found: Difference) -> Diagnosis:
        try:
            return diagnose(found, self._scene(case, found))
        except Exception as err:  # the finding stands even when explaining it fails
            title = f"{str(found).splitlines()[0]} (no diagnosis: {type(err).__name__}: {err})"
            return Diagnosis(title, "reasons", "", None, (str(found),), ("reason-order",), "reason-order")

    def _scene(self, case: Case, found: Difference) -> Scene:
        """The reference just before the differing action (at the position for a legal-move difference)."""
        upto = _upto(case, found)
        game = self._reference_at(case.given, upto)
        return Scene(game, self._asker(case.given, tuple(upto), game), _since_reshuffle(upto))

    def _reference_at(self, given: dict[str, str], actions: Iterable[str]) -> Game:
        game = new_game(self.reference, given)
        for action in actions:
            game.apply(action)
        return game

    def _asker(self, given: dict[str, str], upto: tuple[str, ...], game: Game
               ) -> Callable[[dict[str, str] | None, tuple[str, ...]], Reply | None]:
        rebased = {"position": game.position.to_text()} if game.selected is None else None

        def ask(at: dict[str, str] | None, actions: tuple[str, ...]) -> Reply | None:
            """The implementation's last reply to ``actions`` from ``at`` (None: the scene)."""
            if at is not None:
                return self._ask(at, actions)
            if rebased is not None and "undo" not in actions:
                return self._ask(rebased, actions)
            return self._ask(given, upto + actions)

        return ask

    def _ask(self, given: dict[str, str], actions: tuple[str, ...]) -> Reply | None:
        impl = self.duel.impl
        try:
            state = impl.start(self.config.profile, **given)
            reply = Reply(True, None, None, (), state)  # a position loaded and no action asked
            for action in actions:
                reply = impl.act(action)
        except Exception:  # a question the implementation cannot answer tells nothing
            return None
        return reply

    def _write(self, case: Case, found: Difference, diagnosis: Diagnosis) -> Path | None:
        if self.config.out is None or (found.kind in ("fault", "flaky", "refused") and not case.given):
            return None
        origin = {"seed": self.config.seed, "implementation": self.report.implementation}
        return write(self.config.out, scenario(self.config.profile, self.reference, case, found, diagnosis, origin))


def _upto(case: Case, found: Difference) -> tuple[str, ...]:
    """The actions before the differing one (all those before a legal-move difference's position)."""
    return case.actions[: found.step if found.kind == "legal-moves" else max(found.step - 1, 0)]


def _since_reshuffle(actions: Iterable[str]) -> int:
    """Moves played since the last reshuffle of ``actions`` (-1: none was played)."""
    count = -1
    for action in actions:
        if action == "reshuffle":
            count = 0
        elif count >= 0 and action != "undo" and not action.startswith("tap"):
            count += 1
    return count


def _plain_tails(found: Difference) -> list[tuple[str, ...]]:
    """Actions whose plain step may show ``found``: a missing or extra legal move played, or undos up to
    the smaller of the two undo depths and one more."""
    if found.kind == "legal-moves":
        return [(m,) for m in (*found.extra[:3], *found.missing[:3])]
    undo = [f for f in found.fields if f.field == "undo"]
    if found.kind == "state" and undo and len(found.fields) == len(undo):
        depths = [v for v in (undo[0].expected, undo[0].actual) if isinstance(v, int)]
        if depths and min(depths) < MOST_UNDOS:
            return [("undo",) * (min(depths) + 1)]
    return []


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
    diagnosis = Diagnosis(diff.message, "reasons", "", None, (str(err),), ("engine-fault",), "engine-fault")
    report.findings.append(Finding(Case({}, ()), diff, diagnosis, None, 0.0, 0.0))
    report.first_difference = 0.0
    return report


def corner_names(corners: Iterable[Corner]) -> list[str]:
    """Distinct generator names, in order."""
    return list(dict.fromkeys(c.name for c in corners))


__all__ = ["FuzzConfig", "FuzzReport", "Run", "Start", "corner_names", "fuzz"]
