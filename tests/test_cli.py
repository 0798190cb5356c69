"""The crescent-ref command, the drawn table and the reason messages."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from crescent_ref import Game, NotationError, Position, deal_position, get_profile
from crescent_ref.cards import CARD_TEXT
from crescent_ref.cli import COMMANDS, Command, build_parser, main, parse
from crescent_ref.commands.profiles import yaml_value
from crescent_ref.messages import LANGUAGES, message, reason_codes
from crescent_ref.profiles import base_names, variant_names
from crescent_ref.render import pile_lines, render, status_line
from crescent_ref.spec_files import load_yaml

CODE = "CR1-N-AAAAAAB"
LABEL = re.compile(r"(\d+)·(\d+)")


def labels(drawing: str) -> dict[int, tuple[int, int, int]]:
    """Pile number -> (row, column, count) of each ``N·C`` label in a drawing."""
    found = {}
    for row, line in enumerate(drawing.split("\n")):
        for match in LABEL.finditer(line):
            if line[match.start() - 1 : match.start()] not in ("♠", "♥", "♦", "♣"):
                found[int(match[1])] = (row, match.start(), int(match[2]))
    return found


def card_above(drawing: str, row: int, column: int) -> str:
    """The text in the slot above a label."""
    line = drawing.split("\n")[row - 1]
    return line[column:].split(" ")[0] if column < len(line) else ""


def with_empty_pile(position: Position, pile: int) -> Position:
    """The same table with pile ``pile`` (0-based) emptied onto the next pile."""
    piles = list(position.piles)
    piles[pile + 1] += piles[pile]
    piles[pile] = ()
    return position._replace(piles=tuple(piles))


def hoffmann_hold_position() -> Position:
    """A dealt table where ♠ foundations show 5♠ and 7♠ and 6♠ is held (2♠-Q♠ taken off the piles)."""
    base = deal_position(CODE)
    piles = [list(p) for p in base.piles]
    for card in range(1, 12):  # 2♠ .. Q♠, one copy each
        pile = next(p for p in piles if card in p)
        pile.remove(card)
    return base._replace(piles=tuple(map(tuple, piles)), up=(5, 1, 1, 1), down=(7, 13, 13, 13), held=(6, 0, 0, 0))


# --- the drawing --------------------------------------------------------------------------------


def test_piles_sit_in_the_horseshoe_as_numbered_by_i_pile_numbers() -> None:
    at = labels(render(deal_position(CODE)))
    assert sorted(at) == list(range(1, 17))
    left, top, right = [at[n] for n in range(1, 5)], [at[n] for n in range(5, 13)], [at[n] for n in range(13, 17)]
    assert len({column for _, column, _ in left}) == 1
    assert [row for row, _, _ in left] == sorted((row for row, _, _ in left), reverse=True)  # bottom to top
    assert len({row for row, _, _ in top}) == 1
    assert [column for _, column, _ in top] == sorted(column for _, column, _ in top)  # left to right
    assert len({column for _, column, _ in right}) == 1
    assert [row for row, _, _ in right] == sorted(row for row, _, _ in right)  # top to bottom
    assert left[0][1] < top[0][1] and top[-1][1] < right[0][1]
    assert all(top[0][0] < row for row, _, _ in left + right)


def test_each_pile_shows_its_top_card_over_number_and_count() -> None:
    position = deal_position(CODE)
    drawing = render(position)
    for number, (row, column, count) in labels(drawing).items():
        pile = position.piles[number - 1]
        assert count == len(pile)
        assert card_above(drawing, row, column) == CARD_TEXT[pile[-1]]


def test_an_empty_pile_is_a_blank_slot() -> None:
    drawing = render(with_empty_pile(deal_position(CODE), 6))
    row, column, count = labels(drawing)[7]
    assert count == 0
    assert card_above(drawing, row, column) == ""


def foundation_rows(drawing: str) -> tuple[int, int]:
    lines = drawing.split("\n")
    ace = next(i for i, line in enumerate(lines) if "A♠·" in line)
    king = next(i for i, line in enumerate(lines) if "K♠·" in line)
    return ace, king


def test_ace_row_is_above_king_row_and_shows_top_cards_and_counts() -> None:
    game = Game.deal("app", CODE)
    game.play("p8-A♠")
    drawing = render(game.position)
    ace, king = foundation_rows(drawing)
    assert ace < king
    lines = drawing.split("\n")
    assert re.findall(r"A[♠♥♦♣]·\d+", lines[ace]) == ["A♠·2", "A♥·1", "A♦·1", "A♣·1"]
    assert re.findall(r"K[♠♥♦♣]·\d+", lines[king]) == ["K♠·1", "K♥·1", "K♦·1", "K♣·1"]
    assert lines[ace - 1].split()[1:5] == ["2♠", "A♥", "A♦", "A♣"]


def test_held_card_is_drawn_between_the_rows() -> None:
    position = hoffmann_hold_position()
    Game("hoffmann-1892", position)  # a position the profile accepts
    drawing = render(position)
    ace, king = foundation_rows(drawing)
    lines = drawing.split("\n")
    held_rows = [i for i, line in enumerate(lines) if "held" in line]
    assert len(held_rows) == 1 and ace < held_rows[0] < king - 1
    assert lines[held_rows[0]].split() == ["held", "6♠"]
    assert "held" not in render(deal_position(CODE))


def test_closed_deal_draws_only_face_up_cards() -> None:
    open_deal, closed = deal_position(CODE), deal_position(CODE, closed=True)
    assert render(closed) == render(open_deal)
    for line, pile in zip(pile_lines(closed), closed.piles, strict=True):
        assert line.split()[1:] == ["##"] * 5 + [CARD_TEXT[pile[-1]]]


def test_pile_lines_list_open_piles_bottom_to_top() -> None:
    position = with_empty_pile(deal_position(CODE), 0)
    lines = pile_lines(position)
    assert lines[0] == "p1: -"
    assert lines[1].split()[1:] == [CARD_TEXT[c] for c in position.piles[1]]
    assert render(position, piles=True).endswith("\n".join(lines))


def test_status_line_gives_profile_status_reshuffles_moves_and_foundations() -> None:
    game = Game.deal("app", CODE)
    game.play("p8-A♠")
    line = status_line(game.profile, game.position, "p5")
    assert line.split(" · ") == ["app", "playing", "reshuffles left 3", "moves 1", "foundations 9/104", "selected p5"]


# --- show -----------------------------------------------------------------------------------


def test_show_code_draws_the_deal_in_the_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", CODE, "--profile", "open"]) == 0
    game = Game.deal("open", CODE)
    expected = render(game.position) + "\n\n" + status_line(game.profile, game.position)
    assert capsys.readouterr().out == expected + "\n"


def test_show_position_text(capsys: pytest.CaptureFixture[str]) -> None:
    position = with_empty_pile(deal_position(CODE), 3)
    assert main(["show", position.to_text(), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(render(position))
    assert out.rstrip().endswith(position.to_text())


def test_show_closed_deal_with_piles_hides_face_down_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", CODE, "--profile", "morehead-1949", "--piles"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("\n".join(pile_lines(deal_position(CODE, closed=True))))
    assert "morehead-1949 · playing" in out


# --- play -----------------------------------------------------------------------------------


def test_play_reports_each_action_and_exits_0_when_all_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "app", "--code", CODE, "p8-A♠", "reshuffle"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[0] == "1. p8-A♠: accepted (move) p8-A♠"
    assert lines[1] == "2. reshuffle: accepted (reshuffle)"


def test_play_goes_on_after_a_refusal_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    actions = ["p5-A♠", "p8-A♠", "undo"]
    assert main(["play", "--profile", "app", "--code", CODE, *actions]) == 1
    out = capsys.readouterr().out
    assert out.split("\n")[0] == f"1. p5-A♠: rejected (wrong-suit) {message('wrong-suit', 'en')}"
    assert "3. undo: accepted (undo)" in out
    game = Game.deal("app", CODE)
    for action in actions:
        game.apply(action)
    assert status_line(game.profile, game.position) in out
    assert render(game.position) in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_gives_the_refusal_in_the_chosen_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "open", "--code", CODE, "--lang", lang, "undo"]) == 1
    expected = f"1. undo: rejected (undo-unavailable) {message('undo-unavailable', lang)}"
    assert capsys.readouterr().out.startswith(expected)


def test_play_joins_tap_and_its_place_given_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "app", "--code", CODE, "tap", "p3", "drop", "p8"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[0].startswith("1. tap p3: accepted")
    assert lines[1] == "2. drop p8: accepted (move) p8-A♠"


def test_play_shows_a_pending_selection(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.deal("app", CODE)
    selecting = next(f"tap p{n}" for n in range(1, 17) if game.apply(f"tap p{n}", dry_run=True).effect == "select")
    assert main(["play", "--profile", "app", "--code", CODE, selecting]) == 0
    assert f"selected {selecting.split()[1]}" in capsys.readouterr().out


def test_play_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    text = hoffmann_hold_position().to_text()
    assert main(["play", "--profile", "hoffmann-1892", "--position", text]) == 0
    assert "held" in capsys.readouterr().out


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["show", "CR2-N-AAAAAAA"], "CR2-N-AAAAAAA"),
        (["show", "CR1-N-AAAAAA"], "CR1-N-AAAAAA"),
        (["show", "up:A♠ down:K♠"], "up:A♠ down:K♠"),
        (["show", CODE, "--profile", "app+seven"], "app+seven"),
        (["play", "--profile", "app", "--code", CODE, "p8-Z♠"], "p8-Z♠"),
        (["play", "--profile", "app", "--code", CODE, "p17-p1"], "p17-p1"),
        (["play", "--profile", "app", "--code", "CR1-X-AAAAAAA"], "CR1-X-AAAAAAA"),
        (
            ["play", "--profile", "open", "--position", deal_position(CODE, closed=True).to_text()],
            "pile 1: [8♦,5♠,6♦,10♠,Q♦],8♦",
        ),
    ],
)
def test_bad_input_is_one_quoting_line_and_exit_2(
    argv: list[str], quoted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert quoted in err


@pytest.mark.parametrize(
    "argv",
    [[], ["dance"], ["play", "--code", CODE], ["play", "--profile", "app", "--code", CODE, "--lang", "fr"],
     ["perft", "--code", CODE, "--depth", "-1"], ["perft", "--code", CODE, "--depth", "21"],
     ["perft", "--code", CODE, "--depth", "99999999999"]],
)
def test_bad_arguments_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("crescent-ref") and err.count("\n") == 1 and "(see --help)" in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in COMMANDS)


def test_play_help_names_the_exit_status_of_a_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 when every action was accepted, 1 when the engine refused one" in out
    assert "2 on bad input" in out


# --- profiles ---------------------------------------------------------------------------------


def listed_parameters(out: str) -> dict[str, dict[str, str]]:
    """Entry name -> its ``key=value`` parameters, from the ``profiles`` listing."""
    entries: dict[str, dict[str, str]] = {}
    name = ""
    for line in out.split("\n"):
        if re.match(r"^  \S", line):
            name = line.split()[0]
            entries[name] = {}
        elif line.startswith("    "):
            entries[name].update(pair.partition("=")[::2] for pair in line.split())
    return entries


def test_profiles_lists_every_base_and_variant_with_its_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    listed = listed_parameters(capsys.readouterr().out)
    assert list(listed) == base_names() + variant_names()
    for name in base_names():
        assert listed[name] == {k: yaml_value(v) for k, v in get_profile(name).parameters().items()}
    for name in variant_names():
        params = load_yaml("profiles.yaml")["variants"][name]["parameters"]
        assert listed[name] == {k: yaml_value(v["value"]) for k, v in params.items()}


def test_profiles_name_shows_the_combined_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles", "open+four+closed"]) == 0
    out = capsys.readouterr().out
    assert "reshuffles = 4" in out and "deal = closed" in out and "autoplay = true" in out


# --- the command table and the entry point ----------------------------------------------------


def test_a_new_subcommand_is_one_entry(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--port", type=int, default=0)

    def run(args: argparse.Namespace) -> int:
        print(f"port {args.port}")
        return 0

    monkeypatch.setitem(COMMANDS, "serve", Command("serve over stdio", configure, run))
    assert main(["serve", "--port", "7"]) == 0
    assert capsys.readouterr().out == "port 7\n"


LINES = [
    ["--help"], ["serve"], ["serve", "--help"], ["serve", "extra"], ["show", "--help"], ["play", "--help"],
    ["solve", "--help"], ["perft", "--help"], ["profiles", "--help"], ["bogus"], [], ["show"],
    ["play", "--profile", "app", "--code", CODE, "--position", "x"], ["solve", CODE, "--seconds", "-1"],
    ["play", "--profile", "app", "--code", CODE, "show"],
]


@pytest.mark.parametrize("words", LINES, ids=" ".join)
def test_the_lazy_parser_reads_every_line_as_the_whole_one(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    def outcome(parser: argparse.ArgumentParser) -> tuple[object, str, str]:
        try:
            parsed: object = vars(parser.parse_args(words))
        except SystemExit as stop:
            parsed = stop.code
        out, err = capsys.readouterr()
        return parsed, out, err

    whole = outcome(build_parser())
    assert outcome(build_parser(words)) == whole
    if words == ["serve"]:
        assert parse(words).__dict__ == whole[0] == {"command": "serve"}  # the bare path, without argparse


def test_serve_alone_starts_without_argparse_or_the_other_subcommands() -> None:
    probe = (
        "import sys; from crescent_ref.cli import main; main(['serve']); "
        "print(sorted(m for m in sys.modules if m in ('argparse', 'shlex', 'traceback') "
        "or m.startswith(('crescent_ref.commands', 'crescent_ref.render', 'crescent_ref.solver'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], input='{"cmd": "stop"}\n', capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_subcommand_named_on_the_line_is_the_only_one_imported() -> None:
    probe = (
        "import sys; from crescent_ref.cli import main; main(['profiles', 'app']); "
        "print(sorted(m for m in sys.modules if m.startswith('crescent_ref.commands.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['crescent_ref.commands.common', 'crescent_ref.commands.profiles']"


def test_module_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "crescent_ref.cli", "show", CODE],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0
    assert render(Game.deal("app", CODE).position) in done.stdout


# --- messages ---------------------------------------------------------------------------------


def test_every_reason_has_a_message_in_every_language() -> None:
    entries = {e["code"]: e for e in load_yaml("reasons.yaml")["reasons"]}
    assert reason_codes() == list(entries)
    for code in reason_codes():
        for lang in LANGUAGES:
            assert message(code, lang) == entries[code][lang] and message(code, lang).strip()


def test_unknown_reason_or_language_is_a_notation_error_quoting_it() -> None:
    with pytest.raises(NotationError, match="no-such-reason"):
        message("no-such-reason", "en")
    with pytest.raises(NotationError, match="'fr'"):
        message("wrong-suit", "fr")
