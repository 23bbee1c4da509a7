"""The engine as a library: what callers get back cannot corrupt a game."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game, Kind, OptionsError, make_options


def test_legal_actions_cannot_be_mutated_and_state_is_unaffected() -> None:
    state = Game("argentino").new_state(seed=5)
    legal = state.legal_actions()
    before = [str(a) for a in legal]
    assert isinstance(legal, tuple) and legal
    with pytest.raises(AttributeError):
        legal.clear()  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        legal[0] = legal[-1]  # type: ignore[index]
    with pytest.raises(AttributeError):
        legal.append(legal[0])  # type: ignore[attr-defined]
    # A caller's own list copy is free to change; the state keeps its actions.
    mine = list(legal)
    mine.clear()
    assert [str(a) for a in state.legal_actions()] == before
    assert state.observation(0).legal == state.legal_actions()
    play = next(a for a in state.legal_actions() if a.kind is Kind.PLAY)
    state.apply(play)  # still legal: nothing above reached the state
    assert state.current_player() == 1


def test_legal_actions_is_a_tuple_through_a_whole_game() -> None:
    state = Game("venezolano").new_state(seed=2)
    rng = random.Random(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert type(legal) is tuple and legal
        state.apply(rng.choice(legal))
    assert state.legal_actions() == ()


def test_game_applies_overrides_to_given_options() -> None:
    base = make_options("uruguayo")
    game = Game(base, target=15, flor=False)
    assert game.options == make_options("uruguayo", {"target": 15, "flor": False})
    assert base.target == 30  # the given options are left as they were
    assert Game(base).options is base


def test_game_overrides_on_options_follow_seats_like_make_options() -> None:
    six = make_options("argentino", {"seats": 6})
    assert Game(six, target=20).options.pico_a_pico is True  # kept: seats unchanged
    assert Game(six, seats=4).options == make_options("argentino", {"seats": 4})
    assert Game(make_options("argentino"), seats=6).options.pico_a_pico is True
    assert Game(six, seats=6, pico_a_pico=False).options.pico_a_pico is False


@pytest.mark.parametrize(
    ("overrides", "key"),
    [({"trget": 30}, "options.trget"), ({"seats": 4}, "options.seats"), ({"target": 0}, "options.target"),
     ({"flor": "yes"}, "options.flor"), ({"falta_envido": "everything"}, "options.falta_envido"),
     ({"pico_a_pico": True}, "options.pico_a_pico"), ({"variant": "argentino"}, "options.variant")],
)
def test_game_rejects_bad_overrides_on_options_naming_the_key(overrides: dict[str, object], key: str) -> None:
    with pytest.raises(OptionsError, match=key):
        Game(make_options("uruguayo"), **overrides)
    with pytest.raises(OptionsError, match=key):  # the same check as with a variant name
        Game("uruguayo", **overrides)
