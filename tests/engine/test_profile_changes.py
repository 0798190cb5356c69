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



def corpus_position(sid: str) -> str:
    from conformance.corpus.load import load_corpus

    return next(sc.position or "" for sc in load_corpus() if sc.id == sid)


@pytest.mark.parametrize(
    ("order", "made"),
    [
        ("ascending", ["p1-p2", "p3-K♥", "p3-K♥", "p5-A♠"]),
        ("descending", ["p1-p2", "p5-A♠", "p3-K♥", "p3-K♥"]),
        ([5, *range(1, 5), *range(6, 17)], ["p1-p2", "p5-A♠", "p3-K♥", "p3-K♥"]),
        ([4, 3, *range(5, 17), 1, 2], ["p1-p2", "p3-K♥", "p3-K♥", "p5-A♠"]),
    ],
)
def test_autoplay_looks_at_the_piles_in_the_declared_order(order: object, made: list[str]) -> None:
    game = Game.from_text(get_profile("open").changed({"autoplay_order": order}), corpus_position("autoplay-006"))
    assert game.apply("p1-p3").reason == "wrong-rank"
    assert [str(m) for m in game.apply("p1-p2").moves] == made


def test_an_autoplay_order_list_is_kept_as_a_tuple_and_its_repr_pastes_back() -> None:
    order = [*range(16, 0, -1)]
    p = get_profile("open").changed({"autoplay_order": order})
    assert p.autoplay_order == tuple(order) and hash(p)
    assert eval(repr(p), {"Profile": Profile}) == p


@pytest.mark.parametrize("bad", ["sideways", [1, 2, 3], [*range(1, 16), 15], [*range(1, 16), True], 16])
def test_a_bad_autoplay_order_is_refused(bad: object) -> None:
    with pytest.raises(NotationError, match="autoplay_order"):
        get_profile("open").changed({"autoplay_order": bad})


def test_autoplay_only_after_a_reshuffle_leaves_the_deal_and_moves_alone() -> None:
    when = get_profile("open").changed({"autoplay_when": "reshuffle"})
    dealt, plain = Game.deal(when, "CR1-N-AAAAAAB"), Game.deal("open", "CR1-N-AAAAAAB")
    assert dealt.position != plain.position  # the base autoplays on the fresh deal
    loaded = Game.from_text("open", dealt.position.to_text())  # the base, from the same position
    assert dealt.apply("reshuffle").moves == loaded.apply("reshuffle").moves


def test_autoplay_only_after_a_reshuffle_does_not_follow_a_move() -> None:
    start = corpus_position("autoplay-001")  # the 2♠ uncovered on pile 1 fits only its foundation
    base = Game.from_text("open", start).apply("p1-p2")
    when = Game.from_text(get_profile("open").changed({"autoplay_when": "reshuffle"}), start).apply("p1-p2")
    assert [str(m) for m in base.moves] == ["p1-p2", "p1-A♠"] and [str(m) for m in when.moves] == ["p1-p2"]
