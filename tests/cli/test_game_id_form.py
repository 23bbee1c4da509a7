"""One game id form wherever a person reads one (docs/report.md): the
shell-safe ``a:b:m12a``, never the stored key ``a|b#m12a``."""

from __future__ import annotations

import os
import time

from arena.games.gameids import id_of_key
from arena.league.status import BotLine, GameLine, LeagueStatus
from arena.results.league_status import status_tables


def test_league_status_lists_running_games_by_their_id() -> None:
    now = time.time()
    status = LeagueStatus(now, os.getpid(), False, (BotLine("alice", "1", 1, 1), BotLine("carol", "1", 1, 1)),
                          (GameLine("alice|carol#m607a", "alice", "carol", now - 3),))
    running = next(t for t in status_tables(status, (), now) if t.name == "running")
    assert running.rows[0][0] == "alice:carol:m607a" == id_of_key("alice|carol#m607a")
    assert not any("|" in str(cell) or "#" in str(cell) for row in running.rows for cell in row)
