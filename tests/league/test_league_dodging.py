"""A bot of two streams that leaves every game it is behind in (its process
exits) and is started again at once, in a duplicate-pairing league: each
game it left is recorded as its loss by disconnect, every second half it
was not there for as its forfeit, no first half of a pair is thrown away,
and so its record is never better than playing on (every game it did not
leave it played on)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from league_harness import FAST_CONFIG, League, wait_until

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
BOUND = 90.0


def test_dodging_a_losing_game_is_a_loss_and_never_loses_a_first_half(tmp_path: Path) -> None:
    league = League(tmp_path, 'pairing = "duplicate"\nconcurrency = 4\nforfeit_seconds = 3.0\n' + FAST_CONFIG)
    try:
        tokens = {n: league.token(n) for n in ("dodger", "r1", "r2")}
        league.start()
        league.bot("r1", tokens["r1"])
        league.bot("r2", tokens["r2"])
        dodger = [league.bot("dodger", tokens["dodger"], module="tests.league.dodger_bot", streams=2)]

        def dodges() -> int:
            if dodger[-1].poll() is not None:  # it left: back at once
                dodger.append(league.bot("dodger", tokens["dodger"], module="tests.league.dodger_bot", streams=2))
            return sum(log.read_text().count("dodged ") for log in tmp_path.glob("dodger-*.log"))

        wait_until(lambda: dodges() >= 8, BOUND, "the dodger to dodge eight games")
        assert league.stop() == 0
        dodges()
        rows = league.rows()
        left = dodges()
        theirs = [r for r in rows if "dodger" in (r.bot0, r.bot1)]
        lost_by_leaving = [r for r in theirs if r.faulty_bot == "dodger" and r.termination == "disconnect"]
        forfeited = [r for r in theirs if r.faulty_bot == "dodger" and r.termination == "absent"]
        # Every dodge is recorded as its loss (the last ones may be cut by the
        # stop: interrupted, not won). With two streams, the other game it was
        # playing when it left is lost by disconnect too.
        cut = league.interrupted()
        assert len(lost_by_leaving) >= left - len(cut), (left, len(lost_by_leaving), cut)
        assert all(r.winner != "dodger" and r.hands >= 1 for r in lost_by_leaving)
        # No first half was thrown away: every pair recorded has both halves, and
        # the halves cut by the final stop are whole pairs too.
        halves = Counter(r.pair_id for r in rows)
        assert set(halves.values()) == {2}, halves
        assert {k[:-1] for k in cut if k.endswith("a")} == {k[:-1] for k in cut if k.endswith("b")}
        # So its record is no better than playing on: the games it did not
        # leave it played on, and each game it left is a loss; nothing vanished.
        wins = sum(1 for r in theirs if r.winner == "dodger")
        print(f"dodger: {wins} wins in {len(theirs)} games, left {left}, {len(lost_by_leaving)} lost by leaving, "
              f"{len(forfeited)} forfeited; interrupted {len(cut)}")
        assert len(theirs) - wins >= left - len(cut)
        assert not [r for r in theirs if r.termination == "disconnect" and r.faulty_bot != "dodger"]
    finally:
        league.close()
