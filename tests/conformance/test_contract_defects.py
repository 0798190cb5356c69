"""Each defect of issue 22 pinned: what the real-game trials found, and that it stays fixed."""

from __future__ import annotations

import json
import os
import random
import shlex
from pathlib import Path

import pytest
from declaring import NAMED, NamesSome, NoCodes, PlaysOtherwise

from conformance.adapter import AdapterError, Info
from conformance.adapters.handshake import info_from_handshake
from conformance.adapters.reference import ReferenceAdapter
from conformance.cli import main
from conformance.contract import Contract, from_report
from conformance.corpus.load import load_corpus, load_files
from conformance.judging.compare import compare_reports
from conformance.judging.runner import judge, run_scenario
from conformance.logs.check import check_log, observed
from conformance.logs.model import LogHeader
from conformance.logs.read import read_log
from conformance.logs.record import random_log, write_log
from conformance.logs.report import format_verdict
from conformance.logs.scenario import write_scenario
from crescent_ref import cli as ref_cli
from crescent_ref.game import Game
from crescent_ref.profiles import Profile, get_profile

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))


def scenario(sid: str) -> object:
    return next(sc for sc in load_corpus() if sc.id == sid)


# --- run: deviations of a base apply before its variants --------------------------------------------


def test_a_base_deviation_applies_before_the_variants() -> None:
    info = ReferenceAdapter({"app": {"reshuffles": 4, "give_backs": False}}).info()
    assert info.reference_profile("app").reshuffles == 4
    assert info.reference_profile("app+six").reshuffles == 6
    assert info.reference_profile("app+give-backs").give_backs is True
    declared = Profile.declared("app+six", {"reshuffles": 4, "pile_limit": None})
    assert declared.pile_limit is None and declared.reshuffles == 6
    assert eval(repr(declared)) == declared and declared.plain_name == "app+six"


@pytest.mark.parametrize("profile", ["app+six", "app+give-backs"])
def test_a_base_deviation_gives_no_false_failure_in_a_variant(profile: str) -> None:
    declared = {"app": {"reshuffles": 4, "give_backs": False}}
    game = PlaysOtherwise(declared, declared)
    info = game.info()
    verdicts = {run_scenario(game, info, sc, profile).verdict for sc in load_corpus() if profile in sc.profiles}
    assert verdicts == {"passed"}


# --- real games' declarations ----------------------------------------------------------------------


def test_unbounded_undo_takes_back_every_move() -> None:
    rules = get_profile("app").changed({"undo_limit": None, "undo_cleared_by_reshuffle": False})
    game, rng, played = Game.deal(rules, "CR1-N-BAAAAAA"), random.Random(0), 0
    while played < 150:
        moves = game.legal_moves()
        if moves:
            game.apply(rng.choice(moves))
            played += 1
        elif not game.apply("reshuffle").accepted:
            break
    undone = sum(game.apply("undo").accepted for _ in range(played))
    assert played > 100 and undone == played and not game.history


def test_partial_reasons_judge_the_named_codes_and_the_verdict_of_the_others() -> None:
    info = NamesSome(ReferenceAdapter()).info()
    assert info.names_reason("pile-full") and not info.names_reason("wrong-rank") and info.observes("reasons")
    wrong = NamesSome(ReferenceAdapter())
    wrong.reason = lambda reason: "wrong-rank" if reason in NAMED else None  # type: ignore[method-assign]
    results = [
        run_scenario(wrong, info, sc, "app") for sc in load_corpus() if sc.area == "reasons" and "app" in sc.profiles
    ]
    assert any(r.verdict == "failed" and "reason" in str(r.failure.mismatches[0]) for r in results if r.failure)
    right = NamesSome(ReferenceAdapter())
    assert {run_scenario(right, info, sc, "app").verdict for sc in load_corpus() if "app" in sc.profiles} <= {
        "passed",
        "skipped",
    }


def test_a_handshake_names_its_reason_codes_or_fails_on_an_unknown_one() -> None:
    impl = {"name": "x", "version": "1", "language": "c", "profiles": ["app"]}
    named = info_from_handshake({"version": 3, "implementation": {**impl, "reason_codes": ["pile-full"]}})
    assert named.reason_codes == frozenset({"pile-full"})
    with pytest.raises(AdapterError, match="'pile-ful'"):
        info_from_handshake({"version": 3, "implementation": {**impl, "reason_codes": ["pile-ful"]}})


def test_a_scenario_from_a_code_runs_from_the_dealt_position_without_game_codes() -> None:
    game = NoCodes(ReferenceAdapter())
    whole = next(sc for sc in load_corpus() if sc.area == "whole-games" and sc.code)
    assert judge(game, Contract(game.info()), whole, whole.profiles[0]).verdict == "passed"
    dealing = next(sc for sc in load_corpus() if sc.area == "game-codes")
    assert "game-codes" in judge(game, Contract(game.info()), dealing, dealing.profiles[0]).detail


# --- smoke -----------------------------------------------------------------------------------------


def test_smoke_shows_deviations_and_judges_every_area_under_reshuffles_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--impl", "declaring:no_reshuffles"]) == 0
    out = capsys.readouterr().out
    assert "DECLARED DEVIATIONS: app, except reshuffles=0" in out.splitlines()[0]
    assert "not applicable" not in out and "skipped" not in out


def test_smoke_takes_expectations_and_names_the_deviation_that_explains_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["smoke", "--impl", "declaring:no_reshuffles_undeclared"]) == 1
    out = capsys.readouterr().out
    assert 'a declared deviation would explain it: "deviations": {"app": {"reshuffles": 0}}' in out
    bad = sorted({line.split()[1] for line in out.splitlines() if line.startswith(("  failed", "  errored"))})
    known = tmp_path / "known.yaml"
    known.write_text("deviations:\n" + "".join(f"  {key}: no reshuffles\n" for key in bad), encoding="utf-8")
    assert main(["smoke", "--impl", "declaring:no_reshuffles_undeclared", "--expectations", str(known)]) == 0
    out = capsys.readouterr().out
    assert f"{len(bad)} known differences" in out
    assert all(any(line.split()[:3] == ["expected", "failure", key] for line in out.splitlines()) for key in bad)


def test_smoke_words_a_listed_scenario_that_passes_as_run_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A known difference that passes is an unexpected pass (strict), in smoke as in run and report."""
    assert main(["smoke"]) == 0
    key = next(line.split()[1] for line in capsys.readouterr().out.splitlines() if line.startswith("  passed"))
    known = tmp_path / "known.yaml"
    known.write_text(f"deviations:\n  {key}: said to differ\n", encoding="utf-8")
    assert main(["smoke", "--expectations", str(known)]) == 1
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if key in line]
    assert rows[0][:3] == ["unexpectedly", "passed", key] and "it passed (the list is strict)" in " ".join(rows[0])


# --- perft -----------------------------------------------------------------------------------------


def test_perft_skips_a_case_the_declared_rules_cannot_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--impl", "declaring:no_reshuffles", "--max-depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "skipped  perft/double-fit-6S[app]: not applicable under the declared rules" in out
    assert "  ok       perft/double-fit-6S[open] depths 1-1" in out


def test_perft_catches_a_game_that_refuses_every_reshuffle_at_depth_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--impl", "declaring:refuses_reshuffles", "--max-depth", "1"]) == 1
    out = capsys.readouterr().out
    assert "the implementation refused 'reshuffle' after the start (no-reshuffles), which it counted" in out
    line = next(t for t in out.splitlines() if "reference: crescent-ref play" in t).split("reference: ", 1)[1]
    assert ref_cli.main(shlex.split(line)[1:]) == 0  # the reference accepts it, as printed


# --- check-log -------------------------------------------------------------------------------------


def test_a_log_field_the_game_does_not_observe_is_not_compared() -> None:
    blind = LogHeader(1, "app", code="CR1-N-BAAAAAA", observes=frozenset())
    assert not observed(blind, "status", "waiting", "playing") and not observed(blind, "status", "lost", "waiting")
    assert not observed(blind, "moves", 3, 0) and observed(blind, "status", "won", "playing")
    seeing = LogHeader(1, "app", code="CR1-N-BAAAAAA", observes=frozenset({"waiting"}))
    assert observed(seeing, "status", "waiting", "playing") and not observed(seeing, "status", "lost", "playing")


def deviating_log(tmp_path: Path) -> Path:
    """A log of the app with four reshuffles played as app+six (the variant's six stand)."""
    lines = random_log("app+six", "CR1-N-BAAAAAA", 120, seed=5)
    head = json.loads(lines[0])
    head["deviations"] = {"app": {"reshuffles": 4}}
    path = tmp_path / "six.jsonl"
    write_log(path, [json.dumps(head, ensure_ascii=False), *lines[1:]])
    return path


def test_a_deviating_log_becomes_a_scenario_judged_under_its_declarations(tmp_path: Path) -> None:
    verdict = check_log(read_log(deviating_log(tmp_path)))
    assert verdict.consistent, format_verdict(verdict)
    out = tmp_path / "elsewhere" / "six.yaml"
    write_scenario(verdict, out)
    schema = out.read_text(encoding="utf-8").splitlines()[0].split("$schema=", 1)[1]
    assert (out.parent / schema).resolve().is_file()
    [loaded] = [found for path, found in load_files([out]) if Path(path) == out]
    assert not isinstance(loaded, Exception)
    [sc] = loaded
    assert sc.declared == {"app": {"reshuffles": 4}} and sc.profiles == ("app+six",)
    game = ReferenceAdapter({"app": {"reshuffles": 4}})
    assert run_scenario(game, game.info(), sc, "app+six").verdict == "passed"


def test_the_replay_line_of_a_deviating_log_carries_the_deviations_and_runs(tmp_path: Path) -> None:
    lines = random_log("app", "CR1-N-BAAAAAA", 30, seed=2)
    head = json.loads(lines[0])
    head["deviations"] = {"app": {"pile_limit": None}}
    doctored = json.loads(lines[5])
    doctored["state"]["moves"] = doctored["state"]["moves"] + 7
    path = tmp_path / "bad.jsonl"
    write_log(path, [json.dumps(head, ensure_ascii=False), *lines[1:5], json.dumps(doctored, ensure_ascii=False)])
    text = format_verdict(check_log(read_log(path)))
    line = next(t for t in text.splitlines() if t.strip().startswith("replay:")).split("replay:", 1)[1]
    words = shlex.split(line)
    assert words[words.index("--deviations") + 1] == '{"app":{"pile_limit":null}}'
    assert ref_cli.main(words[1:]) in (ref_cli.OK, ref_cli.REFUSED)


def test_check_log_takes_expectations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = random_log("app", "CR1-N-BAAAAAA", 10, seed=2)
    doctored = json.loads(lines[3])
    doctored["state"]["moves"] += 7
    path = tmp_path / "bad.jsonl"
    write_log(path, [*lines[:3], json.dumps(doctored, ensure_ascii=False)])
    known = tmp_path / "known.yaml"
    known.write_text("deviations:\n  log/bad.jsonl: counts twice\n", encoding="utf-8")
    assert main(["check-log", str(path)]) == 1
    assert main(["check-log", str(path), "--expectations", str(known)]) == 0
    assert "known difference (counts twice)" in capsys.readouterr().out


# --- run, report, matrix, compare, html-report -----------------------------------------------------


def test_run_writes_expectations_that_a_second_run_honours(tmp_path: Path) -> None:
    known, report = tmp_path / "known.yaml", tmp_path / "r.json"
    args = ["run", "--impl", "declaring:pile_limit_undeclared", "--profile", "app", "-q"]
    assert main([*args, "--write-expectations", str(known)]) == 1
    assert "pile-limit-001[app]" in known.read_text(encoding="utf-8")
    assert main([*args, "--expectations", str(known), "--label", "no limit", "--report", str(report)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    recorded = from_report(data)
    assert recorded.label == "no limit" and recorded.command == "--impl declaring:pile_limit_undeclared"
    assert recorded.expectations.file == str(known) and "pile-limit-001[app]" in recorded.expectations.deviations
    assert data["implementation"]["label"] == "no limit" and data["summary"].get("expected failure")


def listed_report(tmp_path: Path) -> Path:
    known, report = tmp_path / "known.yaml", tmp_path / "listed.json"
    args = ["run", "--impl", "declaring:pile_limit_undeclared", "--profile", "app", "-q"]
    main([*args, "--write-expectations", str(known)])
    main([*args, "--expectations", str(known), "--label", "faulty build", "--report", str(report)])
    return report


def test_matrix_draws_expected_failures_as_expected_and_tells_labels_apart(tmp_path: Path) -> None:
    listed = listed_report(tmp_path)
    plain = tmp_path / "ref.json"
    assert main(["run", "--profile", "app", "-q", "--report", str(plain)]) == 0
    assert main(["matrix", str(plain), str(listed), "--out", str(tmp_path / "m.html")]) == 0
    page = (tmp_path / "m.html").read_text(encoding="utf-8")
    assert 'class="mark expected-failure"' in page and 'class="mark failed"' not in page
    assert "crescent_ref 0.2.0 [faulty build]" in page and "Failures of crescent_ref 0.2.0 [faulty build] (0)" in page


def test_matrix_and_badge_do_not_count_a_profile_never_claimed_as_skipped(tmp_path: Path) -> None:
    report = tmp_path / "js.json"
    assert main(["run", "--impl", "declaring:app_only", "--id", "piles-001", "--report", str(report)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"].get("not claimed") and not data["summary"].get("skipped")
    assert main(["matrix", str(report), "--out", str(tmp_path / "m.html")]) == 0
    page = (tmp_path / "m.html").read_text(encoding="utf-8")
    assert 'class="mark skipped"' not in page  # not claimed: left out (or marked not-claimed), never a skip
    assert main(["badge", str(report), "--out", str(tmp_path / "b.svg")]) == 0


def test_compare_across_implementations_compares_what_both_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, mine = tmp_path / "ref.json", tmp_path / "mine.json"
    main(["run", "--id", "piles-001", "--report", str(ref)])
    main(["run", "--impl", "declaring:app_only", "--id", "piles-001", "--report", str(mine)])
    capsys.readouterr()
    assert main(["compare", str(ref), str(mine)]) == 0
    out = capsys.readouterr().out
    assert "REGRESSION" not in out.replace("no regression", "") and "only the profiles both claim" in out
    comparison = compare_reports(json.loads(ref.read_text()), json.loads(mine.read_text()))
    assert all(c.profile.split("+")[0] == "app" for c in comparison.changes)


def test_compare_honours_the_allow_file_and_the_expectations_used(tmp_path: Path) -> None:
    ref, listed = tmp_path / "ref.json", listed_report(tmp_path)
    main(["run", "--profile", "app", "-q", "--label", "faulty build", "--report", str(ref)])
    assert main(["compare", str(ref), str(listed)]) == 0  # expected failures are no regression
    broken = tmp_path / "broken.json"
    main(["run", "--impl", "declaring:pile_limit_undeclared", "--profile", "app", "-q", "--label", "faulty build",
          "--report", str(broken)])  # fmt: skip
    assert main(["compare", str(ref), str(broken)]) == 1
    allow = tmp_path / "allow.txt"
    allow.write_text("pile-limit-001  # the limit is not ours\npile-limit-002[app]\n", encoding="utf-8")
    failing = {r["id"] for r in json.loads(broken.read_text())["results"] if r["verdict"] != "passed"}
    allow.write_text("".join(f"{sid}  # not ours\n" for sid in sorted(failing)), encoding="utf-8")
    assert main(["compare", str(ref), str(broken), "--allow-file", str(allow)]) == 0
    assert main(["compare", str(ref), str(broken), "--allow-file", str(tmp_path / "known.yaml")]) == 0


def test_html_report_replays_with_the_recorded_command(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    main(["run", "--impl", "declaring:pile_limit_undeclared", "--id", "pile-limit-001", "--report", str(report)])
    assert main(["html-report", str(report), "--out", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "crescent-conformance run --impl declaring:pile_limit_undeclared --profile app --id pile-limit-001" in page


def test_a_replay_printed_by_run_runs_as_written_with_its_expectations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("deviations:\n  piles-001: not this one\n", encoding="utf-8")
    args = ["run", "--impl", "declaring:pile_limit_undeclared", "--id", "pile-limit-001", "--expectations", str(known)]
    assert main(args) == 1
    line = next(t for t in capsys.readouterr().out.splitlines() if "replay:" in t).split("replay: ", 1)[1]
    assert f"--expectations {known}" in line
    assert main(shlex.split(line)[1:]) == 1


# --- crescent-ref play -----------------------------------------------------------------------------


def test_crescent_ref_play_takes_deviations(capsys: pytest.CaptureFixture[str]) -> None:
    start = ["play", "--profile", "app+six", "--code", "CR1-N-BAAAAAA"]
    assert ref_cli.main([*start, "--deviations", '{"app":{"pile_limit":null}}']) == ref_cli.OK
    assert "app[pile_limit=null]+six" in capsys.readouterr().out
    assert ref_cli.main(["play", "--profile", "app", "--code", "CR1-N-BAAAAAA", "reshuffle"]) == ref_cli.OK
    no_reshuffles = ["--deviations", '{"app":{"reshuffles":0}}', "reshuffle"]
    assert ref_cli.main(["play", "--profile", "app", "--code", "CR1-N-BAAAAAA", *no_reshuffles]) == ref_cli.REFUSED
    assert "rejected (no-reshuffles)" in capsys.readouterr().out
    assert ref_cli.main(["play", "--profile", "app", "--code", "CR1-N-BAAAAAA", "--deviations", '{"ap": {}}']) == 2
    assert "unknown base profile 'ap'" in capsys.readouterr().err


def test_the_contract_round_trips_through_a_report_record() -> None:
    info = Info("x", "1", "c", ("app",), ("six",), frozenset({"undo"}), deviations={"app": {"undo_limit": None}},
                reason_codes=frozenset({"pile-full"}))  # fmt: skip
    contract = Contract(info, label="build 7", command="--cmd 'node x.js'")
    again = Contract.from_record(json.loads(json.dumps(contract.as_record())))
    assert again.info == info and again.label == "build 7" and again.command == "--cmd 'node x.js'"
