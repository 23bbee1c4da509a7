"""The results store: one SQLite row per finished game, written as it ends.

WAL journal with synchronous=FULL: a row that was committed survives a kill -9
or a power cut, and a game that was not committed is simply played again on
resume. Interrupted games are kept apart (``interrupted``) so they never count.

Two ways in, so that looking at a file can never change it:

* ``ResultsStore.open_existing``: read-only (a ``mode=ro`` URI), for the
  views. It never creates a table, never switches the journal mode, never
  writes; a database of an older schema is read as it is.
* ``ResultsStore.create_or_open``: read-write, for running a tournament. It
  creates the tables in a new or empty file and brings an older schema up to
  date (see ``arena/games/schema.py``). The file (it holds the
  tournament secret) and its ``-wal`` and ``-shm`` files are owner-only
  (0600) and never opened through a symbolic link (``private_files.py``).

Both refuse a file that is not ours (another program's SQLite database, not
SQLite at all, a directory) and one written by a newer version, with a
``StoreError`` of one line; the file is left as it was.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from arena.errors import DomainError

from ..engine.outcome import Termination
from .gameids import SQL_ID_OF_KEY, id_of_key
from .private_files import PrivateFileError, check_private_sidecar, private_fd
from .schema import LATEST_VERSION, SchemaError, migrate, stored_version


@dataclass(frozen=True)
class GameRow:
    game_key: str
    seq: int
    matchup: str  # "a|b": the two bots (the column ``pairing``)
    pair_index: int
    bot0: str
    bot1: str
    mano: int
    seed: int
    score0: int
    score1: int
    winner: str | None
    winner_seat: int | None
    termination: Termination
    faulty_bot: str | None
    hands: int
    duration: float
    actions: tuple[str, ...]
    finished_at: float = 0.0
    reason: str = ""  # why the game ended, one line for people (schema version 2)
    # The bot_version each side's bot announced in its Hello (schema version 3;
    # '' when unknown: older rows, tournaments that do not record it).
    version0: str = ""
    version1: str = ""
    # CPU seconds each side's bot spent on this game, measured by its sandbox
    # (schema version 4; None: not measured, e.g. a bot that connects by itself).
    cpu0: float | None = None
    cpu1: float | None = None
    # Moves each side marked as a fallback (Move.fallback: its code failed and
    # it played a legal action instead; schema version 5, 0 in older rows).
    fallbacks0: int = 0
    fallbacks1: int = 0
    # The shell-safe id people see and type (schema version 6): the key with
    # '|' and '#' as ':' (gameids.py); filled in from the key when not given.
    game_id: str = ""
    # (decision index, text): what a bot wrote to stderr while deciding, for
    # the organizer's replay (schema version 7; () in older rows). The index
    # counts like ``actions``; one past them: a decision never answered.
    stderr: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.game_id:
            object.__setattr__(self, "game_id", id_of_key(self.game_key))

    @property
    def pair_id(self) -> str | None:
        """The duplicate pair this game is half of; None (pair_index < 0) for
        a game of an independent pairing, which is nobody's twin."""
        return f"{self.matchup}#{self.pair_index}" if self.pair_index >= 0 else None


_SIDECARS = ("-wal", "-shm")  # SQLite's WAL and shared-memory files, next to the database
_COLUMNS = tuple(f.name for f in dataclasses.fields(GameRow))
# A field whose SQL column has another name (the column keeps the name of schema version 1).
_COLUMN_OF = {"matchup": "pairing"}
_SQL_COLUMNS = tuple(_COLUMN_OF.get(c, c) for c in _COLUMNS)
# Columns that a database of an older schema version lacks, with the value read in their place.
_ADDED_IN = {"reason": (2, "''"), "version0": (3, "''"), "version1": (3, "''"), "cpu0": (4, "NULL"),
             "cpu1": (4, "NULL"), "fallbacks0": (5, "0"), "fallbacks1": (5, "0"), "game_id": (6, SQL_ID_OF_KEY),
             "stderr": (7, "'[]'")}


class StoreError(DomainError, RuntimeError):
    """The results database cannot be used; the message is one line."""


class ResultsStore:
    def __init__(self, db: sqlite3.Connection, path: Path, version: int, writable: bool) -> None:
        """Use ``open_existing`` or ``create_or_open``."""
        self.path = path
        self.version = version
        self.writable = writable
        self._db = db
        # The file this store writes, checked on every write (``_FileGuard``).
        self._guard = _FileGuard(path) if writable else None
        self.kept: list[str] = []  # games this store recorded: what is lost if the file goes

    @classmethod
    def open_existing(cls, path: Path) -> ResultsStore:
        """Open an existing results database read-only, for the views."""
        db = _connect_read_only(path)
        try:
            version = _version_of(db, path, fresh_ok=False)
            store = cls(db, path, version, writable=False)
            # Every run stores its config first; without one this is not a tournament's file.
            if not isinstance(store.get_meta("config"), dict):
                raise StoreError(f"{path}: not a truco-arena results database (no tournament config in it)")
        except BaseException:
            db.close()
            raise
        return store

    @classmethod
    def create_or_open(cls, path: Path) -> ResultsStore:
        """Open the results database at ``path`` to record games, creating it
        if it does not exist (its directory must) and migrating an older schema."""
        if os.path.islink(path):
            raise StoreError(f"{path}: is a symbolic link; refusing to write through it "
                             f"(remove it if you did not make it)")
        if path.exists():
            # Look through a read-only connection first: a read-write one to another
            # program's WAL database would checkpoint it on close, changing its bytes.
            look = _connect_read_only(path)
            try:
                _version_of(look, path, fresh_ok=True)
            finally:
                look.close()
        elif not path.parent.is_dir():
            raise StoreError(f"{path}: cannot create: directory {path.parent} does not exist")
        identity = _private_database_file(path)
        try:
            db = sqlite3.connect(path, isolation_level=None, timeout=30)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open: {exc}") from None
        try:
            _check_same_file(path, identity)
            _version_of(db, path, fresh_ok=True)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            version = migrate(db)
        except SchemaError as exc:
            db.close()
            raise StoreError(f"{path}: {exc}") from None
        except BaseException:
            db.close()
            raise
        return cls(db, path, version, writable=True)

    def close(self) -> None:
        self._db.close()
        if self._guard is not None:
            self._guard.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_writable(self) -> None:
        if not self.writable:
            raise StoreError(f"{self.path}: opened read-only")

    # -- metadata: the config the tournament was started with
    def set_meta(self, key: str, value: Any) -> None:
        self._check_writable()
        self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def get_meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (ValueError, RecursionError):
            raise StoreError(f"{self.path}: stored {key} is not valid JSON") from None

    # -- games
    def record(self, row: GameRow) -> None:
        """Write one finished game; a game already recorded is an error (never twice)."""
        self.record_together((row,))

    def record_together(self, rows: tuple[GameRow, ...]) -> None:
        """Write finished games in one transaction: all of them or none (the two
        halves of a league's duplicate pair, so a crash never leaves half a pair)."""
        self._check_writable()
        insert = f"INSERT INTO games ({', '.join(_SQL_COLUMNS)}) VALUES ({', '.join(':' + c for c in _COLUMNS)})"
        keys = [row.game_key for row in rows]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for row in rows:
                    values = dataclasses.asdict(row)
                    values["actions"] = json.dumps(list(row.actions))
                    values["stderr"] = json.dumps([list(note) for note in row.stderr])
                    values["termination"] = Termination(row.termination).value  # text only in SQL
                    values["finished_at"] = row.finished_at or time.time()
                    try:
                        self._db.execute(insert, values)
                    except sqlite3.IntegrityError:
                        raise StoreError(f"game {row.game_key} is already recorded") from None
                self._db.execute("COMMIT")
            except BaseException:
                _rollback(self._db)
                raise
        except sqlite3.Error as exc:  # the file went bad under us (overwritten, disk full...)
            raise StoreError(f"{self.path}: cannot write: {exc}; {_not_kept(self.kept, keys)}") from None
        self.kept.extend(keys)
        self.check_in_place(keys)

    def check_in_place(self, just_written: list[str] | None = None) -> None:
        """StoreError if the file at ``path`` is no longer the one this store
        writes (deleted, replaced, overwritten): what it recorded is then not
        kept there, and the message says which games."""
        if self._guard is not None and (what := self._guard.trouble()) is not None:
            raise StoreError(f"{self.path}: {what} while the run went on; "
                             f"{_not_kept(self.kept, just_written or [])}")

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement that writes (its own transaction), then the file check."""
        try:
            self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}; {_not_kept(self.kept, [])}") from None
        self.check_in_place()

    def record_interrupted(self, game_key: str, reason: str) -> None:
        self._check_writable()
        self._write("INSERT INTO interrupted (game_key, at, reason) VALUES (?, ?, ?)", (game_key, time.time(), reason))

    def interrupted(self) -> list[tuple[str, float, str]]:
        """Every interruption recorded, in order: (game key, Unix time, reason).
        Not results: a resume plays these games again."""
        return [(str(k), float(at), str(reason))
                for k, at, reason in self._db.execute("SELECT game_key, at, reason FROM interrupted ORDER BY rowid")]

    def recorded_keys(self) -> set[str]:
        return set(self.winners())

    def winners(self) -> dict[str, str | None]:
        """The winner of every recorded game, by key (None: no winner)."""
        return dict(self._db.execute("SELECT game_key, winner FROM games"))

    def games(self) -> Iterator[GameRow]:
        selected = ", ".join(
            f"{_ADDED_IN[c][1]} AS {c}" if c in _ADDED_IN and self.version < _ADDED_IN[c][0] else _COLUMN_OF.get(c, c)
            for c in _COLUMNS
        )
        for values in self._db.execute(f"SELECT {selected} FROM games ORDER BY seq"):
            row = dict(zip(_COLUMNS, values))
            try:
                row["actions"] = tuple(json.loads(row["actions"]))
            except (ValueError, RecursionError, TypeError):
                raise StoreError(f"{self.path}: game {row['game_key']}: stored actions are not valid JSON") from None
            row["stderr"] = _stderr_of(row["stderr"])
            try:
                row["termination"] = Termination(row["termination"])
            except ValueError:
                raise StoreError(f"{self.path}: game {row['game_key']}: unknown termination "
                                 f"{row['termination']!r}") from None
            yield GameRow(**row)

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def _stderr_of(text: object) -> tuple[tuple[int, str], ...]:
    """The stored stderr notes; a value that is not a list of [index, text]
    (a file edited by hand) reads as none: they are notes, not results."""
    try:
        notes = json.loads(str(text))
        return tuple((int(i), str(t)) for i, t in notes if isinstance(i, int) and isinstance(t, str))
    except (ValueError, TypeError, RecursionError):
        return ()


def _private_database_file(path: Path) -> tuple[int, int]:
    """Create ``path`` 0600 (or check and tighten the existing file) and its
    WAL and shared-memory files, never through a link; the (device, inode)
    SQLite must then open. SQLite opens these files by name and follows
    links, so each is checked here first: the file itself on its descriptor,
    the sidecars (created by SQLite with the database's mode) if present."""
    try:
        fd = private_fd(path, os.O_RDWR)
        try:
            info = os.fstat(fd)
        finally:
            os.close(fd)
        for sidecar in _SIDECARS:
            check_private_sidecar(path.with_name(path.name + sidecar))
    except PrivateFileError as exc:
        raise StoreError(str(exc)) from None
    return info.st_dev, info.st_ino


def _check_same_file(path: Path, identity: tuple[int, int]) -> None:
    """SQLite opened ``path`` by name: make sure that name still is the file checked
    (a link swapped in meanwhile is refused before anything is written)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise StoreError(f"{path}: vanished while being opened: {exc.strerror}") from None
    if stat.S_ISLNK(info.st_mode) or (info.st_dev, info.st_ino) != identity:
        raise StoreError(f"{path}: was replaced while being opened; refusing to write to it")


def _refuse_linked_sidecars(path: Path) -> None:
    """A read-only connection may still create or write the shared-memory file:
    never through a link. (Not an owner check: views may read another user's file.)"""
    for sidecar in _SIDECARS:
        if os.path.islink(path.with_name(path.name + sidecar)):
            raise StoreError(f"{path}{sidecar}: is a symbolic link; refusing to open the database "
                             f"(remove it if you did not make it)")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    if path.is_dir():
        raise StoreError(f"{path}: is a directory, not a results database")
    if not path.exists():
        raise StoreError(f"{path}: no results database here")
    _refuse_linked_sidecars(path)
    try:
        # mode=ro: SQLite opens the file read-only, so nothing here can change it.
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=30)
        db.execute("PRAGMA query_only=ON")
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open: {exc}") from None
    return db


def _version_of(db: sqlite3.Connection, path: Path, fresh_ok: bool) -> int:
    """The schema version of ``db``, or StoreError if it is not ours or too new.
    With ``fresh_ok``, an empty database (no tables) is version 0."""
    try:
        version = stored_version(db)
    except SchemaError as exc:
        raise StoreError(f"{path}: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: not a SQLite database ({exc})") from None
    if version == 0 and not fresh_ok:
        raise StoreError(f"{path}: not a truco-arena results database (it is empty)")
    if version > LATEST_VERSION:
        raise StoreError(f"{path}: written by a newer truco-arena (schema version {version}; "
                         f"this one knows up to {LATEST_VERSION}): upgrade truco-arena to read it")
    return version


_SQLITE_MAGIC = b"SQLite format 3\x00"


class _FileGuard:
    """Whether the file at a path is still the one a store opened: the same
    device and inode, and still starting as a SQLite file. SQLite writes
    through the file it opened, so a file deleted, renamed over or
    overwritten while a run goes on would otherwise swallow every game
    without a word (and ``resume`` would find nothing).

    The header is read through a descriptor kept open for the store's life:
    closing any descriptor of a file drops every POSIX lock this process
    holds on it, SQLite's included, so the file is never opened and closed
    again while SQLite has it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise StoreError(f"{path}: cannot open: {exc.strerror}") from None
        st = os.fstat(self._fd)
        self.identity = (st.st_dev, st.st_ino)

    def trouble(self) -> str | None:
        """None while all is well; else what happened to the file, for people."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return "the results file was deleted"
        except OSError as exc:
            return f"the results file cannot be found ({exc.strerror})"
        if (st.st_dev, st.st_ino) != self.identity:
            return "the results file was replaced by another file"
        if os.pread(self._fd, len(_SQLITE_MAGIC), 0) != _SQLITE_MAGIC:
            return "the results file was overwritten (it is no longer a SQLite file)"
        return None

    def close(self) -> None:
        """After SQLite's own connection is closed (see above)."""
        os.close(self._fd)


def _rollback(db: sqlite3.Connection) -> None:
    try:
        db.execute("ROLLBACK")
    except sqlite3.Error:  # the transaction is gone already (the file went bad)
        pass


def _not_kept(kept: list[str], pending: list[str]) -> str:
    """Which games of this run are not kept, in one line."""
    games = [*kept, *(k for k in pending if k not in kept)]
    if not games:
        return "no game of this run was recorded yet"
    shown = ", ".join(games[:5]) + (f" and {len(games) - 5} more" if len(games) > 5 else "")
    return f"the {len(games)} game(s) played this run are not kept: {shown}"
