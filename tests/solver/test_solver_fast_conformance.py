"""The compiled core held like any implementation: ``crescent-conformance run``, ``perft`` and a short
``fuzz`` on ``--impl conformance.adapters.compiled:factory`` pass, and its games really play on it."""

from __future__ import annotations

import pytest

from conformance.adapters.compiled import factory
from conformance.cli import main
from crescent_ref import movegen, transitions
from crescent_ref.profiles import get_profile
from crescent_ref.solver import fast
from crescent_ref.solver.fastgame import DISAGREES, CompiledGame

IMPL = "conformance.adapters.compiled:factory"
pytestmark = pytest.mark.skipif(bool(fast.refusal(get_profile("app"))), reason=fast.MISSING or "not built")


def test_the_compiled_core_passes_the_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--impl", IMPL]) == 0
    out = capsys.readouterr().out
    assert "crescent_ref-compiled-core" in out and " 0 failed, 0 errored, 0 skipped" in out


def test_the_compiled_core_agrees_with_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--impl", IMPL, "--max-depth", "2"]) == 0
    assert "0 unexpected results" in capsys.readouterr().out


@pytest.mark.parametrize("profile", ["app", "open", "hoffmann-1892", "morehead-1949", "app+give-backs"])
def test_a_short_fuzz_finds_nothing(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--impl", IMPL, "--profile", profile, "--games", "12", "--seed", "5", "--quiet"]) == 0
    assert "0 finding(s)" in capsys.readouterr().out


def test_its_games_move_on_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the Python engine was asked")

    for name in ("pile_moves", "foundation_moves", "reason"):
        monkeypatch.setattr(movegen, name, refuse)
    for name in ("move", "reshuffle", "autoplay"):
        monkeypatch.setattr(transitions, name, refuse)
    game = CompiledGame.deal("open", "CR1-N-BAAAAAA")
    for _ in range(10):
        game.play(game.legal_moves()[0])
    game.play("reshuffle")
    assert game.position.reshuffles == 2
    assert factory().info().name == "crescent_ref-compiled-core"


class Refusing:
    """A compiled core that offers no pile move."""

    def __init__(self, real: object) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def pile_moves(self, pos: object) -> list[object]:
        return []


def test_a_move_the_core_refuses_but_the_rules_allow_is_named_so() -> None:
    game = CompiledGame.deal("app", "CR1-N-BAAAAAA")
    assert isinstance(game, CompiledGame)
    move = game.legal_moves()[0]
    game.core = Refusing(game.core)  # type: ignore[assignment]
    game._known = None
    out = game.apply(move)
    assert (out.accepted, out.reason) == (False, DISAGREES)
