"""What the terminal reports say to people: sources and files named as on the pages, one unit counted, what did
not run and why, a cap on the failures printed, the next step, and a first word before the corpus is read."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from harness import corpus, run_pairs
from mutants import BY_NAME, MutantAdapter

from conformance.adapters.session import plan
from conformance.cli import main
from conformance.cli import run as run_command
from conformance.cli.docs import written_text
from conformance.contract import DEALING_AREAS
from conformance.corpus.load import load_corpus
from conformance.judging.report import failure_headline, format_failure
from conformance.judging.runner import Result
from conformance.wording import citation_text, grounds_of, not_run, shown_path, source_name
from crescent_ref.spec_files import load_yaml, spec_dir

MUTANT = "pile_limit_14"  # fails a few pile-limit scenarios of the app
APP_ONLY = ["run", "--impl", "app_only:factory"]
LACKS = ("game-codes", "tap", "legal-moves")


def failing_result() -> Result:
    results = run_pairs(MutantAdapter(BY_NAME[MUTANT]), plan(corpus(), ["app"], ["pile-limit-001"]))
    (found,) = results.values()
    assert found.verdict == "failed"
    return found


def test_sources_are_named_as_the_pages_name_them() -> None:
    documents = load_yaml("sources.yaml")["documents"]
    for entry in documents:
        assert source_name(entry["file"]) == f"{entry['file'][:3]} ({entry['language_name']})"
    assert source_name("notes.txt") == "notes.txt"


def test_a_failure_names_its_sources_and_its_file_as_on_the_pages() -> None:
    text = format_failure(failing_result())
    assert "rule: 000 (Indonesian) § " in text and ".txt" not in text
    assert re.search(r"^  spec/scenarios/pile-limit\.yaml:\d+, step 1: ", text, re.M), text
    assert "interpretation: I-PILE-LIMIT" in text


def test_a_scenario_file_is_shown_relative_to_the_corpus_or_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert shown_path(str(spec_dir() / "scenarios" / "piles.yaml")) == "spec/scenarios/piles.yaml"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    assert shown_path(str(tmp_path / "mine" / "x.yaml")) == "mine/x.yaml"
    assert shown_path("/elsewhere/x.yaml") == "/elsewhere/x.yaml"
    installed = "/opt/venv/lib/python3.11/site-packages/crescent_ref/spec/scenarios/undo.yaml"
    assert shown_path(installed) == "spec/scenarios/undo.yaml"


def test_grounds_of_a_record_come_from_the_corpus() -> None:
    sc = next(s for s in corpus() if s.sources and s.interpretations)
    found = grounds_of(sc.id)
    assert found.sources == tuple(citation_text(c) for c in sc.sources)
    assert found.lines()[-1] == f"interpretation: {', '.join(sc.interpretations)}"
    assert grounds_of("no-such-id").lines() == []


def app_only_needs() -> Counter[str]:
    """What the app-only engine's claimed runs lack, counted from the corpus (not from the runner)."""
    needs: Counter[str] = Counter()
    for sc, profile in plan(corpus()):
        if profile == "app":
            needed = set(sc.features) | ({"game-codes"} if sc.code else set())
            if sc.code and sc.area not in DEALING_AREAS:
                needed.discard("game-codes")  # it starts from the position its code deals (spec/protocol.md)
            needs.update(needed & set(LACKS))
    return needs


def test_run_says_what_did_not_run_and_why_most_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(APP_ONLY) == 0
    out = capsys.readouterr().out
    needs = app_only_needs()
    line = next(x for x in out.splitlines() if x.startswith("not run, and why ("))
    shown = [(int(n), what) for n, what in re.findall(r"(\d+) need ([\w-]+)", line)]
    assert shown == sorted(((n, w) for w, n in needs.items()), key=lambda p: (-p[0], p[1]))
    unclaimed = next(x for x in out.splitlines() if x.startswith("not claimed ("))
    assert "open " in unclaimed and "hoffmann-1892 " in unclaimed and "+give-backs " in unclaimed
    total = len(plan(corpus()))
    assert f"{total} scenario runs of {len(corpus())} scenarios: " in out
    assert f"next: {shown[0][0]} scenario runs need {shown[0][1]}; " in out


def test_the_breakdown_reads_the_same_from_the_saved_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    assert main([*APP_ONLY, "--report", str(report), "-q"]) == 0
    ran = [x for x in capsys.readouterr().out.splitlines() if x.startswith(("not run", "not claimed"))]
    assert main(["report", str(report)]) == 0
    printed = [x for x in capsys.readouterr().out.splitlines() if x.startswith(("not run", "not claimed"))]
    records = json.loads(report.read_text(encoding="utf-8"))["results"]
    assert ran == printed == not_run(records).lines() and len(ran) == 2


def mutant_args(*more: str) -> list[str]:
    return ["run", "--impl", f"mutants:{MUTANT}", "--profile", "app", "--id", "pile-limit-001", "--id",
            "pile-limit-002", "--id", "pile-limit-003", "--id", "piles-001", *more]  # fmt: skip


def test_max_failures_prints_the_first_in_full_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(mutant_args()) == 1
    everything = capsys.readouterr().out
    failing = len(re.findall(r"^scenario \S+ \[app\] FAILED", everything, re.M))
    assert failing >= 2
    assert main(mutant_args("--max-failures", "1")) == 1
    out = capsys.readouterr().out
    assert len(re.findall(r"^scenario \S+ \[app\] FAILED", out, re.M)) == 1
    assert f"... and {failing - 1} more failing scenario runs not shown (--max-failures 1" in out
    assert f"{failing} failed" in out


def test_run_ends_with_next_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(mutant_args()) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    steps = [x for x in lines if x.startswith("next: ")]
    assert lines[-1].startswith("next: ") and steps[0].startswith("next: fix pile-limit-00")
    assert "--profile app --id pile-limit-00" in steps[0]
    assert any("--report report.json" in s for s in steps)


def test_run_says_a_word_before_it_reads_the_corpus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(run_command, "shown", lambda quiet=False: not quiet)
    seen: list[str] = []
    real = load_corpus

    def load(*args: object) -> object:
        seen.append(capsys.readouterr().err)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr("conformance.cli.run.load_corpus", load)
    assert main(["run", "--id", "piles-001"]) == 0
    assert seen and seen[0].startswith("crescent-conformance run: reading the corpus")
    after = capsys.readouterr().err
    assert "\033[K" in after and "crescent-conformance run: handshake with the implementation ..." in after


def test_the_report_command_names_sources_and_caps_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    main(mutant_args("--report", str(report), "-q"))
    capsys.readouterr()
    assert main(["report", str(report), "--max-failures", "1"]) == 0
    out = capsys.readouterr().out
    assert "rule: 000 (Indonesian) § " in out and "spec/scenarios/pile-limit.yaml:" in out
    assert "more failing scenario runs not shown" in out
    assert failure_headline(failing_result()).startswith("outcome: expected 'rejected (pile-full)', got 'accepted'")


def test_docs_counts_what_it_writes_by_kind() -> None:
    assert written_text([Path(f"{n}.html") for n in range(9)] + [Path("crescent-play.js")]) == "9 pages and a script"
    assert written_text([Path("index.html")]) == "1 page"
