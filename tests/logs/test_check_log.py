"""Game logs: a reference game's log checks clean, a doctored step is reported as that step, deviations
change the rules it is judged by, and check-log reports like a failed scenario."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main as conformance_main
from conformance.logs.check import LogVerdict, check_log
from conformance.logs.read import read_lines, read_log
from conformance.logs.record import random_log, write_log
from conformance.logs.report import format_verdict
from crescent_ref.cli import main as ref_main

CODE = "CR1-N-AAAAAAB"
# pile-limit-001: pile 1 holds 13 cards; p2-p1 is refused (pile-full) in app, accepted without the limit
FULL = (
    "up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:3♣,4♦,5♠,6♣,7♦,8♠,9♣,10♦,J♠,3♦,4♠,5♣,9♥/6♣,8♥/2♠,8♦,5♥,8♥,6♥,8♦/"
    "2♦,9♥,2♠,9♦,10♣,J♥/Q♣,5♣,3♥,3♠,7♣,J♦/A♦,10♥,5♦,2♥,Q♥,9♠/9♠,3♥,7♥,3♣,J♥,K♥/7♠,3♠,7♠,10♠,6♦,K♦/"
    "10♦,J♠,Q♠,5♦,7♦,5♥/8♣,4♣,10♠,5♠,2♣,4♣/2♦,9♣,Q♦,8♣,9♦,6♠/2♣,Q♦,2♥,6♦,A♥,7♣/4♥,8♠,Q♠,7♥,6♠,A♣/"
    "K♣,J♣,J♦,K♠,J♣/6♥,4♥,10♣,3♦,A♠/Q♣,Q♥,10♥,4♦,4♠ reshuffles:3 moves:0"
)


def line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def doctored(lines: list[str], step: int, change: dict[str, Any]) -> list[str]:
    """The log with record ``step`` (1-based) changed: top-level fields replaced, ``state`` merged."""
    record = json.loads(lines[step])
    record.update({k: v for k, v in change.items() if k != "state"})
    record["state"] = {**record.get("state", {}), **change.get("state", {})}
    return [*lines[:step], line(record), *lines[step + 1 :]]


@pytest.fixture(scope="module")
def played() -> list[str]:
    return random_log("app", CODE, 150, seed=5)


def checked(lines: list[str], name: str = "game.jsonl") -> LogVerdict:
    return check_log(read_lines(name, lines))


def first_refusal(lines: list[str]) -> int:
    return next(n for n, text in enumerate(lines) if n and not json.loads(text)["accepted"])


def test_a_log_of_a_reference_game_checks_clean(played: list[str]) -> None:
    verdict = check_log(read_lines("game.jsonl", played))
    assert verdict.consistent and verdict.checked == 150
    assert "consistent with the reference, 150 actions checked" in format_verdict(verdict)


def test_a_log_that_records_only_verdicts_checks_clean(played: list[str]) -> None:
    bare = [played[0]] + [line({k: json.loads(t)[k] for k in ("action", "accepted")}) for t in played[1:]]
    assert check_log(read_lines("bare.jsonl", bare)).consistent


def test_a_doctored_move_counter_is_reported_at_its_step(played: list[str]) -> None:
    moves = json.loads(played[40])["state"]["moves"]
    verdict = check_log(read_lines("game.jsonl", doctored(played, 40, {"state": {"moves": moves + 1}})))
    assert verdict.divergence is not None and verdict.divergence.record is not None
    assert verdict.divergence.record.number == 40 and verdict.checked == 40
    assert [str(m) for m in verdict.divergence.mismatches] == [f"moves: expected {moves}, got {moves + 1}"]


def test_a_refusal_logged_as_accepted_names_the_step_rule_and_line(played: list[str]) -> None:
    step = first_refusal(played)
    record = json.loads(played[step])
    text = format_verdict(checked(doctored(played, step, {"accepted": True, "reason": None})))
    assert f"game.jsonl:{step + 1}, step {step}: {record['action']}" in text
    assert f"rule: the reference refuses {record['action']}: rejected ({record['reason']})" in text
    assert f"outcome: expected 'rejected ({record['reason']})', got 'accepted'" in text
    assert "position before: " in text and "table before the step:" in text and "replay: crescent-ref play" in text
    assert "reference table after the step: unchanged" in text  # the reference refused it


def test_a_wrong_reason_and_a_wrong_pile_are_both_reported(played: list[str]) -> None:
    step = first_refusal(played)
    piles = json.loads(played[step])["state"]["piles"]
    wrong = [list(reversed(p)) if n == 2 else p for n, p in enumerate(piles)]
    verdict = checked(doctored(played, step, {"reason": "no-such-code", "state": {"piles": wrong}}))
    assert verdict.divergence is not None
    assert [m.what for m in verdict.divergence.mismatches] == ["reason", "pile p3"]


def test_the_replay_command_reproduces_the_reference_verdict(
    played: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    step = max(n for n, text in enumerate(played) if n and not json.loads(text)["accepted"])
    assert step > 40  # replayed from a few steps back
    text = format_verdict(check_log(read_lines("g.jsonl", doctored(played, step, {"accepted": True, "reason": None}))))
    command = next(t for t in text.splitlines() if t.strip().startswith("replay:")).split("replay:", 1)[1]
    words = shlex.split(command)
    assert words[:2] == ["crescent-ref", "play"] and "--position" in words
    assert ref_main(words[1:]) in (0, 1), capsys.readouterr().err
    said = [t for t in capsys.readouterr().out.splitlines() if re.match(r"\d+\. ", t)]
    assert f"{json.loads(played[step])['action']}: rejected ({json.loads(played[step])['reason']})" in said[-1]


def pile_limit_log(deviations: dict[str, Any] | None) -> list[str]:
    header = {"crescent_log": 1, "profile": "app", "position": FULL}
    header.update({"deviations": deviations} if deviations else {})
    return [line(header), line({"action": "p2-p1", "accepted": True, "state": {"moves": 1}})]


def test_a_game_without_the_pile_limit_diverges_unless_it_declares_so() -> None:
    plain = check_log(read_lines("nolimit.jsonl", pile_limit_log(None)))
    assert plain.divergence is not None
    assert str(plain.divergence.mismatches[0]) == "outcome: expected 'rejected (pile-full)', got 'accepted'"
    declared = check_log(read_lines("nolimit.jsonl", pile_limit_log({"app": {"pile_limit": None}})))
    assert declared.consistent and declared.profile.name == "app[pile_limit=null]"


def test_deviations_of_another_base_profile_do_not_apply() -> None:
    assert not check_log(read_lines("x.jsonl", pile_limit_log({"open": {"undo_limit": 5}}))).consistent


def test_profile_option_judges_the_log_in_another_profile() -> None:
    assert check_log(read_lines("x.jsonl", pile_limit_log(None)), "open").consistent


def test_a_start_the_reference_refuses_is_a_divergence_at_the_start() -> None:
    tall = FULL.replace("piles:3♣,4♦", "piles:6♣,8♥,3♣,4♦").replace("/6♣,8♥/", "/-/")  # 15 cards on pile 1
    verdict = checked([line({"crescent_log": 1, "profile": "app", "position": tall})])
    assert verdict.divergence is not None and verdict.divergence.record is None
    assert str(verdict.divergence.mismatches[0]).startswith("start: expected 'refused in app: profile app allows")


def test_check_log_command_exit_codes_and_output(
    played: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    write_log(good, played)
    write_log(bad, doctored(played, 12, {"state": {"status": "won"}}))
    assert conformance_main(["check-log", str(good)]) == 0
    assert conformance_main(["check-log", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:13, step 12" in out and "1 of 2 logs consistent" in out


def test_as_scenario_writes_a_scenario_that_passes_on_the_reference(played: list[str], tmp_path: Path) -> None:
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.corpus.lint import lint_scenario
    from conformance.corpus.load import read_file
    from conformance.judging.runner import run_scenario

    log, out = tmp_path / "My Game.jsonl", tmp_path / "found" / "my-game.yaml"
    bare = [line({k: json.loads(t)[k] for k in ("action", "accepted")}) for t in played[1:15]]
    write_log(log, [played[0], *bare, *played[15:25]])
    assert conformance_main(["check-log", str(log), "--as-scenario", str(out)]) == 0
    (scenario,) = read_file(out)
    assert scenario.id == "log-my-game-001" and len(scenario.steps) == 24 and list(lint_scenario(scenario)) == []
    adapter = ReferenceAdapter()
    result = run_scenario(adapter, adapter.info(), scenario, "app")
    assert result.verdict == "passed", result.failure


def test_as_scenario_refuses_a_diverging_log(played: list[str], tmp_path: Path) -> None:
    log, out = tmp_path / "bad.jsonl", tmp_path / "bad.yaml"
    write_log(log, doctored(played, 3, {"state": {"moves": 99}}))
    assert conformance_main(["check-log", str(log), "--as-scenario", str(out)]) == 1
    assert not out.exists()


def test_read_log_reads_a_written_file(played: list[str], tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_log(path, ["", *played, ""])
    assert len(read_log(path).records) == 150


@pytest.mark.parametrize("profile", ["open", "hoffmann-1892", "morehead-1949", "app+closed+give-backs"])
def test_logs_of_every_base_profile_check_clean_and_become_passing_scenarios(profile: str, tmp_path: Path) -> None:
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.corpus.load import read_file
    from conformance.judging.runner import run_scenario

    log, out = tmp_path / f"{profile}.jsonl", tmp_path / "s.yaml"
    write_log(log, random_log(profile, "CR1-N-AAAAAAD", 12, seed=9, fields=("piles", "hidden", "held", "status")))
    assert conformance_main(["check-log", str(log), "--as-scenario", str(out), "-q"]) == 0
    adapter = ReferenceAdapter()
    (scenario,) = read_file(out)
    assert run_scenario(adapter, adapter.info(), scenario, profile).verdict == "passed"
