"""The yardstick sample bot: its cheaper rollouts play the very moves of
simulation's, and the bot is legal in every variant and reproducible from
its seed at a counted budget. CI runs this file on both builds."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game
from arena.engine.actions import Action
from arena.engine.observation import Observation
from sample_bots._play import UniformBot, play_game
from sample_bots.heuristic import DEFAULT_PARAMS, HeuristicBot
from sample_bots.simulation import rollout_value, win_table
from sample_bots.worlds import RivalModel
from sample_bots.yardstick import DEFAULT_TIME_MS, YardstickBot, cheap_rollout_value


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_cheap_rollouts_play_the_heuristic_rollouts_moves(variant: str) -> None:
    game = Game(variant, seats=2)
    wt = win_table(variant, game.options.target)
    rng = random.Random(11)
    memo: dict[tuple[object, ...], float] = {}
    compared = 0
    for seed in range(40):
        st = game.new_state(seed=seed)
        for _ in range(rng.randrange(4)):  # a few random actions into the first hand
            if st.current_player() is None:
                break
            st.apply(rng.choice(st.legal_actions()))
        if st.current_player() is None or st.hands_played:
            continue
        for k in range(3):
            noise = (0.0, 0.2, 1.0)[k]
            a, b = st.copy(), st.copy()
            want = rollout_value(a, random.Random(seed * 3 + k), RivalModel(), 0, wt, 1, noise)
            got = cheap_rollout_value(b, random.Random(seed * 3 + k), DEFAULT_PARAMS, True, "leader", memo,
                                      0, wt, 1, noise)
            assert got == want
            assert a.scores == b.scores and a.hand.history == b.hand.history
            compared += 1
    assert compared > 60 and memo


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_yardstick_always_legal(variant: str) -> None:
    # play_game raises IllegalChoiceError on any action outside state.legal_actions()
    for seed in range(2):
        bot = YardstickBot(seed, time_ms=None, worlds=4, prune_after=2)
        other = HeuristicBot(seed) if seed else UniformBot(seed)
        play_game([bot, other] if seed else [other, bot], variant, 700 + seed)
        assert bot.stats["searched"] > 0


def test_yardstick_repeats_with_the_same_seed_at_a_counted_budget() -> None:
    class Recording(YardstickBot):
        def __init__(self, seed: int) -> None:
            super().__init__(seed, time_ms=None, worlds=4, prune_after=2)
            self.seen: list[str] = []

        def choose(self, obs: Observation) -> Action:
            action = super().choose(obs)
            self.seen.append(f"{obs.hand_number}:{len(obs.history)}:{action}")
            return action

    def choices(seed: int) -> list[str]:
        bot = Recording(seed)
        play_game([bot, HeuristicBot(seed + 50)], "uruguayo", 80 + seed)
        return bot.seen

    assert choices(3) == choices(3)


def test_yardstick_thinks_on_a_clock_by_default() -> None:
    bot = YardstickBot(1)
    play_game([HeuristicBot(2), bot], "uruguayo", 81)
    assert bot.time_ms == DEFAULT_TIME_MS and bot.stats["searched"] > 0
