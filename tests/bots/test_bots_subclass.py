"""Third-party bots built on the SDK and on the sample bots, in either build.

A bot author subclasses ``sdk.Bot`` and, as often, a sample bot (a
``SimulationBot`` with another candidate list, a ``HeuristicBot`` with its
own bluffs). The compiled build (setup.py) compiles the sample bots' search
modules with mypyc, whose classes refuse an interpreted subclass unless
marked otherwise: CI runs this file on both builds, and with
``TRUCO_ARENA_EXPECT_BUILD=compiled`` it first proves the compiled modules
are the ones imported."""

from __future__ import annotations

import os
import random

import sample_bots.heuristic
import sample_bots.simulation
import sample_bots.worlds
import sample_bots.yardstick
from arena.engine.actions import Action
from arena.engine.observation import Observation
from sample_bots._play import play_game
from sample_bots.heuristic import HeuristicBot, Params
from sample_bots.simulation import SimulationBot
from sample_bots.worlds import RivalModel
from sample_bots.yardstick import YardstickBot
from sdk import Bot

SEARCH_MODULES = (sample_bots.heuristic, sample_bots.simulation, sample_bots.worlds, sample_bots.yardstick)


def test_the_expected_build_of_the_search_modules_is_imported() -> None:
    compiled = [m.__name__ for m in SEARCH_MODULES if not (m.__file__ or "").endswith(".py")]
    expected = os.environ.get("TRUCO_ARENA_EXPECT_BUILD")
    if expected == "compiled":
        assert len(compiled) == len(SEARCH_MODULES), [m.__file__ for m in SEARCH_MODULES]
    elif expected is not None:
        assert compiled == []


class FirstLegal(Bot):
    """The smallest third-party bot: the SDK's class, one method."""

    name = "first-legal"

    def choose(self, obs: Observation) -> Action:
        return obs.legal[0]


class Counting(HeuristicBot):
    """The heuristic, counting its decisions and overriding a hook."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.decisions = 0
        self.games_started = 0

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        super().on_game_start(game_id, seat, variant)
        self.games_started += 1

    def choose(self, obs: Observation) -> Action:
        self.decisions += 1
        return super().choose(obs)


class CardsOnly(SimulationBot):
    """simulation searching only card plays (overrides a protected method
    the search calls from compiled code) with its own attribute."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, worlds=4, min_worlds=3)
        self.asked = 0

    def _candidates(self, obs: Observation) -> list[Action]:
        self.asked += 1
        plays = [a for a in super()._candidates(obs) if a.card is not None]
        return plays or super()._candidates(obs)


class QuickYardstick(YardstickBot):
    """The yardstick at a counted budget, with its own rollout evaluation."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, time_ms=None, worlds=4, prune_after=2)
        self.evaluated = 0

    def _evaluate(self, obs: Observation, replayed: object, action: Action, seed: int, me: int,
                  wt: tuple[tuple[float, ...], ...], noise: float = 0.0) -> float:
        self.evaluated += 1
        return super()._evaluate(obs, replayed, action, seed, me, wt, noise)  # type: ignore[arg-type]


def test_third_party_bots_subclass_the_sdk_and_the_sample_bots() -> None:
    counting, cards, quick = Counting(1), CardsOnly(2), QuickYardstick(3)
    play_game([counting, FirstLegal()], "uruguayo", seed=5)
    assert counting.decisions > 0 and counting.games_started == 1
    play_game([cards, quick], "uruguayo", seed=6)
    assert cards.asked > 0 and cards.stats["searched"] > 0
    assert quick.evaluated > 0 and quick.stats["searched"] > 0


def test_the_search_values_subclass_too() -> None:
    class Bold(Params):
        """Params with a method of its own, handed to a sample bot."""

        def bolder(self) -> Params:
            return Bold(truco_call=(0.5, 0.6, 0.7))

    class Watched(RivalModel):
        """An opponent model that counts what it is asked."""

        def decide(self, obs: Observation, rng: random.Random) -> Action:
            watched.append(obs.seat)
            return super().decide(obs, rng)

    watched: list[int] = []

    class Watching(SimulationBot):
        def _model(self) -> RivalModel:
            return Watched(self.params, self.flor_on, self.falta_mode)

    bold = Bold().bolder()
    bot = Watching(4, worlds=4, min_worlds=3, params=bold)
    play_game([bot, HeuristicBot(5, params=bold)], "uruguayo", seed=7)
    assert bot.params.truco_call == (0.5, 0.6, 0.7)
    assert watched and bot.stats["searched"] > 0
