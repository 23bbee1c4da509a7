"""Replays of games the engine plays by itself with random legal actions, in
every variant and table size the tournaments do not cover (team games, pico
a pico): same final score, points that add up, a JSON export that reads back."""

from __future__ import annotations

import json
import random

import pytest

from arena.engine import Game, make_options
from arena.replay import Category, from_json, replay, restrict_to_seat, to_json


@pytest.mark.parametrize(("variant", "seats"), [
    ("argentino", 2), ("argentino", 4), ("argentino", 6), ("uruguayo", 2), ("venezolano", 2),
])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_replay_exactly(variant: str, seats: int, seed: int) -> None:
    options = make_options(variant, {"seats": seats} if seats != 2 else {})
    state = Game(options).new_state(seed=seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actions.append(f"{state.current_player()} {action}")
        state.apply(action)
    record = replay(options, seed, actions, bots=tuple(f"bot{s}" for s in range(seats)))
    assert record.info.scores == (state.scores[0], state.scores[1])
    assert record.info.winner_team == state.winner
    for team in (0, 1):
        assert sum(h.points(c)[team] for h in record.hands for c in Category) == state.scores[team]
    assert from_json(json.loads(json.dumps(to_json(record)))) == record
    mine = restrict_to_seat(record, seats - 1)
    assert from_json(json.loads(json.dumps(to_json(mine)))) == mine
    for step in record.steps:
        for seat, view in enumerate(step.views.seats):
            assert view is not None
            assert all(cards is None for s, cards in enumerate(view.cards) if s != seat)
