"""Placing a new bot among fixed reference ratings (``ratings.placement``)."""

from __future__ import annotations

import math

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.match.reference_ladder import LadderBot, ReferenceLadder
from arena.ratings import ELO_PER_NAT
from arena.ratings.placement import Reference, place
from arena.results.placement_table import ladder_result, placement_table

BOTS = ("top", "middle", "bottom")
ELO = (1400.0, 1000.0, 600.0)
KNOWN = Reference(BOTS, ELO, ((0.0,) * 3,) * 3)  # ratings taken as exact
MEASURED = Reference(BOTS, ELO, ((900.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 900.0)))  # +-30 Elo se


def _expected(elo: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10 ** ((opponent - elo) / 400.0))


def test_a_bot_that_wins_everything_lands_on_top_with_a_finite_interval() -> None:
    p = place(KNOWN, {b: (20, 0) for b in BOTS})
    assert p.rank == 1 and p.elo > 1400.0
    assert math.isfinite(p.low) and math.isfinite(p.high) and p.low < p.elo < p.high
    assert p.games == 60


def test_a_bot_that_loses_everything_lands_at_the_bottom() -> None:
    p = place(KNOWN, {b: (0, 20) for b in BOTS})
    assert p.rank == 4 and p.elo < 600.0 and p.high > p.elo


def test_even_results_against_the_middle_bot_place_it_there() -> None:
    p = place(KNOWN, {"middle": (50, 50)})
    # The prior is a virtual draw at the mean of the ladder, which is the middle bot here too.
    assert p.elo == pytest.approx(1000.0, abs=1e-6)
    above, below = place(KNOWN, {"middle": (55, 45)}), place(KNOWN, {"middle": (45, 55)})
    assert above.rank == 2 and 1000.0 < above.elo < 1400.0
    assert below.rank == 3 and 600.0 < below.elo < 1000.0


def test_the_estimate_solves_the_likelihood_equation() -> None:
    results = {"top": (3, 17), "middle": (12, 8), "bottom": (18, 2)}
    p = place(KNOWN, results, prior_games=1.0)
    mean = sum(ELO) / 3
    expected = sum(n * _expected(p.elo, e) for (w, lost), e in zip(results.values(), ELO, strict=True)
                   for n in (w + lost,)) + _expected(p.elo, mean)
    assert expected == pytest.approx(sum(w for w, _ in results.values()) + 0.5, abs=1e-6)
    assert 1000.0 < p.elo < 1400.0 and p.rank == 2


def test_the_interval_narrows_with_games_like_one_over_root_n() -> None:
    few = place(KNOWN, {"middle": (10, 10)})
    many = place(KNOWN, {"middle": (1000, 1000)})
    assert few.high - few.low > many.high - many.low
    # 2000 even games against one bot: se = 1 / sqrt(n p (1 - p)) nats, p = 1/2 (the prior adds one game's worth).
    assert many.stderr == pytest.approx(ELO_PER_NAT / math.sqrt(2001 * 0.25), rel=1e-3)
    assert (many.high - many.low) / 2 == pytest.approx(1.96 * many.stderr)


def test_the_reference_ratings_own_uncertainty_widens_the_interval() -> None:
    results = {"top": (10, 10), "bottom": (15, 5)}
    exact, measured = place(KNOWN, results), place(MEASURED, results)
    assert measured.elo == pytest.approx(exact.elo)
    assert measured.stderr > exact.stderr
    # Never more than the reference's own se added in full to the game-only one.
    assert measured.stderr < math.hypot(exact.stderr, 30.0)


def test_games_against_a_bot_outside_the_ladder_or_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="not a reference bot"):
        place(KNOWN, {"stranger": (1, 1)})
    with pytest.raises(ValueError, match="negative"):
        place(KNOWN, {"top": (-1, 1)})
    with pytest.raises(ValueError, match="no reference bots"):
        place(Reference((), (), ()), {})


def test_no_games_leaves_the_newcomer_at_the_ladders_mean() -> None:
    p = place(KNOWN, {})
    assert p.elo == pytest.approx(1000.0, abs=1e-6) and p.games == 0
    assert p.high - p.low > 1000  # one virtual game says almost nothing


def _ladder() -> ReferenceLadder:
    bots = tuple(LadderBot(name, f"python -m {name}", elo, elo - 50, elo + 50) for name, elo in zip(BOTS, ELO,
                                                                                                    strict=True))
    return ReferenceLadder("uruguayo", bots, MEASURED.covariance, {"seed": 1, "games_per_pairing": 80})


def _games(new: str, opponent: str, won: int, lost: int) -> list[GameRecord]:
    return ([GameRecord(new, opponent, new, Termination.TARGET_REACHED) for _ in range(won)]
            + [GameRecord(opponent, new, opponent, Termination.TARGET_REACHED) for _ in range(lost)])


def test_the_ladder_table_puts_the_newcomer_where_its_elo_is() -> None:
    records = _games("mine", "top", 2, 8) + _games("mine", "middle", 7, 3) + _games("mine", "bottom", 9, 1)
    records.append(GameRecord("mine", "top", None, Termination.INTERRUPTED))  # no result: not counted
    result = ladder_result(_ladder(), "mine", records)
    assert result.record == {"top": (2, 8), "middle": (7, 3), "bottom": (9, 1)} and result.games == 30
    table = placement_table(_ladder(), result)
    assert [row[1] for row in table.rows] == ["top", "mine", "middle", "bottom"]
    assert [row[0] for row in table.rows] == [1, 2, 3, 4]
    mine = table.as_dicts()[1]
    assert mine["entry"] == "new" and mine["games vs new"] == 30 and mine["won by new"] == 18
    assert table.as_dicts()[0]["elo"] == 1400.0  # the reference keeps its shipped rating


def test_the_ladder_table_counts_the_newcomers_own_failures() -> None:
    records = [GameRecord("mine", "top", "top", Termination.TIMEOUT, faulty_bot="mine")] + _games("mine", "bottom", 0, 1)
    result = ladder_result(_ladder(), "mine", records)
    assert result.faults == 1 and result.games == 2
    assert [row[1] for row in placement_table(_ladder(), result).rows][-1] == "mine"
