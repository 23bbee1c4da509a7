"""Real SPRT matches over gRPC with the sample bots as subprocesses: a
clearly stronger bot is accepted as better (H1), a bot against itself is
not (H0), and the store holds exactly the pairs the verdict was read from."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.game_record import checked
from arena.games.store import ResultsStore
from arena.match.tally import tally_rows
from arena.ratings import PairCounts, SprtBounds, SprtVerdict, format_sprt_line, sprt_status
from arena.ratings.duplicate_pairs import pair_stats

pytestmark = pytest.mark.integration

# Cap of the tests' matches: far above what they need (see each test), so
# reaching it would mean the SPRT failed to stop.
MAX_GAMES = 400


def _stored(db: Path, a: str, b: str) -> PairCounts:
    with ResultsStore.open_existing(db) as store:
        rows = list(store.games())
    pair_stats(checked(rows))  # raises if any pair holds more than two games
    counts = PairCounts.from_records(checked(rows), a, b)
    assert tally_rows(a, [b], rows)[b].counts == counts  # what a resume would start from
    return counts


def test_heuristic_against_random_accepts_h1_early(tmp_path: Path) -> None:
    # heuristic wins about 19 games in 20 against random. With H1 at +100 Elo
    # every 2-0 pair adds about 0.25 to the LLR, so about 12 pairs reach 2.94;
    # the odd split slows it by a pair or two.
    db = tmp_path / "m.sqlite"
    res = CliRunner().invoke(main, ["match", "heuristic", "random", "--sprt", "0", "100", "--seed", "11",
                                    "--max-games", str(MAX_GAMES), "--db", str(db), "--json"])
    assert res.exit_code == 0, res.stderr
    counts = _stored(db, "heuristic", "random")
    state = sprt_status(counts, SprtBounds(0, 100))
    assert state.verdict is SprtVerdict.H1_ACCEPTED
    assert counts.games < MAX_GAMES
    lines = res.stderr.strip().splitlines()
    # The final line: the verdict, and the recorded games it leaves out (halves of pairs), if any.
    assert lines[-1].split(";")[0] == f"heuristic vs random: H1 accepted after {counts.games} games ({counts.pairs} pairs)"
    assert f"heuristic vs random: {format_sprt_line(state)}" in lines  # the live line at the decision
    assert '"pairs"' in res.stdout  # the pair view comes with the standings


def test_a_bot_against_itself_accepts_h0(tmp_path: Path) -> None:
    # random against random: the true Elo is 0, exactly elo0, so H1 is
    # accepted with chance at most alpha. alpha = 0.001 keeps that chance of
    # a wrong verdict negligible, and elo1 = 300 is so far from 0 that H0 is
    # accepted within a few pairs: simulated at split rates 0.3-0.5, 6-8 pairs
    # on average, 28 at the 99th percentile (the lower bound, log(0.05/0.999)
    # = -2.99, hardly moves with alpha).
    db = tmp_path / "m.sqlite"
    res = CliRunner().invoke(main, ["match", "random", "random", "--sprt", "0", "300", "--alpha", "0.001",
                                    "--max-games", str(MAX_GAMES), "--db", str(db), "--concurrency", "2"])
    assert res.exit_code == 0, res.stderr
    counts = _stored(db, "random-a", "random-b")
    assert sprt_status(counts, SprtBounds(0, 300, alpha=0.001)).verdict is SprtVerdict.H0_ACCEPTED
    assert res.stderr.strip().splitlines()[-1].startswith("random-a vs random-b: H0 accepted after ")


def test_a_fixed_number_of_games_plays_exactly_those_pairs(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    res = CliRunner().invoke(main, ["match", "heuristic", "python -m sample_bots.random_bot", "--games", "6",
                                    "--db", str(db), "--concurrency", "2"])
    assert res.exit_code == 0, res.stderr
    assert _stored(db, "heuristic", "random_bot").pairs == 3
    with ResultsStore.open_existing(db) as store:
        assert store.count() == 6
    assert res.stderr.strip().splitlines()[-1] == "heuristic vs random_bot: 6 games played (3 complete pairs)"
