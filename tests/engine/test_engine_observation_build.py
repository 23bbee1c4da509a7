"""The fast observation builder matches the dataclass constructor, and the
tricks the engine keeps per hand match the card plays of its history."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from arena.engine import Game, Kind
from arena.engine.observation import Observation, _observation
from arena.engine.state import observe


def _tricks_from_history(obs: Observation) -> tuple[tuple[tuple[int, object], ...], ...]:
    """The tricks of a hand as its card plays say, grouped by the hand's seats."""
    tricks, current = [], []
    for seat, action in obs.history:
        if action.kind is Kind.PLAY:
            current.append((seat, action.card))
            if len(current) == len(obs.hand_seats):
                tricks.append(tuple(current))
                current = []
    if current:
        tricks.append(tuple(current))
    return tuple(tricks)


@pytest.mark.parametrize(("variant", "seats"), [("uruguayo", 2), ("argentino", 4), ("argentino", 6), ("venezolano", 2)])
def test_observations_match_the_constructor_and_the_history(variant: str, seats: int) -> None:
    checked = 0
    for seed in range(12):
        state = Game(variant, seats=seats).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in range(seats):
                obs = observe(state, seat, log=seat == 0)
                rebuilt = Observation(**{f.name: getattr(obs, f.name) for f in fields(Observation)})
                assert obs == rebuilt and hash(obs) == hash(rebuilt)
                assert obs.tricks == _tricks_from_history(obs)
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 500


def test_the_builder_sets_every_field_in_order() -> None:
    """Values of the right types (the compiled build checks them), each field's
    own, taken from a real observation late in a hand."""
    state = Game("argentino", seats=4).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(5):
        state.apply(rng.choice([a for a in state.legal_actions() if a.kind is Kind.PLAY] or state.legal_actions()))
    assert not state.is_terminal()
    real = observe(state, state.current_player() or 0, log=True)
    values = [getattr(real, f.name) for f in fields(Observation)]
    obs = _observation(*values)
    assert obs == real
    assert [getattr(obs, f.name) for f in fields(Observation)] == values
    with pytest.raises(ValueError):
        _observation(*values[:-1])  # a field forgotten is an error, never a silent default
