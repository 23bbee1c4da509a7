"""Bradley-Terry fit: closed forms, an independent MM fit, anchoring, intervals."""

import math

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import ELO_PER_NAT, Z95, fit_ratings


def games(winner: str, loser: str, n: int) -> list[GameRecord]:
    return [GameRecord(winner, loser, winner, Termination.TARGET_REACHED) for _ in range(n)]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_two_players_without_prior_is_the_closed_form() -> None:
    # p = 3/4 -> odds 3 -> diff = 400 log10 3; mean anchored at 1500.
    fit = fit_ratings(games("A", "B", 3) + games("B", "A", 1), prior_games=0)
    diff = 400 * math.log10(3)
    assert fit.rating("A") - fit.rating("B") == pytest.approx(diff, rel=1e-12)
    assert fit.rating("A") == pytest.approx(1500 + diff / 2, rel=1e-12)
    # var(diff) = 1 / (n p (1-p)) nats^2 = 4/3.
    assert fit.diff_stderr("A", "B") == pytest.approx(ELO_PER_NAT * math.sqrt(4 / 3), rel=1e-12)
    assert fit.stderr("A") == pytest.approx(ELO_PER_NAT * math.sqrt(4 / 3) / 2, rel=1e-12)


def test_two_players_with_one_virtual_draw() -> None:
    # By symmetry theta_A = x = -theta_B; A's score equation with the half win
    # / half loss against the virtual 0-rated opponent:
    #   3 - 4 sigmoid(2x) + 0.5 - sigmoid(x) = 0.  Solve it by bisection.
    lo, hi = 0.0, 5.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 3.5 - 4 * sigmoid(2 * mid) - sigmoid(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    fit = fit_ratings(games("A", "B", 3) + games("B", "A", 1))
    assert fit.rating("A") == pytest.approx(1500 + ELO_PER_NAT * x, rel=1e-12)
    assert fit.rating("B") == pytest.approx(1500 - ELO_PER_NAT * x, rel=1e-12)
    # The prior shrinks the gap below the unregularized 400 log10 3.
    assert fit.rating("A") - fit.rating("B") < 400 * math.log10(3)


def mm_fit(wins: dict[tuple[str, str], int], bots: list[str], prior: float) -> dict[str, float]:
    """Hunter's MM iteration, independent of the Newton code; returns mean-1500 Elo."""
    pi = {b: 1.0 for b in bots}
    for _ in range(20000):
        new = {}
        for i in bots:
            w = sum(wins.get((i, j), 0) for j in bots) + prior / 2
            denom = sum(
                (wins.get((i, j), 0) + wins.get((j, i), 0)) / (pi[i] + pi[j]) for j in bots if j != i
            )
            denom += prior / (pi[i] + 1.0)  # the virtual opponent has strength 1
            new[i] = w / denom
        if prior == 0:
            g = math.exp(sum(math.log(v) for v in new.values()) / len(bots))
            new = {b: v / g for b, v in new.items()}
        pi = new
    logs = {b: 400 * math.log10(pi[b]) for b in bots}
    mean = sum(logs.values()) / len(bots)
    return {b: 1500 + logs[b] - mean for b in bots}


THREE = {("A", "B"): 3, ("B", "A"): 1, ("B", "C"): 2, ("C", "B"): 1, ("A", "C"): 2, ("C", "A"): 2}


def three_player_records() -> list[GameRecord]:
    return [g for (w, lo), n in THREE.items() for g in games(w, lo, n)]


@pytest.mark.parametrize("prior", [0.0, 1.0, 2.5])
def test_three_players_match_an_independent_mm_fit(prior: float) -> None:
    expected = mm_fit(THREE, ["A", "B", "C"], prior)
    fit = fit_ratings(three_player_records(), prior_games=prior)
    for bot in "ABC":
        assert fit.rating(bot) == pytest.approx(expected[bot], rel=1e-6)
    for a, b in [("A", "B"), ("B", "C"), ("A", "C")]:
        assert fit.rating(a) - fit.rating(b) == pytest.approx(expected[a] - expected[b], rel=1e-6)


def test_cycle_with_equal_counts_is_all_1500() -> None:
    recs = games("A", "B", 2) + games("B", "C", 2) + games("C", "A", 2)
    for prior in (0.0, 1.0):
        fit = fit_ratings(recs, prior_games=prior)
        for bot in "ABC":
            assert fit.rating(bot) == pytest.approx(1500.0, abs=1e-9)


def test_all_wins_is_finite_and_highest() -> None:
    recs = games("A", "B", 5) + games("A", "C", 5) + games("B", "C", 3) + games("C", "B", 2)
    fit = fit_ratings(recs)
    assert fit.ranking()[0] == "A"
    low, high = fit.interval("A")
    assert all(math.isfinite(v) for v in (fit.rating("A"), low, high))
    assert fit.rating("A") > max(fit.rating("B"), fit.rating("C"))
    assert high - low > 0


def test_no_finite_mle_without_prior_is_an_error() -> None:
    with pytest.raises(ValueError, match="no finite maximum-likelihood"):
        fit_ratings(games("A", "B", 3), prior_games=0)


def test_named_anchor_is_exactly_1500_and_keeps_differences() -> None:
    recs = three_player_records()
    mean_fit = fit_ratings(recs)
    fit = fit_ratings(recs, anchor="B")
    assert fit.rating("B") == 1500.0
    assert fit.stderr("B") == 0.0
    for a, b in [("A", "B"), ("B", "C"), ("A", "C")]:
        assert fit.rating(a) - fit.rating(b) == pytest.approx(mean_fit.rating(a) - mean_fit.rating(b), rel=1e-9)
        assert fit.diff_stderr(a, b) == pytest.approx(mean_fit.diff_stderr(a, b), rel=1e-9)
    # With B fixed, A's own uncertainty is that of A - B.
    assert fit.stderr("A") == pytest.approx(mean_fit.diff_stderr("A", "B"), rel=1e-9)
    with pytest.raises(ValueError):
        fit_ratings(recs, anchor="Z")


def test_mean_anchor_puts_the_mean_at_base() -> None:
    fit = fit_ratings(three_player_records(), base=1000.0)
    assert sum(fit.elo) / 3 == pytest.approx(1000.0, rel=1e-12)


def test_interval_is_rating_plus_minus_z_se() -> None:
    fit = fit_ratings(three_player_records())
    low, high = fit.interval("C")
    assert low == pytest.approx(fit.rating("C") - 1.96 * fit.stderr("C"), rel=1e-12)
    assert high == pytest.approx(fit.rating("C") + Z95 * fit.stderr("C"), rel=1e-12)


def test_four_times_the_games_halves_the_interval() -> None:
    small = games("A", "B", 3) + games("B", "A", 1)
    big = small * 4
    w_small = fit_ratings(small, prior_games=0).interval("A")
    w_big = fit_ratings(big, prior_games=0).interval("A")
    assert (w_big[1] - w_big[0]) / (w_small[1] - w_small[0]) == pytest.approx(0.5, rel=1e-9)
    # With the default prior the ratio is close to a half (the prior weighs less).
    d_small = fit_ratings(small * 5).interval("A")
    d_big = fit_ratings(small * 20).interval("A")
    assert (d_big[1] - d_big[0]) / (d_small[1] - d_small[0]) == pytest.approx(0.5, rel=0.05)


def test_interrupted_games_are_ignored() -> None:
    recs = games("A", "B", 3) + games("B", "A", 1)
    noisy = recs + [GameRecord("A", "B", None, Termination.INTERRUPTED), GameRecord("C", "A", None, Termination.INTERRUPTED)]
    assert fit_ratings(noisy) == fit_ratings(recs)


def test_records_are_validated() -> None:
    with pytest.raises(ValueError):
        GameRecord("A", "A", "A", Termination.TARGET_REACHED)
    with pytest.raises(ValueError):
        GameRecord("A", "B", "C", Termination.TARGET_REACHED)
    with pytest.raises(ValueError):
        GameRecord("A", "B", "A", "resigned")  # type: ignore[arg-type]  # what a caller without types could pass
    with pytest.raises(ValueError):
        GameRecord("A", "B", "A", Termination.TIMEOUT, faulty_bot="C")
