"""The pieces a match is counted, ordered and shown by: the pair tally agrees
with ``PairCounts.from_records`` on any stored rows in any order, the match
schedule opens at most ``window`` pairs per opponent at a time, and the live
line redraws in place only on a terminal."""

from __future__ import annotations

import asyncio
import io
import random

from hypothesis import given
from hypothesis import strategies as st

from arena.engine.outcome import Termination
from arena.games.dispatch import Dispatcher
from arena.games.game_record import GameRecord, checked
from arena.games.seeds import TournamentSecret
from arena.match.live_line import LiveLine
from arena.match.monitor import MatchVerdict, status_of, summary_line
from arena.match.tally import PairTally, tally_rows
from arena.ratings import PairCounts, SprtBounds
from arena.tournament.formats.match_plan import MatchPlan, match_schedule, window_for

# Per pair: the winners of its games that were recorded (zero, one or two).
pair_outcomes = st.lists(st.lists(st.sampled_from(["a", "b"]), max_size=2), max_size=30)


def _rows(outcomes: list[list[str]]) -> list[GameRecord]:
    rows = []
    for k, winners in enumerate(outcomes):
        for half, winner in enumerate(winners):
            seats = ("a", "b") if half == 0 else ("b", "a")
            rows.append(GameRecord(
                game_key=f"a|b#{k}{'ab'[half]}", seq=2 * k + half, matchup="a|b", pair_index=k,
                bot0=seats[0], bot1=seats[1], seed=k, score0=0, score1=0, winner=winner,
                winner_seat=seats.index(winner), termination=Termination.TARGET_REACHED, faulty_bot=None, hands=1,
                duration=0.0, actions=()))
    return rows


@given(pair_outcomes, st.randoms(use_true_random=False))
def test_the_tally_equals_the_stored_pair_counts_in_any_order(outcomes: list[list[str]], rng: random.Random) -> None:
    rows = _rows(outcomes)
    rng.shuffle(rows)
    expected = PairCounts.from_records(checked(rows), "a", "b")
    assert tally_rows("a", ["b"], rows)["b"].counts == expected
    # Game by game, the count moves only when a pair completes, by exactly that pair.
    tally = PairTally("a", "b")
    for i, row in enumerate(rows):
        before = tally.counts
        completed = tally.add(row)
        assert tally.counts == PairCounts.from_records(checked(rows[: i + 1]), "a", "b")
        assert tally.counts.pairs == before.pairs + int(completed)


def test_the_match_schedule_opens_a_window_of_pairs_per_opponent() -> None:
    plan = MatchPlan("c", ("x", "y"), None, 40)
    schedule = match_schedule(plan, ["x", "c", "y"], concurrency=1)
    window = window_for(1)
    assert len(schedule) == 80 and len({g.key for g in schedule}) == 80
    assert {g.matchup for g in schedule} == {"x|c", "c|y"}  # names in config order, as a round robin
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert (first.deal, first.bot0, first.bot1) == (second.deal, second.bot1, second.bot0)
        assert second.after == first.key
    # Play it as the runner does, one game at a time: never more than `window`
    # half pairs of one opponent open, and every game played exactly once.
    dispatcher = Dispatcher(list(enumerate(schedule)), set(), TournamentSecret.from_seed(1))

    async def drain() -> list[str]:
        played: list[str] = []
        while (item := await dispatcher.next()) is not None:
            game = item[1]
            played.append(game.key)
            dispatcher.finished(game, recorded=True)
            for pairing in ("x|c", "c|y"):
                halves = [k for k in played if k.startswith(pairing)]
                open_pairs = {k[:-1] for k in halves} - {k[:-1] for k in halves if k.endswith("b")}
                assert len(open_pairs) <= window
        return played

    played = asyncio.run(drain())
    assert sorted(played) == sorted(g.key for g in schedule)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_live_line_is_rewritten_on_a_terminal_and_appended_in_a_log() -> None:
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        line = LiveLine(stream)
        line.print("SPRT ...")
        line.show("games 2")
        line.show("games 4")
        line.end()
    assert terminal.getvalue() == "SPRT ...\n\rgames 2\x1b[K\rgames 4\x1b[K\n"
    assert log.getvalue() == "SPRT ...\ngames 2\ngames 4\n"


def test_the_verdict_of_each_way_a_match_can_end() -> None:
    sprt = MatchPlan("a", ("b",), SprtBounds(0, 100), 8)

    def summary(plan: MatchPlan, counts: PairCounts, run_over: bool = True) -> str:
        return summary_line(status_of(plan, PairTally("a", "b", counts), run_over))

    assert summary(sprt, PairCounts(ww=3)) == "a vs b: no verdict yet after 6 games in complete pairs (resume to go on)"
    assert summary(sprt, PairCounts(ll=1, dd=2, ww=1)) == ("a vs b: no verdict after 8 games in complete pairs "
                                                           "(the max_games cap)")
    assert summary(sprt, PairCounts(ll=20)) == "a vs b: H0 accepted after 40 games (20 pairs)"
    fixed = MatchPlan("a", ("b",), None, 8)
    assert status_of(fixed, PairTally("a", "b", PairCounts(ww=3))).verdict is MatchVerdict.RUNNING
    assert summary(fixed, PairCounts(ww=3)) == "a vs b: 6 games played (3 complete pairs)"


def test_all_pairs_split_is_no_information_not_a_zero_width_interval() -> None:
    from arena.match.monitor import counts_line
    from arena.ratings import PairCounts, SprtBounds, format_sprt_line, sprt_status

    split = PairCounts(ll=0, dd=5, ww=0)
    assert "Elo: no information yet" in counts_line(split) and "+-0.0" not in counts_line(split)
    line = format_sprt_line(sprt_status(split, SprtBounds(0, 20)))
    assert "Elo: no information yet" in line and "+-0.0" not in line
    mixed = counts_line(PairCounts(ll=1, dd=5, ww=1))  # a real interval once pairs differ
    assert "no information" not in mixed and "Elo +0.0 +-145.5" in mixed
