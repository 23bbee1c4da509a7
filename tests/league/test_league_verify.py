"""A league's database is verified like a tournament's, also while the
league keeps running: its games replay clean and every signature holds, and
a copy forged by someone without the key file (a flipped winner, a match not
played yet, a deleted row, a moved seed) is refused, naming the game."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from league_harness import League, played, run_cli, wait_until

from arena.games.keyfile import key_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BOUND = 60.0


def _copy_while_running(db: Path, to: Path) -> Path:
    """What a co-organizer takes from a running league: a consistent copy
    (SQLite's backup) and, for the organizer's check, the key file."""
    to.mkdir()
    copy = to / db.name
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as source, closing(sqlite3.connect(copy)) as dest:
        source.backup(dest)
    shutil.copy(key_path(db), key_path(copy))
    return copy


def _flip_winner(con: sqlite3.Connection, key: str) -> None:
    con.execute("UPDATE games SET winner = CASE WHEN winner = bot0 THEN bot1 ELSE bot0 END, "
                "winner_seat = 1 - winner_seat WHERE game_key = ?", (key,))


def _future_match(con: sqlite3.Connection, key: str) -> None:
    """A copy of game ``key`` filed as match 9999, not played yet, chained after the last row."""
    columns = [c[1] for c in con.execute("PRAGMA table_info(games)")]
    last_mac = con.execute("SELECT mac FROM games ORDER BY rowid DESC LIMIT 1").fetchone()[0]
    picked = ", ".join({"game_key": "?", "game_id": "?", "prev_mac": "?", "mac": "?"}.get(c, c) for c in columns)
    con.execute(f"INSERT INTO games ({', '.join(columns)}) SELECT {picked} FROM games WHERE game_key = ?",
                ("a|b#m9999", "a:b:m9999", last_mac, secrets.token_hex(32), key))


def _delete(con: sqlite3.Connection, key: str) -> None:
    con.execute("DELETE FROM games WHERE game_key = ?", (key,))


def _refused(db: Path, key: str, kind: str) -> None:
    res = run_cli("standings", str(db), "--verify")
    assert res.returncode == 1 and res.stdout == "" and "Traceback" not in res.stderr, res.stderr
    assert any(f"game {key}: " in line and f"{kind}:" in line for line in res.stderr.splitlines()), res.stderr


def test_a_running_league_verifies_and_copies_forged_meanwhile_are_refused(tmp_path: Path) -> None:
    (tmp_path / "league").mkdir()
    league = League(tmp_path / "league")
    forgeries: list[tuple[Path, str, str]] = []
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        for name, token in tokens.items():
            league.bot(name, token)
        wait_until(lambda: played(league.rows(), "a", "b") >= 3, BOUND, "a and b to play three games")
        live = run_cli("standings", str(league.db), "--verify")  # the league goes on writing meanwhile
        assert live.returncode == 0, live.stderr
        assert json.loads(key_path(league.db).read_text())["secret"] not in league.db.read_bytes().decode("latin-1")
        rows = league.rows()
        forging: list[tuple[str, Callable[[sqlite3.Connection, str], None], str, str]] = [
            ("flip", _flip_winner, rows[1].game_key, "bad MAC"),
            ("future", _future_match, rows[0].game_key, "bad MAC"),
            ("delete", _delete, rows[0].game_key, "broken chain"),
        ]
        for name, forge, key, kind in forging:
            copy = _copy_while_running(league.db, tmp_path / name)
            with closing(sqlite3.connect(copy)) as con, con:
                forge(con, key)
            named = {"future": "a|b#m9999", "delete": rows[1].game_key}.get(name, key)
            forgeries.append((copy, named, kind))
        for copy, named, kind in forgeries:
            _refused(copy, named, kind)
        before = len(league.rows())
        wait_until(lambda: len(league.rows()) > before, BOUND, "the league to record another game")
        assert league.stop() == 0
    finally:
        league.close()
    rows = league.rows()
    clean = run_cli("standings", str(league.db), "--verify")
    assert clean.returncode == 0, clean.stderr
    assert f"verified {len(rows)} stored games" in clean.stderr

    row = rows[1]
    with closing(sqlite3.connect(league.db)) as con, con:
        con.execute("UPDATE games SET seed = seed + 1 WHERE game_key = ?", (row.game_key,))
    _refused(league.db, row.game_key, "a row from another tournament")
