"""The league keeps wins per pair, not every game: its fits are those of
every game, and what it keeps does not grow with the games."""

from __future__ import annotations

import random

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.league.league import _wins, ratings_of
from arena.ratings import fit_ratings


def _records(n: int, seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    bots = ["alpha", "beta", "gamma", "delta"]
    records = []
    for i in range(n):
        a, b = rng.sample(bots, 2)
        winner = None if i % 17 == 0 else rng.choice([a, a, b])  # some interrupted, alpha-ish stronger
        records.append(GameRecord(a, b, winner, Termination.TARGET_REACHED, game_id=f"g{i}"))
    return records


@pytest.mark.parametrize("seed", [1, 2])
def test_the_fit_from_wins_is_the_fit_of_every_game(seed: int) -> None:
    records = _records(400, seed)
    fit = fit_ratings(records)
    ratings = ratings_of(_wins(records))
    assert set(ratings) == set(fit.bots)
    for bot in fit.bots:
        assert ratings[bot] == pytest.approx(fit.rating(bot), abs=1e-6)


def test_what_the_league_keeps_is_the_size_of_its_bots() -> None:
    assert len(_wins(_records(200, 3))) == len(_wins(_records(20_000, 3))) == 12  # 4 bots: 12 (winner, loser)
    assert ratings_of(_wins([])) == {}
