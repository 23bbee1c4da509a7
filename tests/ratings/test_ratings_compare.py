"""compare(): rank moves, Elo deltas with intervals, rank correlations."""

import math

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import compare, fit_ratings, kendall_tau, spearman


def games(winner: str, loser: str, n: int) -> list[GameRecord]:
    return [GameRecord(winner, loser, winner, Termination.TARGET_REACHED) for _ in range(n)]


def ordered(best: str, mid: str, worst: str) -> list[GameRecord]:
    return (games(best, mid, 3) + games(mid, best, 1) + games(mid, worst, 3) + games(worst, mid, 1)
            + games(best, worst, 3) + games(worst, best, 1))


def test_same_ordering() -> None:
    result = compare(ordered("A", "B", "C"), ordered("A", "B", "C") * 2)
    assert result.spearman == pytest.approx(1.0) and result.kendall_tau == pytest.approx(1.0)
    assert [r.rank_move for r in result.rows] == [0, 0, 0]
    assert result.added == () and result.removed == ()


def test_reversed_ordering() -> None:
    old_recs, new_recs = ordered("A", "B", "C"), ordered("C", "B", "A")
    result = compare(old_recs, new_recs)
    assert result.spearman == pytest.approx(-1.0) and result.kendall_tau == pytest.approx(-1.0)
    moves = {r.bot: (r.old_rank, r.new_rank, r.rank_move) for r in result.rows}
    assert moves == {"A": (1, 3, -2), "B": (2, 2, 0), "C": (3, 1, 2)}
    old, new = fit_ratings(old_recs), fit_ratings(new_recs)
    row = {r.bot: r for r in result.rows}["A"]
    # By symmetry A's new rating is C's old one.
    assert row.delta == pytest.approx(old.rating("C") - old.rating("A"), rel=1e-9)
    half = 1.96 * math.sqrt(old.stderr("A") ** 2 + new.stderr("A") ** 2)
    assert (row.delta_low, row.delta_high) == pytest.approx((row.delta - half, row.delta + half), rel=1e-12)
    assert row.delta < 0 < half
    assert row.old_elo == old.rating("A") and row.new_elo == new.rating("A")


def test_added_removed_and_too_few_common_bots() -> None:
    result = compare(games("A", "B", 2) + games("B", "A", 1), games("A", "D", 2) + games("D", "A", 1))
    assert result.added == ("D",) and result.removed == ("B",)
    assert [r.bot for r in result.rows] == ["A"]
    assert result.spearman is None and result.kendall_tau is None


def test_rank_correlations_by_hand() -> None:
    # Ranks (1,2,3,4) vs (2,1,4,3): d^2 sum = 4 -> rho = 1 - 6*4/(4*15) = 0.6;
    # concordant 4, discordant 2 of 6 -> tau = 1/3.
    x, y = [4.0, 3.0, 2.0, 1.0], [3.0, 4.0, 1.0, 2.0]
    assert spearman(x, y) == pytest.approx(0.6, rel=1e-12)
    assert kendall_tau(x, y) == pytest.approx(1 / 3, rel=1e-12)
    assert spearman([1.0, 1.0], [1.0, 2.0]) is None
