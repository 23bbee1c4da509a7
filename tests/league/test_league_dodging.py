"""A bot of two streams that leaves every game it is behind in (that
stream drops without a word) and opens that stream again only after the
league's forfeit wait, while its other stream plays on slowly, in a
duplicate-pairing league: each game it left is recorded as its loss by
disconnect, every second half it kept no stream free for as its forfeit, no
first half of a pair is thrown away, and so its record is never better than
playing on (every game it did not leave it played on).

The checks go game by game, so that a league which lost games fails here,
not only one that miscounts them: the dodger names each game it left (by
the id it was shown, which the league's secret derives from the game's
key), and the league's log names each game it started. Only games cut by
the final stop may be missing from the results, and those are recorded as
interrupted after the stop began."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

import pytest
from league_harness import FAST_CONFIG, League, wait_until

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
BOUND = 120.0
DODGES = 12
FORFEIT_SECONDS = 1.0
DELAY = 0.5  # seconds per move of the dodger: its other stream is mostly busy
AWAY = FORFEIT_SECONDS + 1.5  # a stream it left comes back only after the second half's wait ran out


@pytest.mark.slow  # about a minute: a dozen dodges at the dodger's slow pace
def test_dodging_a_losing_game_is_a_loss_and_never_loses_a_first_half(tmp_path: Path) -> None:
    league = League(tmp_path, f'pairing = "duplicate"\nconcurrency = 4\nforfeit_seconds = {FORFEIT_SECONDS}\n' + FAST_CONFIG)
    try:
        tokens = {n: league.token(n) for n in ("dodger", "r1", "r2")}
        league.start()
        league.bot("r1", tokens["r1"])
        league.bot("r2", tokens["r2"])
        dodger = league.bot("dodger", tokens["dodger"], "--delay", str(DELAY), "--away", str(AWAY),
                            module="tests.league.dodger_bot", streams=2)

        def dodged() -> list[str]:
            """The ids of the games the dodger left, from its log."""
            return [gid for log in sorted(tmp_path.glob("dodger-*.log"))
                    for gid in re.findall(r"^dodged (\S+)$", log.read_text(), re.MULTILINE)]

        def dodges() -> int:
            assert dodger.poll() is None, f"the dodger exited: {dodger.returncode}"
            return len(dodged())

        wait_until(lambda: dodges() >= DODGES, BOUND, f"the dodger to dodge {DODGES} games")
        stop_at = time.time()
        assert league.stop() == 0
        rows = league.rows()
        left = dodged()
        secret = league.secret()
        by_id = {secret.game_id(r.game_key): r for r in rows}
        recorded = {r.game_key for r in rows}
        # When each game was recorded as interrupted: only the stop may cut one that was played.
        cut_at = {key: at for key, at, _ in league.interrupted_rows()}
        cut_by_stop = {key for key, at in cut_at.items() if at >= stop_at}
        key_of_id = {secret.game_id(key): key for key in cut_at}

        # Every game it left is its loss by disconnect, unless the stop cut it.
        for gid in left:
            row = by_id.get(gid)
            if row is None:
                key = key_of_id.get(gid)
                assert key in cut_by_stop, (
                    f"game {gid} the dodger left is not recorded as its loss"
                    + ("" if key is None else f": it was recorded as interrupted ({key}) before the stop"))
                continue
            assert (row.termination, row.faulty_bot) == ("disconnect", "dodger"), (
                f"game {row.game_key} the dodger left is recorded as {row.termination} "
                f"(faulty {row.faulty_bot!r}), not as its loss by disconnect")
            assert row.winner != "dodger" and row.hands >= 1, row

        # No first half is thrown away: a pair whose second half started had
        # its first half played to the end, so that first half is recorded,
        # however the second half went (dodged, forfeited), unless the stop cut the pair.
        started = re.findall(r"game start (\S+): ", league.log.read_text())
        assert len(started) >= DODGES, started
        for second in (k for k in started if k.endswith("b")):
            first = second[:-1] + "a"
            assert first in recorded or first in cut_by_stop, (
                f"the first half {first} was played to the end (its second half started) but is not "
                f"recorded{' (recorded as interrupted before the stop)' if first in cut_at else ''}")
            assert second in recorded or second in cut_at, f"the second half {second} was started but vanished"
        halves = Counter(r.pair_id for r in rows)
        assert set(halves.values()) <= {1, 2}, halves

        # So its record is no better than playing on: the games it did not
        # leave it played on, and each game it left is a loss; nothing vanished.
        theirs = [r for r in rows if "dodger" in (r.bot0, r.bot1)]
        wins = sum(1 for r in theirs if r.winner == "dodger")
        lost_by_leaving = [r for r in theirs if r.faulty_bot == "dodger" and r.termination == "disconnect"]
        forfeited = [r for r in theirs if r.faulty_bot == "dodger" and r.termination == "absent"]
        print(f"dodger: {wins} wins in {len(theirs)} games, left {len(left)}, {len(lost_by_leaving)} lost by "
              f"leaving, {len(forfeited)} forfeited; cut by the stop {len(cut_by_stop)}")
        assert len(theirs) - wins >= len([g for g in left if g in by_id])
        assert not [r for r in theirs if r.termination == "disconnect" and r.faulty_bot != "dodger"]
    finally:
        league.close()
