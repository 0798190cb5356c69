"""--profile and --id mean the same in every command that offers them (``run`` and ``list``), a command
offers only the selection it honours (``lint`` reads the whole corpus: --scenarios alone), and a profile
name that does not exist is the same user error wherever a command takes one (``winnable``, ``fuzz``,
``check-log``, ``badge``: before anything is read or started)."""

from __future__ import annotations

import itertools

import pytest

from conformance.adapters.session import plan
from conformance.cli import main
from conformance.corpus.load import load_corpus


def listed(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, list[str]]:
    """``list``'s rows as scenario id -> the profiles shown."""
    assert main(["list", *options]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    return {row[0]: row[1].split(",") for row in rows}


@pytest.mark.parametrize("options", [(), ("--profile", "app"), ("--profile", "app+four"),
                                     ("--profile", "hoffmann-1892", "--profile", "open+closed"),
                                     ("--id", "autoplay-001", "--profile", "morehead-1949")])  # fmt: skip
def test_list_shows_the_pairs_run_would_play(options: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    profiles = [v for k, v in itertools.pairwise(options) if k == "--profile"]
    ids = [v for k, v in itertools.pairwise(options) if k == "--id"]
    expected: dict[str, list[str]] = {}
    for scenario, profile in plan(load_corpus(), profiles, ids):
        expected.setdefault(scenario.id, []).append(profile)
    assert expected, "the selection should match something"
    assert listed(capsys, *options) == expected


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["list", "--profile", "nosuch"], "unknown base profile 'nosuch'"),
        (["list", "--id", "nosuch-001"], "no scenario has the id(s) 'nosuch-001'"),
        (["lint", "--profile", "app"], "unrecognized arguments: --profile app"),
        (["winnable", "--profile", "nosuch", "--codes", "CR1-N-AAAAAAB"], "unknown base profile 'nosuch'"),
        (["fuzz", "--profile", "app+nosuch", "--games", "1"], "unknown variant 'nosuch'"),
        (["check-log", "--profile", "nosuch", "any.jsonl"], "unknown base profile 'nosuch'"),
        (["badge", "any.json", "--profile", "nosuch"], "unknown base profile 'nosuch'"),
        (["lint", "--id", "autoplay-001"], "unrecognized arguments: --id autoplay-001"),
    ],
)
def test_a_selection_a_command_cannot_honour_is_a_user_error(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
