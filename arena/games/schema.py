"""The results database's schema: its version and the migrations that reach it.

The version lives in ``PRAGMA user_version``. Migration N takes a database
from version N-1 to N; a new database runs them all. Databases written before
versions were stamped have user_version 0 but hold our tables and a
``meta.config`` row: they are version 1. Never edit a migration that has
shipped; add the next one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from arena.errors import DomainError

from .gameids import SQL_ID_OF_KEY


class SchemaError(DomainError, RuntimeError):
    """The database is not a results database, or not one this version can use."""


@dataclass(frozen=True)
class Migration:
    version: int
    """The version the database has once this has run."""
    why: str
    statements: tuple[str, ...]
    guard: Callable[[sqlite3.Connection], None] | None = field(default=None, compare=False)
    """Run before the statements: SchemaError if the file cannot take them as it is."""


def _mano_all_zero(db: sqlite3.Connection) -> None:
    """Every game was written with mano 0; a row that says otherwise was edited,
    and dropping the column would erase what shows it."""
    found = db.execute("SELECT game_key, mano FROM games WHERE mano IS NOT 0 ORDER BY rowid LIMIT 1").fetchone()
    if found is not None:
        raise SchemaError(f"game {found[0]}: stored mano {found[1]!r}, where every game is written with 0: "
                          f"the file was edited, so it is not upgraded (it is left as it was)")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "one row per finished game, the tournament's config, interrupted games", (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE games (
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
        )""",
        "CREATE TABLE interrupted (game_key TEXT NOT NULL, at REAL NOT NULL, reason TEXT NOT NULL)",
    )),
    Migration(2, "why each game ended, for the failures view", (
        "ALTER TABLE games ADD COLUMN reason TEXT NOT NULL DEFAULT ''",
    )),
    Migration(3, "the bot_version each side announced, for leagues where bots are updated", (
        "ALTER TABLE games ADD COLUMN version0 TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE games ADD COLUMN version1 TEXT NOT NULL DEFAULT ''",
    )),
    Migration(4, "CPU seconds each side's launched bot spent on the game (NULL: not measured)", (
        "ALTER TABLE games ADD COLUMN cpu0 REAL",
        "ALTER TABLE games ADD COLUMN cpu1 REAL",
    )),
    Migration(5, "the Moves each side marked as a fallback (its code failed), for the failures view", (
        "ALTER TABLE games ADD COLUMN fallbacks0 INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN fallbacks1 INTEGER NOT NULL DEFAULT 0",
    )),
    Migration(6, "a shell-safe id per game (the key's '|' and '#' as ':'), the one people see and type", (
        "ALTER TABLE games ADD COLUMN game_id TEXT NOT NULL DEFAULT ''",
        f"UPDATE games SET game_id = {SQL_ID_OF_KEY}",
        "CREATE INDEX games_by_id ON games (game_id)",
    )),
    # The secret moves out to the key file and the rows written so far are
    # signed as they are (``ResultsStore``'s step for this version, run in the
    # same transaction); ``row_version`` 6 marks them as written before evidence.
    Migration(7, "every row authenticated and chained (arena/games/chain.py), evidence for every fault", (
        "ALTER TABLE games ADD COLUMN evidence TEXT",
        "ALTER TABLE games ADD COLUMN row_version INTEGER NOT NULL DEFAULT 6",
        "ALTER TABLE games ADD COLUMN prev_mac TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE games ADD COLUMN mac TEXT NOT NULL DEFAULT ''",
    )),
    Migration(8, "what a bot wrote to stderr while deciding, per decision (the organizer's replay)", (
        "ALTER TABLE games ADD COLUMN stderr TEXT NOT NULL DEFAULT '[]'",
    )),
    # The signed content keeps mano's place, as 0 (chain.SIGNED_COLUMNS): no row is signed again.
    Migration(9, "the column holding a game's two bots named matchup; mano (always 0) dropped", (
        "ALTER TABLE games RENAME COLUMN pairing TO matchup",
        "ALTER TABLE games DROP COLUMN mano",
    ), guard=_mano_all_zero),
)
LATEST_VERSION = MIGRATIONS[-1].version
_OUR_TABLES = frozenset({"meta", "games", "interrupted"})
_NOT_OURS = "not a truco-arena results database"


def stored_version(db: sqlite3.Connection) -> int:
    """The schema version of ``db``: 0 for an empty database (no tables at all).
    Reads only. Raises SchemaError for another program's database."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if not tables and version == 0:
        return 0
    if not _OUR_TABLES <= tables:
        raise SchemaError(_NOT_OURS)
    if version == 0:
        if db.execute("SELECT 1 FROM meta WHERE key = 'config'").fetchone() is None:
            raise SchemaError(f"{_NOT_OURS} (no tournament config in it)")
        return 1
    return version


Step = Callable[[sqlite3.Connection, int], None]


def migrate(db: sqlite3.Connection, steps: Mapping[int, Step] | None = None) -> int:
    """Bring ``db`` (in autocommit mode) to the latest version in one transaction; return it.
    ``steps[N]``, if given, runs (with the version the file had) in that
    transaction right after migration N: what SQL alone cannot do."""
    db.execute("BEGIN IMMEDIATE")  # the write lock first, so two processes never migrate at once
    try:
        version = stored_version(db)
        if version > LATEST_VERSION:
            raise SchemaError(f"written by a newer truco-arena (schema version {version})")
        for migration in MIGRATIONS[version:]:
            if migration.guard is not None:
                migration.guard(db)
            for statement in migration.statements:
                db.execute(statement)
            if steps is not None and (step := steps.get(migration.version)) is not None:
                step(db, version)
        if version != LATEST_VERSION:
            db.execute(f"PRAGMA user_version = {LATEST_VERSION:d}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return LATEST_VERSION
