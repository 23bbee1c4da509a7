"""A league whose database is overwritten or replaced while it serves stops
at the first write that finds it so: one line, exit 1, no traceback, and
no "games recorded" claim for games the file does not hold."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from league_harness import League, wait_until

pytestmark = pytest.mark.integration


def _overwrite(path: Path) -> None:
    if path.exists():
        with open(path, "r+b") as f:
            f.write(os.urandom(max(4096, min(path.stat().st_size, 64 * 1024))))


def _checkpoint_then_overwrite(db: Path) -> None:
    with sqlite3.connect(db, timeout=10) as con:
        con.execute("PRAGMA wal_checkpoint(FULL)")
    _overwrite(db)


def _overwrite_with_wal(db: Path) -> None:
    _overwrite(db)
    _overwrite(Path(f"{db}-wal"))


def _rename_garbage_over(db: Path) -> None:
    garbage = db.with_name("garbage.sqlite")
    garbage.write_bytes(os.urandom(64 * 1024))
    garbage.replace(db)


FAULTS: dict[str, tuple[Callable[[Path], None], str]] = {
    "overwritten after a checkpoint": (_checkpoint_then_overwrite, "overwritten"),
    "overwritten with its WAL": (_overwrite_with_wal, "overwritten"),
    "garbage renamed over it": (_rename_garbage_over, "the results file was replaced by another file"),
}


@pytest.fixture
def league(tmp_path: Path) -> Iterator[League]:
    lg = League(tmp_path)
    try:
        yield lg
    finally:
        lg.close()


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_league_database_damaged_while_serving_stops_it_with_one_line(league: League, fault: str) -> None:
    damage, said = FAULTS[fault]
    tokens = {n: league.token(n) for n in ("a", "b")}
    league.start()
    for name, token in tokens.items():
        league.bot(name, token, streams=2)
    wait_until(lambda: len(league.rows()) >= 5, 60, "the league to record games")
    damage(league.db)
    damaged_at = time.monotonic()
    assert league.proc is not None
    code = league.proc.wait(60)
    assert time.monotonic() - damaged_at < 30
    log = league.log.read_text()
    assert code == 1, log
    last = log.strip().splitlines()[-1]
    assert last.startswith(f"error: {league.db}: ") and said in last, log
    assert "Traceback" not in log
    assert "league stopped:" not in log  # no count of games "recorded" into a file that does not keep them
