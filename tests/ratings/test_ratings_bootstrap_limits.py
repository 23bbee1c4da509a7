"""Where the bootstrap cannot be trusted the standings say so or do better: a
bot with 0% or 100% wins keeps the fit's (Fisher) interval, a small
tournament gets a warning, and LOS follows the method of the intervals."""

from __future__ import annotations

import random

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import bootstrap_intervals, fit_ratings, standings
from arena.ratings.bootstrap import FEW_UNITS
from arena.ratings.los import likelihood_of_superiority
from arena.results.tables import standings_table


def _league(pairs_per_pairing: int, seed: int = 3) -> list[GameRecord]:
    """``top`` wins every game; ``mid`` beats ``low`` about 60% of the time."""
    rng = random.Random(seed)
    records: list[GameRecord] = []
    for x, y, p_x in (("top", "mid", 1.0), ("top", "low", 1.0), ("mid", "low", 0.6)):
        for k in range(pairs_per_pairing):
            pair = f"{x}|{y}#{k}"
            records.append(GameRecord(x, y, x if rng.random() < p_x else y, Termination.TARGET_REACHED, matchup=pair, pair_index=0))
            records.append(GameRecord(y, x, x if rng.random() < p_x else y, Termination.TARGET_REACHED, matchup=pair, pair_index=0))
    return records


def test_a_bot_with_every_game_won_keeps_the_fisher_interval() -> None:
    records = _league(40)
    fit = fit_ratings(records)
    boot = bootstrap_intervals(records, replicates=200, seed=1)
    rows = {r.bot: r for r in standings(records, fit=fit, bootstrap=boot)}
    assert rows["top"].wins == rows["top"].games  # 100%
    assert rows["top"].interval_method == "fisher"
    assert (rows["top"].elo_low, rows["top"].elo_high) == fit.interval("top")
    assert rows["mid"].interval_method == "bootstrap"
    assert (rows["mid"].elo_low, rows["mid"].elo_high) == boot.interval("mid")
    table = standings_table(records, bootstrap=200, seed=1)
    assert any(n.startswith("top: won or lost every game") for n in table.notes)


def test_los_follows_the_bootstrap_when_it_gives_the_intervals() -> None:
    records = _league(40)
    fit = fit_ratings(records)
    boot = bootstrap_intervals(records, replicates=200, seed=1)
    rows = {r.bot: r for r in standings(records, fit=fit, bootstrap=boot)}
    assert rows["mid"].los_next == boot.los("mid", "low")
    share = sum(d["mid"] > d["low"] for d in boot.draws) / len(boot.draws)
    assert rows["mid"].los_next == share
    plain = {r.bot: r for r in standings(records, fit=fit)}
    assert plain["mid"].los_next == likelihood_of_superiority(fit, "mid", "low")


def test_a_small_tournament_warns_that_the_bootstrap_under_covers() -> None:
    small = _league(5)  # 15 pairs
    assert len({r.pair_id for r in small}) < FEW_UNITS
    notes = standings_table(small, bootstrap=100, seed=2).notes
    assert any(n.startswith("warning: only 15 duplicate pairs") and "under-cover" in n for n in notes)
    big = _league(20)  # 60 pairs
    assert not any(n.startswith("warning:") for n in standings_table(big, bootstrap=100, seed=2).notes)
    assert not any(n.startswith("warning:") for n in standings_table(small).notes)  # only with --bootstrap
