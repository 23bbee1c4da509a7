"""SDK bots come back by themselves: after a kill -9 of ``serve`` and after a
clean stop, the same bot processes (never restarted) play again within 10 s
of the league listening again on the same address and database."""

from __future__ import annotations

import signal
import time
from functools import partial
from pathlib import Path

import pytest
from league_harness import League, free_port, wait_until

pytestmark = pytest.mark.integration

BOUND = 60.0
BACK_WITHIN = 10.0


def more_games(league: League, than: int) -> bool:
    return len(league.rows()) > than


def test_bots_play_again_within_10_s_after_a_kill_and_after_a_clean_stop(tmp_path: Path) -> None:
    league = League(tmp_path, port=free_port())
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        bots = [league.bot(name, token) for name, token in tokens.items()]  # default flags: no --retry-for
        wait_until(lambda: len(league.rows()) >= 3, BOUND, "the first games")
        for how in (signal.SIGKILL, signal.SIGTERM):
            league.stop(how)
            time.sleep(1.0)  # the bots find the league gone meanwhile
            assert all(b.poll() is None for b in bots), f"a bot exited after {how.name} of serve"
            before = len(league.rows())
            league.start()  # same port, same database
            back = time.monotonic()
            wait_until(partial(more_games, league, before), BOUND, f"a game after the restart ({how.name})")
            took = time.monotonic() - back
            assert took < BACK_WITHIN, f"after {how.name}, the bots played again only after {took:.1f} s"
        assert league.stop() == 0
        assert all(b.poll() is None for b in bots)  # still waiting for the league to come back
        logs = "".join(p.read_text() for p in tmp_path.glob("[ab]-*.log"))
        assert "reconnecting" in logs and "Traceback" not in logs
    finally:
        league.close()
