"""The OpenSpiel games pass OpenSpiel's own checks and model the deal as chance."""

from __future__ import annotations

import pickle
import random

import pyspiel
import pytest
from open_spiel.python.tests import games_sim_test

from arena.engine import DECK, Game, make_options
from arena.integrations import openspiel as truco_openspiel
from arena.integrations.action_ids import FIRST_RAISE, ActionIds

CASES: list[tuple[str, dict[str, int | bool]]] = [
    ("truco_argentino", {}),
    ("truco_uruguayo", {}),
    ("truco_venezolano", {}),
    ("truco_argentino", {"players": 4}),
    ("truco_argentino", {"players": 6, "pico_a_pico": True, "target": 9}),
]


@pytest.mark.parametrize("name, params", CASES)
def test_openspiel_random_simulations_with_serialization(name: str, params: dict[str, int | bool]) -> None:
    game = pyspiel.load_game(name, params)
    # OpenSpiel's games_sim_test: random games, every state serialized and
    # deserialized, observations and information states of every player.
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name, params", CASES)
def test_openspiel_python_games_sim_test(name: str, params: dict[str, int | bool]) -> None:
    # The Python half of games_sim_test: pickling of the game, its type and
    # its states, clone() against apply_action, serialization, observations.
    checks = games_sim_test.GamesSimTest()
    for _ in range(3):
        checks.sim_game(pyspiel.load_game(name, params))


@pytest.mark.parametrize("name, params", CASES)
def test_game_type_and_info_match_the_engine(name: str, params: dict[str, int | bool]) -> None:
    game = pyspiel.load_game(name, params)
    variant = name.removeprefix("truco_")
    seats = int(params.get("players", 2))
    options = make_options(variant, {"seats": seats, "target": params.get("target", make_options(variant).target)})
    gt = game.get_type()
    assert gt.short_name == name
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.provides_information_state_string and gt.provides_observation_tensor
    assert game.num_players() == seats
    assert game.num_distinct_actions() == ActionIds.for_options(options).size
    assert game.max_chance_outcomes() == len(DECK)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_shape() == [game.observation_tensor_size()]
    for key in ("target", "flor"):
        assert key in gt.parameter_specification


def test_players_exist_only_where_the_variant_allows_more_than_two() -> None:
    assert "players" in pyspiel.load_game("truco_argentino").get_type().parameter_specification
    assert "players" not in pyspiel.load_game("truco_uruguayo").get_type().parameter_specification
    assert "pico_a_pico" not in pyspiel.load_game("truco_venezolano").get_type().parameter_specification
    assert FIRST_RAISE == pyspiel.load_game("truco_uruguayo").num_distinct_actions()
    assert pyspiel.load_game("truco_venezolano", {"target": 12}).num_distinct_actions() == FIRST_RAISE + 12
    with pytest.raises(ValueError, match="seats"):
        pyspiel.load_game("truco_argentino", {"players": 3})


def test_each_deal_is_card_by_card_uniform_chance_then_the_engine_deal() -> None:
    game = pyspiel.load_game("truco_uruguayo", {"target": 5})
    state = game.new_initial_state()
    dealt: list[int] = []
    for k in range(7):  # three cards each, then the muestra
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - k
        assert {a for a, _ in outcomes} == {c.index for c in DECK} - set(dealt)
        assert all(p == pytest.approx(1 / (40 - k)) for _, p in outcomes)
        dealt.append(outcomes[(5 * k) % len(outcomes)][0])
        state.apply_action(dealt[-1])
    assert state.current_player() == 0
    view = state.engine_state.observation(0)
    # The mano (seat 0) gets the first card, then seat 1, and so on; the 7th is the muestra.
    assert view.dealt == tuple(DECK[i] for i in dealt[0:6:2])
    assert state.engine_state.observation(1).dealt == tuple(DECK[i] for i in dealt[1:6:2])
    assert view.up_card == DECK[dealt[6]]


def test_a_new_hand_starts_with_chance_again_and_history_replays() -> None:
    game = pyspiel.load_game("truco_argentino", {"target": 5})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        mazo = next(a for a in state.legal_actions() if state.action_to_string(a) == "mazo")
        hand = state.engine_state.hands_played
        state.apply_action(mazo)
        if not state.is_terminal():
            assert state.is_chance_node() and state.engine_state.hands_played == hand + 1
    assert sorted(state.returns()) == [-1.0, 1.0]
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert str(again) == str(state) and again.returns() == state.returns()
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history() and restored.returns() == state.returns()


def test_action_ids_round_trip_every_legal_action_of_random_games() -> None:
    for variant in ("argentino", "uruguayo", "venezolano"):
        options = make_options(variant, {"target": 15})
        ids = ActionIds.for_options(options)
        rng = random.Random(variant)
        state = Game(options).new_state(seed=4)
        while not state.is_terminal():
            for a in state.legal_actions():
                i = ids.id_of(a)
                assert 0 <= i < ids.size and ids.action_of(i) == a and ids.text_of(i) == str(a)
            state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError):
        ActionIds(0).action_of(FIRST_RAISE)


def test_the_module_registers_all_three_variants() -> None:
    registered = set(pyspiel.registered_names())
    assert set(truco_openspiel.GAME_NAMES.values()) <= registered
