"""Search bots with a counted budget choose the same actions from the same
seeds: a tournament that includes them replays exactly on any machine."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from arena.engine.actions import Action
from arena.engine.observation import Observation
from sample_bots._play import play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.ismcts import ISMCTSBot
from sample_bots.simulation import SimulationBot
from sdk.bot import Bot, GameInfo


class _Recording(Bot):
    """Wraps a bot and records every (observation's history, choice)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.log: list[tuple[int, int, Action]] = []

    def on_game_info(self, info):  # type: ignore[no-untyped-def]
        self.inner.on_game_info(info)

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        self.inner.on_game_start(game_id, seat, variant)

    def on_hand_end(self, game_id, hand):  # type: ignore[no-untyped-def]
        self.inner.on_hand_end(game_id, hand)

    def choose(self, obs: Observation) -> Action:
        a = self.inner.choose(obs)
        self.log.append((obs.hand_number, len(obs.history), a))
        return a


def _games(make: Callable[[int], Bot]) -> list[list[tuple[int, int, Action]]]:
    logs = []
    for seed in range(3):
        bot = _Recording(make(seed))
        other = _Recording(HeuristicBot(seed + 50))
        play_game([bot, other] if seed % 2 else [other, bot], "uruguayo", 40 + seed)
        logs += [bot.log, other.log]
    return logs


@pytest.mark.parametrize("make", [
    lambda k: SimulationBot(k, worlds=4),
    # pruned candidates hand their rollouts to more worlds; early rejection
    # draws its random numbers in another order: both still seeded
    lambda k: SimulationBot(k, worlds=4, prune=1.0, prune_after=2),
    lambda k: SimulationBot(k, worlds=4, early=True),
    # the default budget is a world count too (a long run: slow)
    pytest.param(lambda k: SimulationBot(k), marks=pytest.mark.slow),
    pytest.param(lambda k: ISMCTSBot(k, iterations=12), marks=pytest.mark.slow),
], ids=["simulation-4", "simulation-4-pruned", "simulation-4-early", "simulation-default", "ismcts-12"])
def test_bots_search_choices_repeat_with_the_same_seeds(make: Callable[[int], Bot]) -> None:
    first, second = _games(make), _games(make)
    assert sum(len(log) for log in first) > 50
    assert first == second


class _TightClockSimulation(SimulationBot):
    """Told that the arena's move clock is 10 ms."""

    def on_game_info(self, info: GameInfo) -> None:
        super().on_game_info(dataclasses.replace(info, move_time=0.01))


class _TightClockISMCTS(ISMCTSBot):
    def on_game_info(self, info: GameInfo) -> None:
        super().on_game_info(dataclasses.replace(info, move_time=0.01))


def test_bots_a_tight_move_clock_cuts_counted_budgets_without_reading_the_clock() -> None:
    def play(make: Callable[[int], SimulationBot]) -> tuple[list[tuple[int, int, Action]], dict[str, float]]:
        inner = make(9)
        bot = _Recording(inner)
        play_game([bot, HeuristicBot(1)], "uruguayo", 77)
        return bot.log, inner.stats

    for make, unit, cap in [(lambda k: _TightClockSimulation(k, worlds=50), "worlds", 4),
                            # the paired search spends its iterations per candidate:
                            # one world serves every candidate, so worlds are capped
                            (lambda k: _TightClockISMCTS(k, iterations=50), "worlds", 4),
                            (lambda k: _TightClockISMCTS(k, iterations=50, root="ucb"), "iterations", 4)]:
        (log1, stats1), (log2, _) = play(make), play(make)
        assert log1 == log2
        assert stats1["searched"] > 0
        assert stats1[unit] <= cap * stats1["searched"], (unit, stats1)
