"""The yardstick sample bot: its cheaper rollouts play the very moves of
simulation's, and the bot is legal in every variant and reproducible from
its seed at a counted budget. CI runs this file on both builds."""

from __future__ import annotations

import hashlib
import random

import pytest

from arena.engine import BUILD, Game
from arena.engine.actions import Action
from arena.engine.cards import DECK
from arena.engine.observation import Observation
from arena.engine.options import make_options
from sample_bots._play import UniformBot, play_game
from sample_bots.heuristic import DEFAULT_PARAMS, HeuristicBot
from sample_bots.simulation import rollout_value, win_table
from sample_bots.streams import Stream
from sample_bots.worlds import RivalModel, drawn
from sample_bots.yardstick import DEFAULT_TIME_MS, YardstickBot, cheap_rollout_value
from sdk.bot import GameInfo

# The hash of the pinned game's choices (see the last test); a change to the
# bot's search or random streams changes it on purpose, in both builds alike.
PINNED_GAME = "1fb22461c4a38087"


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
            # the same with the bot's own streams (a random.Random whose numbers are splitmix64's)
            a, b = st.copy(), st.copy()
            want = rollout_value(a, Stream(seed * 3 + k), RivalModel(), 0, wt, 1, noise)
            got = cheap_rollout_value(b, Stream(seed * 3 + k), DEFAULT_PARAMS, True, "leader", memo,
                                      0, wt, 1, noise)
            assert got == want and a.hand.history == b.hand.history
            compared += 1
    assert compared > 60 and memo


@pytest.mark.parametrize("make", [random.Random, Stream], ids=["twister", "stream"])
def test_compiled_draws_are_the_stdlibs_sample(make: type[random.Random]) -> None:
    # Yardstick draws a world's unseen cards with worlds.drawn: the same cards as rng.sample
    # from the same numbers, in both ways the stdlib picks (a pool, or a set for large populations).
    for seed in range(100):
        for n in (1, 3, 21, 22, 37, 40):
            pool = list(DECK[:n])
            for k in range(min(n, 8) + 1):
                ours, stdlib = make(seed), make(seed)
                assert drawn(ours, pool, k) == stdlib.sample(pool, k), (seed, n, k)
                assert ours.getrandbits(64) == stdlib.getrandbits(64)  # as many numbers taken
    with pytest.raises(ValueError):
        drawn(random.Random(0), list(DECK[:2]), 3)


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


def test_yardstick_lends_hard_searches_the_time_easy_ones_saved_within_the_move_clock() -> None:
    bot = YardstickBot(1, time_ms=10.0, lend=2.0)
    assert bot._budget_ms() == 10.0
    bot._saved_ms = 5.0
    assert bot._budget_ms() == 15.0
    bot._saved_ms = 100.0
    assert bot._budget_ms() == 30.0  # at most lend x time_ms on top
    bot._saved_ms = -7.0
    assert bot._budget_ms() == 10.0  # an overrun never cuts a search's own time
    bot._saved_ms = 100.0
    bot.on_game_info(GameInfo("g", 0, make_options("uruguayo"), ("a", "b"), 0.1, 60.0))
    assert bot._budget_ms() == 20.0  # never past a fifth of the move clock, whatever was saved
    bot.on_game_start("g", 0, "uruguayo")
    assert bot._budget_ms() == 10.0  # a game starts with nothing saved
    assert YardstickBot(1, time_ms=None)._budget_ms() == float("inf")
    with pytest.raises(ValueError):
        YardstickBot(1, lend=-1.0)


def test_yardstick_keeps_its_saved_time_within_what_its_searches_left() -> None:
    class Watching(YardstickBot):
        def __init__(self) -> None:
            super().__init__(4, time_ms=3.0, min_worlds=3)
            self.budgets: list[float] = []

        def _budget_ms(self) -> float:
            budget = super()._budget_ms()
            self.budgets.append(budget)
            return budget

    bot = Watching()
    play_game([bot, HeuristicBot(5)], "uruguayo", 82)
    assert bot.stats["searched"] > 0
    assert all(3.0 <= b <= 3.0 * (1 + bot.lend) for b in bot.budgets)
    # what is saved never exceeds the searches' own time (3 ms each)
    assert bot._saved_ms <= 3.0 * (bot.stats["searched"] + bot.stats["fallbacks"])


def test_stream_draws_the_same_numbers_for_a_seed_and_never_seeds_the_twister() -> None:
    a, b, c = Stream(7), Stream(7), Stream(8)
    xs = [a.random() for _ in range(200)]
    assert xs == [b.random() for _ in range(200)]
    assert xs != [c.random() for _ in range(200)]
    assert all(0.0 <= x < 1.0 for x in xs) and 0.4 < sum(xs) / len(xs) < 0.6
    # splitmix64's first output for seed 0, the published reference value
    assert Stream(0)._next() == 0xE220A8397B1DCDAF
    # the standard methods the rollouts use work on it, uniformly
    counts = [0] * 5
    for _ in range(5000):
        counts[a.choice(range(5))] += 1
    assert min(counts) > 850
    assert a.getrandbits(0) == 0 and 0 <= a.getrandbits(7) < 128 and a.getrandbits(100) < 1 << 100
    state = a.getstate()
    first = a.random()
    a.setstate(state)
    assert a.random() == first
    a.seed(7)
    assert a.random() == xs[0]
    with pytest.raises(TypeError):
        a.seed("7")


def test_yardstick_games_are_pinned_for_a_seed_in_both_builds() -> None:
    # The choices of a seeded game at a counted budget, hashed: the pure
    # Python run of the suite and the compiled build's run (.ci/run) both
    # check this value, so the two builds play the same games.
    class Recording(YardstickBot):
        def __init__(self, seed: int) -> None:
            super().__init__(seed, time_ms=None, worlds=6)
            self.seen: list[str] = []

        def choose(self, obs: Observation) -> Action:
            action = super().choose(obs)
            self.seen.append(f"{obs.hand_number}:{len(obs.history)}:{action}")
            return action

    bot = Recording(5)
    play_game([bot, HeuristicBot(6)], "uruguayo", 90)
    assert bot.stats["searched"] > 5
    digest = hashlib.sha256("\n".join(bot.seen).encode()).hexdigest()[:16]
    assert digest == PINNED_GAME, (digest, BUILD)
