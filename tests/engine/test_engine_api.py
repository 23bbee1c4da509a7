"""The engine as a library: what callers get back cannot corrupt a game."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game, Kind


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
