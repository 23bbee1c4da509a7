"""OpenSpiel's own algorithms run on the Truco games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import external_sampling_mccfr, ismcts, mcts
from open_spiel.python.bots import uniform_random

import arena.integrations.openspiel  # noqa: F401  (registers the games)
from arena.engine import Kind
from arena.integrations.action_ids import FIRST_SIMPLE, SIMPLE_KINDS

MAZO = FIRST_SIMPLE + SIMPLE_KINDS.index(Kind.MAZO)


class SeededISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """ISMCTS whose belief sampling is seeded too, so a test run is repeatable."""

    def __init__(self, game: Any, seed: int, simulations: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        super().__init__(game, evaluator, uct_c=2.0, max_simulations=simulations,
                         random_state=np.random.RandomState(seed))
        self._draws = random.Random(seed)

    def resample_from_infostate(self, state: Any) -> Any:
        return state.resample_from_infostate(state.current_player(), self._draws.random)


def _play(game: Any, bots: dict[int, Any], rng: random.Random) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def test_ismcts_beats_a_uniform_random_bot() -> None:
    game = pyspiel.load_game("truco_argentino", {"target": 3})
    games, wins = 12, 0
    for i in range(games):
        seat = i % 2  # alternate seats, so the mano is shared
        bots = {
            seat: SeededISMCTSBot(game, seed=i, simulations=25),
            1 - seat: uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(100 + i)),
        }
        returns = _play(game, bots, random.Random(1000 + i))
        assert sorted(returns) == [-1.0, 1.0]
        wins += returns[seat] > 0
    assert wins >= 9, f"ISMCTS won {wins} of {games}"


def test_ismcts_plays_full_games_of_every_variant() -> None:
    for name in ("truco_uruguayo", "truco_venezolano"):
        game = pyspiel.load_game(name, {"target": 2})
        bots = {0: SeededISMCTSBot(game, seed=1, simulations=10), 1: SeededISMCTSBot(game, seed=2, simulations=10)}
        assert sorted(_play(game, bots, random.Random(name))) == [-1.0, 1.0]


class RecordingSolver(external_sampling_mccfr.ExternalSamplingSolver):  # type: ignore[misc]
    """External-sampling MCCFR that notes the legal actions of every
    information state where it updated regrets."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.updated: dict[str, list[int]] = {}

    def _update_regrets(self, state: Any, player: int) -> Any:
        if not state.is_terminal() and state.current_player() == player:
            self.updated[state.information_state_string()] = state.legal_actions()
        return super()._update_regrets(state, player)


def test_external_sampling_mccfr_learns_that_the_mazo_loses_at_once() -> None:
    # With a target of 1 the mazo gives the game away, while any other action
    # may still win: regret matching must nearly stop choosing it.
    game = pyspiel.load_game("truco_argentino", {"target": 1})
    solver = RecordingSolver(game)
    for _ in range(10):
        solver.iteration()
    mazo_share, uniform_share = [], []
    for key, legal in solver.updated.items():
        if MAZO not in legal:
            continue
        regrets = solver._infostates[key][0]
        assert regrets[legal.index(MAZO)] <= 1e-6  # never better than the current policy
        positive = np.maximum(regrets, 0.0)
        if positive.sum() > 0:
            mazo_share.append(positive[legal.index(MAZO)] / positive.sum())
            uniform_share.append(1 / len(legal))
    assert len(mazo_share) > 50
    assert np.mean(mazo_share) < 0.5 * np.mean(uniform_share)
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1.0) < 1e-9


def test_rl_environment_episodes_end_with_team_rewards() -> None:
    # OpenSpiel's RL environment (used by its DQN, NFSP, policy-gradient
    # agents) steps the chance nodes itself and hands agents the observation tensor.
    game = pyspiel.load_game("truco_venezolano", {"target": 3})
    env = rl_environment.Environment(game, seed=5)
    rng = np.random.RandomState(5)
    for _ in range(3):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
            assert len(step.observations["info_state"][player]) == game.observation_tensor_size()
            step = env.step([rng.choice(legal)])
        assert sorted(step.rewards) == [-1.0, 1.0]
