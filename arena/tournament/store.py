"""The results store: one SQLite row per finished game, written as it ends.

WAL journal with synchronous=FULL: a row that was committed survives a kill -9
or a power cut, and a game that was not committed is simply played again on
resume. Interrupted games are kept apart (``interrupted``) so they never count.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_key     TEXT PRIMARY KEY,
    seq          INTEGER NOT NULL,  -- position in the schedule: the order results are read in
    pairing      TEXT NOT NULL,
    pair_index   INTEGER NOT NULL,
    bot0         TEXT NOT NULL,
    bot1         TEXT NOT NULL,
    mano         INTEGER NOT NULL,  -- seat that is mano in the first hand
    seed         INTEGER NOT NULL,  -- deal seed
    score0       INTEGER NOT NULL,
    score1       INTEGER NOT NULL,
    winner       TEXT,              -- bot name
    winner_seat  INTEGER,
    termination  TEXT NOT NULL,
    faulty_bot   TEXT,
    hands        INTEGER NOT NULL,
    duration     REAL NOT NULL,
    actions      TEXT NOT NULL,     -- JSON list of "SEAT ACTION", replayable from the seed
    finished_at  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS interrupted (
    game_key TEXT NOT NULL, at REAL NOT NULL, reason TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class GameRow:
    game_key: str
    seq: int
    pairing: str
    pair_index: int
    bot0: str
    bot1: str
    mano: int
    seed: int
    score0: int
    score1: int
    winner: str | None
    winner_seat: int | None
    termination: str
    faulty_bot: str | None
    hands: int
    duration: float
    actions: tuple[str, ...]
    finished_at: float = 0.0

    @property
    def pair_id(self) -> str | None:
        """The duplicate pair this game is half of; None (pair_index < 0) for
        a game of an independent pairing, which is nobody's twin."""
        return f"{self.pairing}#{self.pair_index}" if self.pair_index >= 0 else None


class StoreError(RuntimeError):
    pass


class ResultsStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    @classmethod
    def open_existing(cls, path: Path) -> "ResultsStore":
        if not path.exists():
            raise StoreError(f"{path}: no results database here")
        store = cls(path)
        if store.get_meta("config") is None:
            raise StoreError(f"{path}: not a truco-arena results database")
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- metadata: the config the tournament was started with
    def set_meta(self, key: str, value: Any) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def get_meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    # -- games
    def record(self, row: GameRow) -> None:
        """Write one finished game; a game already recorded is an error (never twice)."""
        try:
            self._db.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.game_key, row.seq, row.pairing, row.pair_index, row.bot0, row.bot1, row.mano, row.seed,
                 row.score0, row.score1, row.winner, row.winner_seat, row.termination, row.faulty_bot,
                 row.hands, row.duration, json.dumps(list(row.actions)), row.finished_at or time.time()),
            )
        except sqlite3.IntegrityError:
            raise StoreError(f"game {row.game_key} is already recorded") from None

    def record_interrupted(self, game_key: str, reason: str) -> None:
        self._db.execute("INSERT INTO interrupted VALUES (?, ?, ?)", (game_key, time.time(), reason))

    def recorded_keys(self) -> set[str]:
        return {k for (k,) in self._db.execute("SELECT game_key FROM games")}

    def games(self) -> Iterator[GameRow]:
        cur = self._db.execute("SELECT * FROM games ORDER BY seq")
        names = [d[0] for d in cur.description]
        for values in cur:
            row = dict(zip(names, values))
            row["actions"] = tuple(json.loads(row["actions"]))
            yield GameRow(**row)

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
