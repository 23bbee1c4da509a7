"""Bootstrap intervals over duplicate pairs."""

import math

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import bootstrap_intervals, fit_ratings
from arena.ratings.bootstrap import resampling_units


def paired(pair_id: str, x: str, y: str, first: str, second: str) -> list[GameRecord]:
    """A duplicate pair: x seated first, then y; ``first``/``second`` are the winners."""
    return [
        GameRecord(x, y, first, Termination.TARGET_REACHED, matchup=pair_id, pair_index=0),
        GameRecord(y, x, second, Termination.TARGET_REACHED, matchup=pair_id, pair_index=0),
    ]


def tournament() -> list[GameRecord]:
    recs: list[GameRecord] = []
    results = [("A", "B", "A", "A"), ("A", "B", "A", "B"), ("B", "C", "B", "B"), ("B", "C", "C", "B"),
               ("A", "C", "A", "C"), ("A", "C", "A", "A"), ("A", "B", "B", "B"), ("B", "C", "B", "C")]
    for i, (x, y, w1, w2) in enumerate(results):
        recs += paired(f"p{i}", x, y, w1, w2)
    recs.append(GameRecord("C", "A", "C", Termination.TARGET_REACHED))  # an unpaired game
    return recs


def test_units_are_pairs_and_single_games() -> None:
    recs = tournament() + [GameRecord("A", "B", None, Termination.INTERRUPTED, matchup="p9", pair_index=0),
                           GameRecord("B", "A", "A", Termination.TARGET_REACHED, matchup="p9", pair_index=0)]
    units = resampling_units(recs)
    assert [len(u) for u in units] == [2] * 8 + [1, 1]
    assert all(len({g.pair_id for g in u}) == 1 for u in units)


def test_same_seed_same_intervals() -> None:
    a = bootstrap_intervals(tournament(), replicates=200, seed=7)
    b = bootstrap_intervals(tournament(), replicates=200, seed=7)
    c = bootstrap_intervals(tournament(), replicates=200, seed=8)
    assert a == b
    assert a != c
    for bot in "ABC":
        low, high = a.interval(bot)
        assert math.isfinite(low) and math.isfinite(high) and low < high


def test_a_single_unit_gives_a_zero_width_interval_at_the_fit() -> None:
    recs = paired("p0", "A", "B", "A", "A")
    boot = bootstrap_intervals(recs, replicates=50, seed=1)
    fit = fit_ratings(recs)
    for bot in "AB":
        assert boot.interval(bot) == pytest.approx((fit.rating(bot), fit.rating(bot)), rel=1e-12)


def test_named_anchor_in_bootstrap() -> None:
    boot = bootstrap_intervals(tournament(), replicates=100, seed=3, anchor="B")
    assert boot.interval("B") == (1500.0, 1500.0)
