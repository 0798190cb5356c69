"""Profile.changed: one or more parameters set otherwise, checked against spec/profiles.yaml."""

from __future__ import annotations

import pytest

from crescent_ref import Game, NotationError
from crescent_ref.profiles import Profile, get_profile, parameter_names


def test_a_change_sets_the_parameter_and_names_itself() -> None:
    p = get_profile("app").changed({"pile_limit": None, "undo_limit": 5})
    assert (p.pile_limit, p.undo_limit, p.reshuffles) == (None, 5, get_profile("app").reshuffles)
    assert p.name == "app[pile_limit=null,undo_limit=5]"


def test_the_repr_pastes_back() -> None:
    p = get_profile("open+four").changed({"between_foundations": True})
    assert eval(repr(p), {"Profile": Profile}) == p


def test_no_change_is_the_same_profile() -> None:
    assert get_profile("app").changed({}) is get_profile("app")


def test_the_engine_plays_by_the_change() -> None:
    game = Game.deal(get_profile("app").changed({"reshuffles": 0}), "CR1-N-AAAAAAB")
    assert game.apply("reshuffle").reason == "no-reshuffles"


@pytest.mark.parametrize(
    ("changes", "quoted"),
    [({"pile_limt": 3}, "pile_limt"), ({"deal": "half"}, 'deal="half"'), ({"pile_limit": "13"}, 'pile_limit="13"'),
     ({"reshuffles": True}, "reshuffles=true"), ({"undo_limit": -1}, "undo_limit=-1")],
)
def test_an_unknown_parameter_or_a_bad_value_is_refused(changes: dict[str, object], quoted: str) -> None:
    with pytest.raises(NotationError, match=quoted):
        get_profile("app").changed(changes)


def test_every_parameter_of_the_file_is_a_profile_field() -> None:
    assert set(parameter_names()) == set(get_profile("app").parameters())
