"""crescent-conformance run, perft and smoke: expectations files, not claimed apart from skipped, --validate-protocol,
a banner on stdout."""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path

import jsonschema
import pytest
from harness import PYTHON, SERVE, cli, corpus, key, run_pairs
from mutants import BY_NAME, MutantAdapter

from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.session import make_adapter, plan
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main
from conformance.explore.perft import PerftCase, cases, check
from conformance.judging.report import area_summary, counts, result_record
from conformance.judging.runner import run_scenario
from crescent_ref.spec_files import spec_dir

MUTANT = "no_pile_wrap"
IDS = ("piles-001", "piles-002", "piles-006", "piles-007")


@functools.cache
def failing_keys() -> tuple[str, ...]:
    results = run_pairs(MutantAdapter(BY_NAME[MUTANT]), plan(corpus(), ["app"], IDS))
    return tuple(sorted(k for k, r in results.items() if r.verdict == "failed"))


def expectations(path: Path, keys: list[str]) -> Path:
    path.write_text("deviations:\n" + "".join(f"  {k}: known\n" for k in keys), encoding="utf-8")
    return path


def run_args(file: Path | None) -> list[str]:
    args = ["run", "--impl", f"mutants:{MUTANT}", "--profile", "app"]
    args += [a for i in IDS for a in ("--id", i)]
    return args + (["--expectations", str(file)] if file else [])


def test_run_fails_on_the_mutant_and_passes_with_its_failures_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert failing_keys()
    assert main(run_args(None)) == 1
    assert main(run_args(expectations(tmp_path / "e.yaml", list(failing_keys())))) == 0
    out = capsys.readouterr().out
    assert f"{len(failing_keys())} expected failure" in out


def test_run_fails_when_an_expected_failure_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    passing = next(k for k in (key(p) for p in plan(corpus(), ["app"], IDS)) if k not in failing_keys())
    file = expectations(tmp_path / "e.yaml", [*failing_keys(), passing])
    assert main(run_args(file)) == 1
    out = capsys.readouterr().out
    assert f"UNEXPECTED PASS: {passing}" in out and "1 unexpectedly passed" in out


def test_a_malformed_expectations_key_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = expectations(tmp_path / "e.yaml", ["Piles 1"])
    assert main(run_args(file)) == 2
    err = capsys.readouterr().err
    assert "e.yaml" in err and "'Piles 1'" in err and len(err.strip().splitlines()) == 1


@functools.cache
def perft_failures() -> tuple[str, ...]:
    adapter = MutantAdapter(BY_NAME[MUTANT])
    shallow = [PerftCase(c.name, c.profile, c.position, {d: n for d, n in c.counts.items() if d <= 2}) for c in cases()]
    return tuple(f"perft/{c.name}[{c.profile}]" for c in shallow if check(adapter, c))


def test_perft_divides_down_to_the_shortest_differing_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert perft_failures()
    assert main(["perft", "--impl", f"mutants:{MUTANT}", "--max-depth", "2"]) == 1
    out = capsys.readouterr().out
    assert "shortest differing path: p11-p3" in out and "missing actions: p11-p12, p12-p11" in out
    assert "crescent-ref play --profile app --position" in out


def test_perft_takes_an_expectations_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = expectations(tmp_path / "e.yaml", list(perft_failures()))
    assert main(["perft", "--impl", f"mutants:{MUTANT}", "--max-depth", "2", "--expectations", str(file)]) == 0
    assert "expected failure (known)" in capsys.readouterr().out
    extra = expectations(tmp_path / "x.yaml", ["perft/deal-AAAAAAB[open]"])
    assert main(["perft", "--impl", "reference", "--max-depth", "1", "--expectations", str(extra)]) == 1
    assert "UNEXPECTED PASS: perft/deal-AAAAAAB[open]" in capsys.readouterr().out


def test_perft_counts_a_declared_deviation_from_the_reference_under_it() -> None:
    case = next(c for c in cases() if c.profile == "app")
    declared = ReferenceAdapter({"app": {"pile_wrap": False}})
    shallow = PerftCase(case.name, case.profile, case.position, {d: n for d, n in case.counts.items() if d <= 2})
    assert check(declared, shallow)
    assert check(declared, shallow, declared.info().reference_profile("app")) == []


def test_not_claimed_is_counted_apart_from_skipped() -> None:
    reference = ReferenceAdapter()
    info = dataclasses.replace(reference.info(), profiles=("open",), capabilities=frozenset({"game-codes"}))
    results = [run_scenario(reference, info, sc, p) for sc, p in plan(corpus(), [], ["undo-001", "piles-001"])]
    tally = counts([result_record(r) for r in results])
    assert tally["not claimed"] > 0 and tally["skipped"] > 0
    assert all(r.claimed == (r.profile.split("+")[0] == "open") for r in results if r.verdict == "skipped")
    assert any("not claimed" in line for line in area_summary(results))


def test_help_says_what_a_base_profile_selects(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["run", "--help"])
    except SystemExit as done:
        code = int(done.code or 0)
    assert code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "a base name (app) takes the base and every variant of it" in out
    assert "--validate-protocol" in out and "--expectations" in out


def test_validate_protocol_checks_every_message_of_a_run(capsys: pytest.CaptureFixture[str]) -> None:
    adapter = make_adapter(cmd=SERVE, validate=True)
    assert isinstance(adapter, StdioAdapter) and adapter.validate
    assert main(["run", "--cmd", SERVE, "--validate-protocol", "--id", "piles-001", "-q"]) == 0
    assert "0 failed" in capsys.readouterr().out


def test_a_run_states_declared_deviations_first_and_reports_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    args = ["run", "--impl", "declaring:no_pile_limit", "--profile", "app", "--report", str(report)]
    assert main([*args, "--id", "pile-limit-001", "--id", "piles-001", "--id", "undo-004"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("DECLARED DEVIATIONS: app, except pile_limit=null, undo_limit=5 (2 scenario runs")
    assert "(as declared: app, except pile_limit=null, undo_limit=5)" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    schema = json.loads((spec_dir() / "schema" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert data["deviations"] == {"app": {"pile_limit": None, "undo_limit": 5}}
    judged = {f"{r['id']}[{r['profile']}]": r.get("judged_as") for r in data["results"]}
    assert judged["pile-limit-001[app]"] == judged["undo-004[app]"] == "app, except pile_limit=null, undo_limit=5"
    assert judged["piles-001[app]"] is None


def test_a_verdict_only_run_reports_the_checks_not_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    assert main(["run", "--impl", "verdict_only:factory", "--id", "reasons-001", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "not checked: the reason code of a refusal" in out and "(capability reasons not declared)" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert "reasons" in data["unchecked"]
    assert any("reasons: no capability reasons" in r.get("unchecked", []) for r in data["results"])


def test_an_adapter_that_cannot_be_loaded_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--impl", "no_such_module:factory", "--id", "piles-001"]) == 2
    err = capsys.readouterr().err.strip()
    assert "'no_such_module:factory'" in err and "cannot load the adapter" in err and "\n" not in err


def test_smoke_says_where_a_banner_on_stdout_belongs(tmp_path: Path) -> None:
    banner = tmp_path / "banner.sh"
    banner.write_text(f"echo 'My Crescent 1.0 starting...'\nexec {PYTHON} -m crescent_ref.serve\n", encoding="utf-8")
    done = cli("smoke", "--cmd", f"sh {banner}", "--timeout", "30")
    assert done.returncode == 1 and "handshake failed" in done.stdout and "My Crescent 1.0" in done.stdout, done.stdout
    assert "write banners and logs to stderr" in done.stdout, done.stdout
    ran = cli("run", "--cmd", f"sh {banner}", "--timeout", "30", "--id", "piles-001")
    assert ran.returncode == 1 and "HANDSHAKE FAILED" in ran.stderr and "banners and logs to stderr" in ran.stderr


@pytest.mark.parametrize(
    ("fault", "hint"),
    [
        ("wrote a line that is not JSON (garbage) (exit code -9)\nseen on stdout: b'My game 1.0'", "stderr"),
        ("wrote a line that is not JSON (garbage) (exit code -9)\nseen on stdout: b'{'", "one line of JSON"),
        ("wrote a line that is not JSON (garbage) (exit code -9)\nseen on stdout: b'[ '", "one line of JSON"),
        ("no reply within 10s (hang) (exit code -9)", "flush stdout"),
        ("closed its output (exit code 0)", "keep reading requests"),
        ("exited (crash) (exit code 1)", None),
    ],
)
def test_a_failed_handshake_gets_the_hint_its_fault_calls_for(fault: str, hint: str | None) -> None:
    from conformance.wording import fault_hints

    hints = fault_hints(f"handshake failed: implementation x: {fault}")
    assert (hints == []) if hint is None else (len(hints) == 1 and hint in hints[0]), hints
