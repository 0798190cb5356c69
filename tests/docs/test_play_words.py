"""The play control's words: the same entries with the same holes in every language, and every word play.js asks for."""

from __future__ import annotations

import re

import pytest

from conformance.docs.play_words import HOLE, WORDS, word
from conformance.docs.playing import asset, play_script
from crescent_ref.messages import LANGUAGES

ASKED = re.compile(r"""\bt\('([a-z-]+)'""")
LABELLED = re.compile(r"""'(?:aria-label|placeholder)', '([a-z-]+)'\)""")
BUTTON = re.compile(r"""\bbutton\('[a-z]+', '([a-z-]+)', .*?(, '.')?\)[,;]?$""", re.M)


def test_every_language_of_the_messages_has_the_words() -> None:
    assert sorted(WORDS) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", [lang for lang in WORDS if lang != "en"])
def test_each_language_has_the_english_entries_with_the_same_holes(lang: str) -> None:
    assert WORDS[lang].keys() == WORDS["en"].keys()
    for key, english in WORDS["en"].items():
        assert sorted(HOLE.findall(WORDS[lang][key])) == sorted(HOLE.findall(english)), (lang, key)
        assert WORDS[lang][key].strip(), (lang, key)


def test_every_word_play_js_asks_for_is_there() -> None:
    script = asset("play.js")
    asked = set(ASKED.findall(script)) | set(LABELLED.findall(script))
    for key, symbol in BUTTON.findall(script):  # a button with a symbol has a title; one with a word, both
        asked |= {key} if symbol else {key, f"{key}-title"}
    asked |= {f"{group}-{value}" for group, values in (
        ("status", ("playing", "waiting", "lost", "won")),
        ("effect", ("move", "select", "deselect", "reshuffle", "undo")),
    ) for value in values}  # fmt: skip
    assert len(asked) > 30 and asked <= WORDS["en"].keys(), asked - WORDS["en"].keys()


def test_holes_are_filled_as_the_page_fills_them() -> None:
    assert word("en", "at", at=2, n=5) == "step 2 of 5"
    assert word("zh", "at", at=2, n=5) == "第 2 步，共 5 步"
    with pytest.raises(KeyError):
        word("en", "at", at=2)


def test_the_play_script_carries_the_words_and_both_layouts() -> None:
    script = play_script()
    assert "const WORDS = {" in script and '"urungkan"' in script and '"narrow": {' in script
