"""One expectations file is read alike by every command that takes it: a key naming no scenario or no perft
case is bad input everywhere (exit 2, the file, its line and the key), before any implementation starts,
and a file whose keys all name something is accepted everywhere, whichever kinds of keys it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from conformance.explore.perft import cases

LOG = '{"crescent_log": 1, "profile": "app", "code": "CR1-N-AAAAAAB"}\n{"action": "undo", "accepted": false}\n'


def command(name: str, tmp: Path) -> list[str]:
    """The shortest line of each command that reads --expectations."""
    (tmp / "game.jsonl").write_text(LOG, encoding="utf-8")
    return {
        "run": ["run", "-q", "--id", "autoplay-001"],
        "smoke": ["smoke"],
        "perft": ["perft", "--max-depth", "1"],
        "winnable": ["winnable", "--codes", "CR1-N-BAAAAAA", "--seconds", "20"],
        "fuzz": ["fuzz", "--games", "1", "--steps", "3", "--no-shrink", "--quiet", "--out", str(tmp / "found")],
        "check-log": ["check-log", "-q", str(tmp / "game.jsonl")],
    }[name]


COMMANDS = ["run", "smoke", "perft", "winnable", "fuzz", "check-log"]
CASE = cases()[0]
BAD = {
    "nosuch-001": "no scenario has the id 'nosuch-001'",
    "autoplay-001[app+nosuch]": "scenario autoplay-001 does not run in profile 'app+nosuch'",
    "perft/nosuch": "no perft case has the name 'nosuch'",
    f"perft/{CASE.name}[open+nine]": f"perft case {CASE.name} has no counts in profile 'open+nine'",
}


@pytest.mark.parametrize("key", list(BAD))
@pytest.mark.parametrize("name", COMMANDS)
def test_a_key_naming_nothing_is_bad_input_in_every_command(
    name: str, key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known = tmp_path / "known.yaml"
    known.write_text(f"deviations:\n  {key}: why\n", encoding="utf-8")
    assert main([*command(name, tmp_path), "--expectations", str(known)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"known.yaml:2: deviations/{key}: {BAD[key]}" in err, err


@pytest.mark.parametrize("name", COMMANDS)
def test_a_file_of_every_kind_of_key_is_read_by_every_command(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Keys of other kinds are left to their commands (logs, codes and fuzz rules may name another run's)."""
    known = tmp_path / "known.yaml"
    keys = ["piles-003[open]", f"perft/{CASE.name}[{CASE.profile}]", "log/other.jsonl",
            "winnable/CR1-N-ZZZZZZZ[app]", "fuzz/reason:wrong-suit"]  # fmt: skip
    known.write_text("deviations:\n" + "".join(f"  {key}: why\n" for key in keys), encoding="utf-8")
    assert main([*command(name, tmp_path), "--expectations", str(known)]) != 2, capsys.readouterr().err
