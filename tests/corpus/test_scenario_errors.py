"""A scenario file written wrong fails with its file, line, id and the JSON path of the fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.corpus.lint import iter_lint
from conformance.corpus.load import read_file
from crescent_ref.errors import ScenarioError

GOOD_POSITION = (
    "up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:2♠,3♠,4♠,5♠,6♠,7♠/8♠,9♠,10♠,J♠,Q♠,2♥/3♥,4♥,5♥,6♥,7♥,8♥/"
    "9♥,10♥,J♥,Q♥,2♦,3♦/4♦,5♦,6♦,7♦,8♦,9♦/10♦,J♦,Q♦,2♣,3♣,4♣/5♣,6♣,7♣,8♣,9♣,10♣/J♣,Q♣,A♠,2♠,3♠,4♠/"
    "5♠,6♠,7♠,8♠,9♠,10♠/J♠,Q♠,K♠,A♥,2♥,3♥/4♥,5♥,6♥,7♥,8♥,9♥/10♥,J♥,Q♥,K♥,A♦,2♦/3♦,4♦,5♦,6♦,7♦,8♦/"
    "9♦,10♦,J♦,Q♦,K♦,A♣/2♣,3♣,4♣,5♣,6♣,7♣/8♣,9♣,10♣,J♣,Q♣,K♣ reshuffles:3 moves:0"
)


def scenario_text(step: str = "      - {action: p1-p2, outcome: accepted}", extra: str = "") -> str:
    return f"""# yaml-language-server: $schema=../schema/scenario.schema.json
area: piles
scenarios:
  - id: test-001
    title: A scenario for error tests
    source: {{doc: 000_3303cbcae4869e02.txt, section: Langkah, quote: "x"}}
    statements: [000-moves-01]
    profiles: [app]
{extra}    given:
      position: "{GOOD_POSITION}"
    steps:
{step}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_reads(tmp_path: Path) -> None:
    [sc] = read_file(write(tmp_path, scenario_text()))
    assert (sc.id, sc.line, sc.steps[0].line) == ("test-001", 4, 12)


def test_unknown_property_names_line_and_path(tmp_path: Path) -> None:
    path = write(tmp_path, scenario_text("      - {action: p1-p2, outcome: accepted, colour: red}"))
    with pytest.raises(ScenarioError) as err:
        read_file(path)
    assert (
        err.value.line == 12 and err.value.where == "test-001: $.scenarios[0].steps[0]" and "colour" in str(err.value)
    )


def test_bad_outcome_value_is_quoted(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="'maybe'") as err:
        read_file(write(tmp_path, scenario_text("      - {action: p1-p2, outcome: maybe}")))
    assert err.value.where == "test-001: $.scenarios[0].steps[0].outcome"


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="YAML syntax") as err:
        read_file(write(tmp_path, scenario_text("      - {action: p1-p2, outcome: [accepted}")))
    assert err.value.line == 12


def test_duplicate_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="duplicate key 'title'"):
        read_file(write(tmp_path, scenario_text(extra="    title: again and again\n")))


def test_lint_names_unknown_reason_and_bad_action(tmp_path: Path) -> None:
    steps = "      - {action: p1-p2, outcome: rejected, reason: too-tired}\n      - {action: p1-p99, outcome: accepted}"
    errors = [str(e) for e in iter_lint(read_file(write(tmp_path, scenario_text(steps))))]
    assert any("too-tired" in e and ":12:" in e for e in errors)
    assert any("p1-p99" in e and ":13:" in e for e in errors)


def test_lint_requires_declared_features(tmp_path: Path) -> None:
    errors = [str(e) for e in iter_lint(read_file(write(tmp_path, scenario_text("      - {action: undo}"))))]
    assert any("'undo'" in e and "features" in e for e in errors)
