"""Candidate pruning in the simulation bot: the budget is counted in rollouts
(worlds x candidates), so the rollouts a candidate that fell behind the
heuristic's choice does not take are spent on more worlds for the others."""

from __future__ import annotations

from sample_bots._play import play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.simulation import SimulationBot


def test_bots_pruning_spends_dropped_rollouts_on_more_worlds() -> None:
    plain = SimulationBot(4, worlds=6)
    pruned = SimulationBot(4, worlds=6, prune=1.0, prune_after=3)
    for bot in (plain, pruned):
        play_game([bot, HeuristicBot(8)], "uruguayo", 31)
        assert bot.stats["searched"] > 10
    assert plain.stats["worlds"] == 6 * plain.stats["searched"]
    # some decisions drop candidates and search more worlds, never more than
    # the rollouts of 6 worlds for every candidate allow
    assert pruned.stats["worlds"] > 6 * pruned.stats["searched"]
    assert pruned.stats["worlds"] <= 6 * 6 * pruned.stats["searched"]
