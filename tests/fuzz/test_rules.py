"""One finding per broken rule, named by experiment and citing the sentence that states the rule;
every bug of a many-bug engine in one run; what --ignore, --seconds and --shrink-seconds promise."""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.adapter import AdapterError, Info, Reply
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.load import read_file
from conformance.explore.fuzz import FuzzConfig, Ignore, fuzz
from conformance.explore.fuzz import run as fuzz_run
from conformance.explore.fuzz.compare import Difference
from conformance.explore.fuzz.corners import CORNERS, NOT_REACHED, REACHES, _history_length
from conformance.explore.fuzz.observe import Observed
from conformance.explore.fuzz.rulebook import RULES, statements
from conformance.explore.fuzz.shrink import Case, Shrinker
from conformance.judging.runner import run_scenario
from crescent_ref.errors import NotationError
from crescent_ref.profiles import get_profile
from crescent_ref.spec_files import load_yaml, spec_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mutants import ALL_BY_NAME, BY_NAME, MULTI, MUTANTS, Mutant, MutantAdapter


def hunt(mutant: Mutant, tmp_path: Path, seconds: float, **kw: Any) -> fuzz_run.FuzzReport:
    return fuzz(lambda: MutantAdapter(mutant), FuzzConfig(profile=mutant.fuzz_profile, seconds=seconds, out=tmp_path,
                                                          **kw))


@pytest.mark.parametrize("name", ["any_card_moves", "no_pile_limit_in_app", "four_reshuffles_in_app",
                                  "undo_across_reshuffle", "stuck_counts_only_pile_cards", "full_pile_says_wrong_suit",
                                  "won_one_card_early", "empty_piles_refillable"])
def test_an_engine_with_one_broken_rule_gives_one_finding_naming_it(name: str, tmp_path: Path) -> None:
    mutant = BY_NAME[name]
    report = hunt(mutant, tmp_path, 2.0)
    assert [f.diagnosis.rule for f in report.findings] == [mutant.rule], [str(f) for f in report.findings]
    [finding] = report.findings
    assert finding.diagnosis.area in mutant.areas and finding.diagnosis.title.startswith(f"{finding.diagnosis.area}: ")
    [statement] = finding.diagnosis.statements
    assert finding.diagnosis.source is not None
    assert finding.diagnosis.source["quote"] == statements()[statement]["quote"]
    assert finding.count >= 1


def test_the_top_card_rule_is_named_when_the_card_below_moves(tmp_path: Path) -> None:
    [finding] = hunt(BY_NAME["any_card_moves"], tmp_path, 2.0).findings
    assert "not p" in finding.diagnosis.title and "top card" in finding.diagnosis.title
    assert finding.diagnosis.statements == ("000-moves-02",)  # "Only the top card of a pile can be moved."


def test_undo_after_a_reshuffle_cites_the_cleared_history(tmp_path: Path) -> None:
    [finding] = hunt(BY_NAME["undo_across_reshuffle"], tmp_path, 2.0).findings
    assert finding.diagnosis.statements == ("000-features-07",)


def test_a_status_difference_names_the_move_that_keeps_the_game_going(tmp_path: Path) -> None:
    [finding] = hunt(BY_NAME["stuck_counts_only_pile_cards"], tmp_path, 2.0, corners=("met-stuck",)).findings
    assert "a move between foundations" in finding.diagnosis.title and "keeps the game going" in finding.diagnosis.title


def test_every_bug_of_the_five_bug_engine_is_found_in_one_run(tmp_path: Path) -> None:
    mutant = ALL_BY_NAME["five_bugs"]
    report = hunt(mutant, tmp_path, 8.0)
    assert sorted(f.diagnosis.rule for f in report.findings) == sorted(mutant.rules)
    assert report.folded > 0 and all(f.path is not None for f in report.findings)


def test_each_multi_bug_engine_lists_its_bugs_rules() -> None:
    assert all(len(m.rules) == len(set(m.rules)) >= 3 for m in MULTI)
    assert {r.id for r in RULES} >= {m.rule for m in MUTANTS}


def test_every_rule_cites_statements_the_spec_has() -> None:
    known = statements()
    for rule in RULES:
        assert all(s in known for s in rule.statements), rule.id


def test_an_ignored_rule_is_looked_past_and_counted(tmp_path: Path) -> None:
    mutant = BY_NAME["undo_refused_after_game_over"]
    report = hunt(mutant, tmp_path, 2.0, ignore=Ignore.parse(["rule:undo-after-loss"]), corners=("one-move-left",))
    assert report.findings == [] and report.ignored["undo-after-loss"] > 0


def test_an_unknown_rule_cannot_be_ignored() -> None:
    with pytest.raises(NotationError, match="unknown rule"):
        Ignore.parse(["rule:no-such-rule"])


def test_legal_moves_can_be_left_out_of_the_comparison() -> None:
    info = ReferenceAdapter().info()
    assert Observed.of(info).legal_moves and not Observed.of(info, Ignore.parse(["field:legal-moves"])).legal_moves


class NoReshuffle(ReferenceAdapter):
    """Fails loudly when sent a reshuffle."""

    def act(self, action: str) -> Reply:
        if action == "reshuffle":
            raise AdapterError("sent a reshuffle")
        return super().act(action)


def test_ignoring_reshuffles_never_plays_one(tmp_path: Path) -> None:
    ignore = Ignore.parse(["action:reshuffle", "action:undo", "action:tap", "action:drop"])
    report = fuzz(NoReshuffle, FuzzConfig(games=60, out=tmp_path, ignore=ignore, corners=("stuck", "one-move-left")))
    assert report.findings == [] and report.games == 60


def test_seconds_alone_bound_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fuzz_run, "DEFAULT_GAMES", 3)
    report = fuzz(ReferenceAdapter, FuzzConfig(seconds=1.0, out=None))
    assert report.games > 3 and report.seconds >= 1.0
    assert fuzz(ReferenceAdapter, FuzzConfig(out=None, corners=("stuck",))).games == 3


def test_a_long_undo_history_stays_short_for_a_large_or_unbounded_limit() -> None:
    rng = random.Random(0)
    lengths = [_history_length(limit, rng) for limit in (None, 1_000_000) for _ in range(50)]
    assert max(lengths) < 250 and min(lengths) >= 1
    assert {_history_length(100, random.Random(s)) for s in range(30)} >= {101, 102}


def test_an_unlimited_undo_engine_is_found_inside_its_seconds(tmp_path: Path) -> None:
    began = time.monotonic()
    report = hunt(BY_NAME["unlimited_undo"], tmp_path, 2.0, shrink_seconds=1.0)
    assert [f.diagnosis.rule for f in report.findings] == ["undo-limit"]
    assert time.monotonic() - began < 6.0


def test_one_deadline_bounds_every_shrinking_pass() -> None:
    def slow(case: Case) -> Difference | None:
        time.sleep(0.02)
        return Difference("reply", len(case.actions), case.actions[-1] if case.actions else None, "a", "b")

    actions = tuple(f"p{1 + k % 16}-p{1 + (k + 1) % 16}" for k in range(60))
    began = time.monotonic()
    Shrinker(slow, get_profile("app"), began + 0.3).shrink(Case({"code": "CR1-N-AAAAAAB"}, actions),
                                                           slow(Case({}, actions)) or Difference("reply", 60))
    assert time.monotonic() - began < 0.35


class WithoutLegalMoves(MutantAdapter):
    """The five-bug engine, offering no legal-move list (a verdict-only engine)."""

    def info(self) -> Info:
        return dataclasses.replace(super().info(), capabilities=super().info().capabilities - {"legal-moves"})


def test_findings_run_on_an_engine_without_legal_moves(tmp_path: Path) -> None:
    mutant = ALL_BY_NAME["five_bugs"]
    report = hunt(mutant, tmp_path, 4.0, max_findings=2)
    broken = WithoutLegalMoves(mutant)
    for finding in report.findings:
        assert finding.path is not None
        [scenario] = read_file(finding.path)
        assert "legal-moves" not in scenario.features
        assert run_scenario(broken, broken.info(), scenario, "app").verdict == "failed"


def test_every_parameter_and_interpretation_has_a_corner() -> None:
    reached = {x for names in REACHES.values() for x in names}
    parameters = set(load_yaml("profiles.yaml")["parameters"])
    text = (spec_dir() / "interpretations.md").read_text(encoding="utf-8")
    interpretations = {line.split()[1] for line in text.splitlines() if line.startswith("## I-")}
    assert parameters - reached == set()
    assert interpretations - reached - set(NOT_REACHED) == set()
    assert set(REACHES) == {c.name for c in CORNERS}
    docs = (Path(__file__).resolve().parents[2] / "docs" / "fuzzing.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in docs for name in REACHES)


def test_a_known_reason_is_looked_past_in_legal_moves_too(tmp_path: Path) -> None:
    """No pile limit: moves onto full piles are listed as legal and accepted; reason:pile-full covers both."""
    mutant = BY_NAME["no_pile_limit_in_app"]
    report = hunt(mutant, tmp_path, 2.0, ignore=Ignore.parse(["reason:pile-full"]), corners=("full-pile",))
    assert report.findings == [] and report.games > 10


class LosesACardAtLoad(ReferenceAdapter):
    """Reports every loaded position with the top card of the first pile that has one gone (nowhere)."""

    def start(self, profile: str, *, position: str | None = None, code: str | None = None) -> dict[str, Any]:
        state = super().start(profile, position=position, code=code)
        piles = [list(pile) for pile in state["piles"]]
        first = next((i for i, pile in enumerate(piles) if pile), None)
        if first is not None:
            piles[first].pop()
        return {**state, "piles": piles}


def test_a_card_lost_at_load_is_the_deal_not_autoplay(tmp_path: Path) -> None:
    # in `open` autoplay could move cards at load; a card that vanishes without reaching a foundation
    # cannot be its work
    report = fuzz(LosesACardAtLoad, FuzzConfig(profile="open", seconds=2.0, out=tmp_path))
    rules = [f.diagnosis.rule for f in report.findings]
    assert rules == ["deal"], [str(f) for f in report.findings]


@pytest.mark.parametrize(("parts", "explained"), [
    ((("p1", "piles", "8♦,3♠,7♦", "8♦,3♠"), ("foundation_cards", "foundation_cards", 10, 11)), True),
    ((("p1", "piles", "[8♦,3♠],7♦", "[8♦],3♠"), ("top of ♦K", "foundations", "K♦", "Q♦")), True),
    ((("p1", "piles", "8♦,3♠,7♦", "8♦,3♠"),), False),  # a card gone, and no foundation took it
    ((("foundation_cards", "foundation_cards", 10, 8),), False),  # foundations emptied
    ((("p1", "piles", "8♦,3♠", "8♦,3♠,7♦"), ("foundation_cards", "foundation_cards", 10, 11)), False),
    ((("p1", "piles", "8♦,3♠,7♦", "8♦,4♠"), ("foundation_cards", "foundation_cards", 10, 11)), False),
    ((("p1", "piles", "8♦", "-"), ("foundation_cards", "foundation_cards", 10, 11)), True),
    # the other way: the reference autoplayed at the load and the implementation did not
    ((("p1", "piles", "8♦,3♠", "8♦,3♠,Q♥"), ("foundation_cards", "foundation_cards", 9, 8)), True),
    ((("p1", "piles", "8♦,3♠", "8♦,3♠,Q♥"), ("top of ♥K", "foundations", "Q♥", "K♥")), True),
    ((("p1", "piles", "8♦,3♠", "8♦,4♠,Q♥"), ("foundation_cards", "foundation_cards", 9, 8)), False),
    ((("p1", "piles", "8♦,3♠", "8♦,3♠,Q♥"), ("foundation_cards", "foundation_cards", 9, 10)), False),
    ((("moves", "moves", 0, 2),), True),  # autoplay's moves counted by one side: the caller names it
])
def test_autoplay_explains_only_top_cards_gone_to_the_foundations(parts: tuple[tuple[Any, ...], ...],
                                                                   explained: bool) -> None:
    from conformance.explore.fuzz.compare import FieldDiff
    from conformance.explore.fuzz.diagnose import _autoplay_explains

    diff = Difference("state", 0, fields=tuple(FieldDiff(*part) for part in parts))
    assert _autoplay_explains(diff) is explained


def test_a_refused_give_back_is_the_give_backs_rule_by_a_move_or_by_a_tap() -> None:
    # foundation-final refuses a card leaving a foundation: onto a pile (a move, or a tap on the pile while
    # the foundation's card is selected) that is give-backs; onto the other foundation, between-foundations
    from conformance.explore.fuzz.diagnose import refusal_rule
    from conformance.explore.fuzz.duel import new_game
    from conformance.explore.fuzz.experiment import Scene
    from crescent_ref.actions import Action, parse_place
    from crescent_ref.profiles import get_profile

    game = new_game(get_profile("app"), {"code": "CR1-N-BAAAAAA"})  # what the refusal was of is all that counts
    scene = Scene(game, lambda at, actions: None)
    assert refusal_rule(scene, Action.from_text("A♠-p2"), "foundation-final") == "give-backs"
    assert refusal_rule(scene, Action.from_text("A♠-K♠"), "foundation-final") == "between-foundations"
    game.selected = parse_place("A♠")
    assert refusal_rule(scene, Action.from_text("tap p2"), "foundation-final") == "give-backs"
    assert refusal_rule(scene, Action.from_text("tap K♠"), "foundation-final") == "between-foundations"


FULL_P12 = ("up:A♠,A♥,A♦,2♣ down:K♠,Q♥,K♦,K♣ piles:10♠,2♠,2♣,6♣,5♣,4♠,5♠/K♥,3♣,K♠,5♦,Q♠,10♦/2♥,J♥,A♣,4♦,4♣,Q♦/"
            "9♥,10♣,3♥,8♣,3♥/Q♥,3♠,9♦,6♠/8♦,10♥,8♠/J♠,9♣,Q♣,4♠,8♣,8♠/6♥,7♣,8♥,J♦,8♦,4♥/7♠,6♠,9♦,8♥,3♦,9♥/"
            "3♦,6♣,7♦,7♥,J♣,4♦/J♣,2♦,Q♠,A♠,J♥,2♥/3♠,A♥,6♦,J♦,2♦,5♣,3♣,2♠,10♥,5♥,K♦,9♠,7♠/6♥,7♦,9♣,K♣,Q♦/"
            "9♠,J♠,4♥,7♥,10♣,7♣/5♦,10♦,6♦,5♥/A♦,10♠,5♠,Q♣,4♣ reshuffles:3 moves:0")


@pytest.mark.parametrize(("ignored", "kind"), [((), "legal-moves"), (("reason:pile-full",), None)])
def test_a_tap_onto_a_full_pile_is_looked_past_with_the_pile_full_reason(ignored: tuple[str, ...],
                                                                          kind: str | None) -> None:
    # without a pile limit p6-p12 is listed legal and tap p6 moves 8♠ onto the 13 cards of p12, where the
    # reference (nowhere to go) selects it: differences of the legal moves and of the tap's effect that
    # the ignored reason covers
    from conformance.explore.fuzz.duel import Duel, fixed
    from conformance.explore.fuzz.mask import Mask

    adapter = MutantAdapter(BY_NAME["no_pile_limit_in_app"])
    info = adapter.info()
    ignore = Ignore.parse(list(ignored))
    reference = info.reference_profile("app")
    duel = Duel(adapter, "app", reference, Observed.of(info, ignore), Mask(reference, ignore).sift)
    found, _ = duel.play({"position": FULL_P12}, fixed(["tap p6"]))
    assert (found.kind if found is not None and found.kind != "ignored" else None) == kind
