"""Likelihood of superiority."""

import math

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import fit_ratings, likelihood_of_superiority, los_from_difference


def test_equal_players_have_los_one_half() -> None:
    recs = [GameRecord("A", "B", "A", Termination.TARGET_REACHED), GameRecord("B", "A", "B", Termination.TARGET_REACHED)]
    fit = fit_ratings(recs)
    assert likelihood_of_superiority(fit, "A", "B") == pytest.approx(0.5, abs=1e-12)
    assert los_from_difference(0.0, 50.0) == 0.5


def test_los_grows_with_the_difference() -> None:
    values = [los_from_difference(d, 40.0) for d in (-80, -10, 0, 10, 40, 80, 200)]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    # One standard error ahead: Phi(1).
    assert los_from_difference(40.0, 40.0) == pytest.approx(0.8413447460685429, rel=1e-12)
    assert los_from_difference(5.0, 0.0) == 1.0
    assert los_from_difference(-5.0, 0.0) == 0.0


def test_los_uses_the_covariance_of_the_joint_fit() -> None:
    # Two players, no prior: diff = ln 3 nats, var(diff) = 4/3 nats^2 (the two
    # estimates are perfectly anti-correlated, so var a + var b alone is too small).
    recs = [GameRecord("A", "B", "A", Termination.TARGET_REACHED)] * 3 + [GameRecord("A", "B", "B", Termination.TARGET_REACHED)]
    fit = fit_ratings(recs, prior_games=0)
    z = math.log(3) / math.sqrt(4 / 3)
    expected = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    assert likelihood_of_superiority(fit, "A", "B") == pytest.approx(expected, rel=1e-12)
    assert likelihood_of_superiority(fit, "B", "A") == pytest.approx(1 - expected, rel=1e-12)
