"""Standings, cross table, pair stats, failure counts and the ladder on hand-made sets."""

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import (
    cross_table,
    failure_counts,
    fit_ratings,
    ladder,
    likelihood_of_superiority,
    pair_stats,
    standings,
)

G = GameRecord

HAND = [
    G("A", "B", "A", Termination.TARGET_REACHED, matchup="p1", pair_index=0),
    G("B", "A", "A", Termination.TARGET_REACHED, matchup="p1", pair_index=0),  # A sweeps p1
    G("A", "B", "A", Termination.TARGET_REACHED, matchup="p2", pair_index=0),
    G("B", "A", "B", Termination.TARGET_REACHED, matchup="p2", pair_index=0),  # p2 split
    G("A", "C", "C", Termination.TIMEOUT, faulty_bot="A", matchup="p3", pair_index=0),
    G("C", "A", None, Termination.INTERRUPTED, matchup="p3", pair_index=0),  # p3 incomplete
    G("B", "C", "B", Termination.DISCONNECT, faulty_bot="C"),
    G("C", "B", "B", Termination.ILLEGAL_ACTION),  # no faulty_bot: charged to the loser C
    G("B", "C", "C", Termination.PROTOCOL_ERROR, faulty_bot="B"),
]


def test_cross_table() -> None:
    table = cross_table(HAND)
    assert table.bots == ("A", "B", "C")
    assert len(table.cells) == 6
    expected = {
        ("A", "B"): (3, 4, 75.0), ("B", "A"): (1, 4, 25.0),
        ("A", "C"): (0, 1, 0.0), ("C", "A"): (1, 1, 100.0),
        ("B", "C"): (2, 3, 200 / 3), ("C", "B"): (1, 3, 100 / 3),
    }
    for (row, col), (wins, games, pct) in expected.items():
        cell = table.cell(row, col)
        assert (cell.wins, cell.games) == (wins, games)
        assert cell.score_pct == pytest.approx(pct, rel=1e-12)
    empty = cross_table(HAND, order=["C", "A", "D"])
    assert empty.bots == ("C", "A", "D")
    assert empty.cell("D", "A").games == 0 and empty.cell("D", "A").score_pct is None


def test_pair_stats() -> None:
    ab, ac = pair_stats(HAND)
    assert (ab.bot_x, ab.bot_y, ab.complete_pairs, ab.x_sweeps, ab.y_sweeps, ab.splits, ab.incomplete_pairs) == (
        "A", "B", 2, 1, 0, 1, 0)
    assert ab.pair_score_x == 0.75 and ab.pair_score_y == 0.25 and ab.split_rate == 0.5
    assert (ac.bot_x, ac.bot_y, ac.complete_pairs, ac.incomplete_pairs) == ("A", "C", 0, 1)
    assert ac.pair_score_x is None and ac.split_rate is None


def test_pair_stats_reject_malformed_pairs() -> None:
    with pytest.raises(ValueError, match="seats swapped"):
        pair_stats([G("A", "B", "A", Termination.TARGET_REACHED, matchup="p", pair_index=0), G("A", "B", "B", Termination.TARGET_REACHED, matchup="p", pair_index=0)])
    with pytest.raises(ValueError, match="3 games"):
        pair_stats([G("A", "B", "A", Termination.TARGET_REACHED, matchup="p", pair_index=0)] * 3)


def test_failure_counts() -> None:
    rows = {f.bot: (f.timeouts, f.disconnects, f.illegal_actions, f.protocol_errors, f.total)
            for f in failure_counts(HAND)}
    assert rows == {"A": (1, 0, 0, 0, 1), "B": (0, 0, 0, 1, 1), "C": (0, 1, 1, 0, 2)}


def test_ladder_hand_computed() -> None:
    order = [("A", "B"), ("B", "A"), ("B", "A"), ("A", "C"), ("C", "A"), ("C", "A"), ("A", "B")]
    recs = [G(w, lo, w, Termination.TARGET_REACHED) for w, lo in order]
    recs.insert(3, G("A", "B", None, Termination.INTERRUPTED))  # ignored
    # A: 30, 10, 0, 30, 10, 0, 30    B: 0, 30, 60, 40    C: 0, 30, 60
    rows = ladder(recs)
    assert [(r.rank, r.bot, r.points, r.wins, r.losses) for r in rows] == [
        (1, "C", 60, 2, 1), (2, "B", 40, 2, 2), (3, "A", 30, 3, 4)]
    # The floor matters: without it A would have 3*30 - 4*20 = 10.
    # Other weights: A 10,0,0,10,0,0,10  B 0,10,20,0  C 0,10,20.
    assert [(r.bot, r.points) for r in ladder(recs, win=10, loss=50)] == [("C", 20), ("A", 10), ("B", 0)]


def test_standings_rows() -> None:
    fit = fit_ratings(HAND)
    rows = standings(HAND)
    assert [r.rank for r in rows] == [1, 2, 3]
    assert [r.bot for r in rows] == list(fit.ranking())
    assert [r.elo for r in rows] == sorted((r.elo for r in rows), reverse=True)
    counts = {r.bot: (r.games, r.wins, r.losses, r.score_pct) for r in rows}
    assert counts == {"A": (5, 3, 2, 60.0), "B": (7, 3, 4, 300 / 7), "C": (4, 2, 2, 50.0)}
    for upper, lower in zip(rows, rows[1:]):
        assert upper.los_next == pytest.approx(likelihood_of_superiority(fit, upper.bot, lower.bot), rel=1e-12)
        assert upper.los_next is not None and 0.5 <= upper.los_next <= 1.0
    assert rows[-1].los_next is None
    for r in rows:
        assert r.elo_low == pytest.approx(r.elo - 1.96 * fit.stderr(r.bot), rel=1e-12)
        assert r.elo_high == pytest.approx(r.elo + 1.96 * fit.stderr(r.bot), rel=1e-12)
