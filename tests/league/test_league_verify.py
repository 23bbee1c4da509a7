"""A league's database is verified like a tournament's: a real league's
games replay clean, and a row forged in the file is refused, naming it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from league_harness import League, played, run_cli, wait_until

pytestmark = pytest.mark.integration

BOUND = 60.0


def test_a_league_database_verifies_and_a_forged_row_is_refused(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        for name, token in tokens.items():
            league.bot(name, token)
        wait_until(lambda: played(league.rows(), "a", "b") >= 3, BOUND, "a and b to play three games")
        assert league.stop() == 0
    finally:
        league.close()
    rows = league.rows()
    clean = run_cli("standings", str(league.db), "--verify")
    assert clean.returncode == 0, clean.stderr
    assert f"verified {len(rows)} stored games against their replays" in clean.stderr

    row = rows[1]
    with closing(sqlite3.connect(league.db)) as con, con:
        con.execute("UPDATE games SET seed = seed + 1 WHERE game_key = ?", (row.game_key,))
    forged = run_cli("standings", str(league.db), "--verify")
    assert forged.returncode == 1 and forged.stdout == ""
    lines = forged.stderr.strip().splitlines()
    assert len(lines) == 1 and f"game {row.game_key}: its seed is not the deal the league secret gives" in lines[0]
