"""The PettingZoo environment truco_v0 passes PettingZoo's own checks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.engine import Card
from arena.integrations.pettingzoo import TrucoEnv, env
from arena.integrations.seat_view import pieces_for

CASES: list[tuple[str, dict[str, Any]]] = [
    ("argentino", {}),
    ("uruguayo", {}),
    ("venezolano", {}),
    ("argentino", {"seats": 4}),
    ("argentino", {"seats": 6, "target": 9}),
]


@pytest.mark.parametrize("variant, overrides", CASES)
@pytest.mark.filterwarnings("ignore:Observation")  # a dict with an action mask, as PettingZoo's classic games
def test_pettingzoo_api_and_seed_tests(variant: str, overrides: dict[str, Any]) -> None:
    api_test(env(variant, **overrides), num_cycles=300)
    seed_test(lambda: env(variant, **overrides), num_cycles=300)


def _play(e: TrucoEnv, seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """A whole game with masked random actions; the actions and the final rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken: list[tuple[str, int]] = []
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append((agent, action))
        e.step(action)
    return taken, totals


def test_a_game_ends_with_plus_and_minus_one_per_team_and_a_seed_repeats_it() -> None:
    e = env("argentino", seats=4, target=9)
    taken, totals = _play(e, seed=3)
    assert taken and not e.agents
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    again, _ = _play(env("argentino", seats=4, target=9), seed=3)
    assert again == taken
    other, _ = _play(env("argentino", seats=4, target=9), seed=4)
    assert other != taken


def test_masks_match_the_engine_and_illegal_actions_are_refused() -> None:
    e = env("venezolano", target=12)
    e.reset(seed=5)
    assert e.state is not None
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    mask = e.observe(agent)["action_mask"]
    legal = {e.ids.id_of(a) for a in e.state.legal_actions()}
    assert set(np.flatnonzero(mask)) == legal
    assert e.infos[agent]["legal_actions"] == [str(a) for a in e.state.legal_actions()]
    for other in e.possible_agents:
        if other != agent:
            assert not e.observe(other)["action_mask"].any()
    illegal = next(i for i in range(e.ids.size) if i not in legal)
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.state.current_player() == seat  # nothing was applied


def test_no_observation_shows_another_seats_unplayed_card() -> None:
    e = env("argentino", seats=4, target=9)
    assert e.state is None
    e.reset(seed=11)
    pieces = pieces_for(4, e.ids)
    starts: dict[str, tuple[int, tuple[int, ...]]] = {}
    at = 0
    for p in pieces:
        if p.name in ("hand", "dealt", "up_card", "played"):
            starts[p.name] = (at, p.shape)
        at += p.size
    rng = np.random.default_rng(11)
    checked = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        state = e.state
        assert state is not None
        for viewer in e.possible_agents:
            seat = e.possible_agents.index(viewer)
            tensor = e.observe(viewer)["observation"]
            hidden: set[Card] = set()
            for other in range(4):
                if other != seat:
                    hidden.update(state.unplayed(other))
            for card in hidden:
                for start, shape in starts.values():
                    block = tensor[start : start + int(np.prod(shape))].reshape(shape)
                    assert not block[..., card.index].any()
            own = state.observation(seat).hand
            hand_start = starts["hand"][0]
            assert {c.index for c in own} == set(np.flatnonzero(tensor[hand_start : hand_start + 40]))
            checked += len(hidden)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 0


def test_render_ansi_shows_the_seat_to_act() -> None:
    e = env("uruguayo", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str) and text.startswith("seat 0 |") and "up " in text
    with pytest.raises(ValueError, match="render_mode"):
        env("uruguayo", render_mode="rgb_array")
