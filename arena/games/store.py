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
  date (see ``arena/games/schema.py``). The file and its ``-wal`` and
  ``-shm`` files are owner-only (0600) and never opened through a symbolic
  link (``private_files.py``).

The results file holds no secret: the deal secret and the signing key live
in the key file beside it (``keyfile.py``). A writable store signs every row
it writes and chains it to the one before (``chain.py``).

Both refuse a file that is not ours (another program's SQLite database, not
SQLite at all, a directory) and one written by a newer version, with a
``StoreError`` of one line; the file is left as it was.
"""

from __future__ import annotations

import contextlib
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
from .chain import HEAD_META, SIGNED_COLUMNS, ChainCheck, canonical, digest, head_tag, normalized, row_mac
from .game_record import Evidence, EvidenceError, GameRecord
from .gameids import SQL_ID_OF_KEY
from .keyfile import KeyFileError, Keys, key_path, read_keys, write_keys
from .private_files import PrivateFileError, check_private_sidecar, private_fd
from .schema import LATEST_VERSION, SchemaError, migrate, stored_version
from .seeds import SECRET_META, TournamentSecret

WAL_LIMIT = 4 << 20  # bytes the WAL file is cut back to after a checkpoint
_SIDECARS = ("-wal", "-shm")  # SQLite's WAL and shared-memory files, next to the database
_COLUMNS = tuple(f.name for f in dataclasses.fields(GameRecord))
# Columns named otherwise before schema version 9: (new name, old name).
_RENAMED_IN_9 = {"matchup": "pairing"}
# Columns that a database of an older schema version lacks, with the value read in their place.
_ADDED_IN = {"reason": (2, "''"), "version0": (3, "''"), "version1": (3, "''"), "cpu0": (4, "NULL"),
             "cpu1": (4, "NULL"), "fallbacks0": (5, "0"), "fallbacks1": (5, "0"), "game_id": (6, SQL_ID_OF_KEY),
             "evidence": (7, "NULL"), "row_version": (7, "6"), "prev_mac": (7, "''"), "mac": (7, "''"),
             "stderr": (8, "'[]'")}


@dataclass(frozen=True)
class StoredRow:
    """A row as the chain holds it, for verification: its signed content,
    its links, and the row it reads as (or why it does not read)."""

    game_key: str
    content: bytes
    """The canonical bytes its MAC covers (``chain.canonical``)."""
    prev_mac: str
    mac: str
    row: GameRecord | None
    problem: str | None
    """Why the row cannot be read as a game (None: it can)."""


class StoreError(DomainError, RuntimeError):
    """The results database cannot be used; the message is one line."""


class ResultsStore:
    def __init__(self, db: sqlite3.Connection, path: Path, version: int, writable: bool,
                 keys: Keys | None = None, notices: tuple[str, ...] = ()) -> None:
        """Use ``open_existing`` or ``create_or_open``."""
        self.path = path
        self.version = version
        self.writable = writable
        self._db = db
        self._keys = keys  # a writable store's keys; a read-only one reads them when asked (``read_keys``)
        self.notices = notices  # one line each for people: what opening the file did (a migration)
        # The file this store writes, checked on every write (``_FileGuard``).
        self._guard = _FileGuard(path) if writable else None
        # Games this store recorded, what is lost if the file goes: a count and
        # the first few keys (a league records millions; a message shows five).
        self.kept: list[str] = []
        self.kept_count = 0

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
            # SQLite checkpoints the WAL every 1,000 pages; this truncates it then, so the
            # file of a league that runs for months stays this size, not that of its busiest moment.
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            keying = _Keying(path)
            version = migrate(db, {7: keying.migrate})
            keys = keying.keys or _keys_of_signed_file(db, path)
        except (SchemaError, KeyFileError) as exc:
            db.close()
            raise StoreError(f"{path}: {exc}" if isinstance(exc, SchemaError) else str(exc)) from None
        except BaseException:
            db.close()
            raise
        return cls(db, path, version, writable=True, keys=keys, notices=tuple(keying.notices))

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

    # -- the keys: the deal secret and the signing key, in the key file
    @property
    def key_file(self) -> Path:
        return key_path(self.path)

    def secret(self) -> TournamentSecret | None:
        """The deal secret: from the key file (a writable store's, or read now),
        or from ``meta`` in a file of schema version 6 or older that still holds
        it; None if there is none (the first run chooses it)."""
        if self._keys is not None:
            return self._keys.secret
        try:
            keys = read_keys(self.path)
        except KeyFileError as exc:
            raise StoreError(str(exc)) from None
        if keys is not None:
            return keys.secret
        if self.version < 7 and isinstance(stored := self.get_meta(SECRET_META), str):
            try:
                return TournamentSecret.from_hex(stored)
            except ValueError:
                raise StoreError(f"{self.path}: the stored tournament secret is damaged") from None
        return None

    def set_secret(self, secret: TournamentSecret | None) -> None:
        """Keep ``secret`` as the deal secret (None: forget it), in the key file."""
        self._check_writable()
        assert self._keys is not None
        keys = self._keys.with_secret(secret)
        try:
            write_keys(self.path, keys)
        except KeyFileError as exc:
            raise StoreError(str(exc)) from None
        self._keys = keys

    # -- metadata: the config the tournament was started with
    def set_meta(self, key: str, value: Any) -> None:
        self._check_writable()
        if key != "config":
            self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))
            return
        # The config is signed with the chain head: written together.
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('config', ?)", (json.dumps(value),))
                rows, last = self._head()
                self._write_head(rows, last)
                self._db.execute("COMMIT")
            except BaseException:
                _rollback(self._db)
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}; {self._not_kept([])}") from None
        self.check_in_place()

    def _head(self) -> tuple[int, str]:
        """How many rows the chain has and the last one's MAC, as its head says."""
        found = self._db.execute("SELECT value FROM meta WHERE key = ?", (HEAD_META,)).fetchone()
        if found is None:
            return 0, ""
        try:
            head = json.loads(found[0])
            return int(head["rows"]), str(head["mac"])
        except (ValueError, TypeError, KeyError, RecursionError):
            raise StoreError(f"{self.path}: the stored chain head is damaged; "
                             f"`truco-arena standings {self.path} --verify` says more") from None

    def _write_head(self, rows: int, last: str) -> None:
        assert self._keys is not None
        _write_head(self._db, self._keys.signing_key, rows, last)

    def get_meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (ValueError, RecursionError):
            raise StoreError(f"{self.path}: stored {key} is not valid JSON") from None

    # -- games
    def record(self, row: GameRecord) -> None:
        """Write one finished game; a game already recorded is an error (never twice)."""
        self.record_together((row,))

    def record_together(self, rows: tuple[GameRecord, ...]) -> None:
        """Write finished games in one transaction: all of them or none (the two
        halves of a league's duplicate pair, so a crash never leaves half a pair)."""
        self._check_writable()
        assert self._keys is not None
        signing = self._keys.signing_key
        insert = (f"INSERT INTO games ({', '.join(_COLUMNS)}, prev_mac, mac) "
                  f"VALUES ({', '.join(':' + c for c in _COLUMNS)}, :prev_mac, :mac)")
        keys = [row.game_key for row in rows]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                count, last = self._head()
                for row in rows:
                    values = {c: getattr(row, c) for c in _COLUMNS}
                    values["actions"] = json.dumps(list(row.actions))
                    values["stderr"] = json.dumps([list(note) for note in row.stderr])
                    values["termination"] = Termination(row.termination).value  # text only in SQL
                    values["finished_at"] = row.finished_at or time.time()
                    values["evidence"] = row.evidence.to_json() if row.evidence is not None else None
                    values["row_version"] = LATEST_VERSION
                    values["mano"] = 0  # no longer a column, still a place in the signed content
                    for column in SIGNED_COLUMNS:
                        values[column] = normalized(column, values[column])
                    values["prev_mac"] = last
                    values["mac"] = last = row_mac(signing, canonical([values[c] for c in SIGNED_COLUMNS]), last)
                    try:
                        self._db.execute(insert, values)
                    except sqlite3.IntegrityError:
                        raise StoreError(f"game {row.game_key} is already recorded") from None
                self._write_head(count + len(rows), last)
                self._db.execute("COMMIT")
            except BaseException:
                _rollback(self._db)
                raise
        except sqlite3.Error as exc:  # the file went bad under us (overwritten, disk full...)
            raise StoreError(f"{self.path}: cannot write: {exc}; {self._not_kept(keys)}") from None
        self.kept.extend(keys[:max(0, _SHOWN - len(self.kept))])
        self.kept_count += len(keys)
        self.check_in_place()

    def check_in_place(self) -> None:
        """StoreError if the file at ``path`` is no longer the one this store
        writes (deleted, replaced, overwritten): what it recorded is then not
        kept there, and the message says which games."""
        if self._guard is not None and (what := self._guard.trouble()) is not None:
            raise StoreError(f"{self.path}: {what} while the run went on; "
                             f"{self._not_kept([])}")

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement that writes (its own transaction), then the file check."""
        try:
            self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}; {self._not_kept([])}") from None
        self.check_in_place()

    def _not_kept(self, pending: list[str]) -> str:
        """Which games of this run are not kept (those recorded and ``pending``), in one line."""
        total = self.kept_count + len(pending)
        if not total:
            return "no game of this run was recorded yet"
        games = [*self.kept, *pending][:_SHOWN]
        shown = ", ".join(games) + (f" and {total - len(games)} more" if total > len(games) else "")
        return f"the {total} game(s) played this run are not kept: {shown}"

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

    def _select(self, columns: tuple[str, ...]) -> str:
        """The SQL columns ``columns``, with what an older schema reads in place of
        those it lacks or names otherwise; ``mano``, dropped in version 9, reads as 0 from then on."""
        return ", ".join(_column(c, self.version) for c in columns)

    def games(self, newest: int | None = None) -> Iterator[GameRecord]:
        """Every recorded game in schedule order; with ``newest``, only that many, the last to finish first."""
        order = "seq" if newest is None else f"finished_at DESC LIMIT {int(newest)}"
        for values in self._db.execute(f"SELECT {self._select(_COLUMNS)} FROM games ORDER BY {order}"):
            yield self._row_of(values, lenient=True)

    def _row_of(self, values: tuple[Any, ...], lenient: bool) -> GameRecord:
        """The row of the SQL ``values`` (``_COLUMNS``); StoreError names a
        column that does not read. ``lenient``: evidence that does not read is
        None (the views do not use it; ``--verify`` reads it strictly)."""
        row = dict(zip(_COLUMNS, values))
        try:
            row["actions"] = tuple(json.loads(row["actions"]))
        except (ValueError, RecursionError, TypeError):
            raise StoreError(f"{self.path}: game {row['game_key']}: stored actions are not valid JSON") from None
        try:
            row["termination"] = Termination(row["termination"])
        except ValueError:
            raise StoreError(f"{self.path}: game {row['game_key']}: unknown termination "
                             f"{row['termination']!r}") from None
        if row["evidence"] is not None:
            try:
                row["evidence"] = Evidence.from_json(row["evidence"])
            except EvidenceError as exc:
                if not lenient:
                    raise StoreError(f"{self.path}: game {row['game_key']}: {exc}") from None
                row["evidence"] = None
        row["stderr"] = _stderr_of(row["stderr"])
        # As stored: a row edited into nonsense (a winner who did not play) is for
        # --verify to name, and the ratings refuse it (``game_record.checked``).
        return GameRecord.as_stored(**row)

    def chain(self) -> Iterator[StoredRow]:
        """Every row in the order it was stored (the chain's order), as signed."""
        extra = tuple(c for c in SIGNED_COLUMNS if c not in _COLUMNS)
        columns = (*_COLUMNS, *extra, "prev_mac", "mac")
        at = {c: i for i, c in enumerate(columns)}
        for values in self._db.execute(f"SELECT {self._select(columns)} FROM games ORDER BY rowid"):
            content = canonical([values[at[c]] for c in SIGNED_COLUMNS])
            row: GameRecord | None = None
            problem: str | None = None
            try:
                row = self._row_of(values[:len(_COLUMNS)], lenient=False)
            except (StoreError, TypeError) as exc:
                problem = str(exc).removeprefix(f"{self.path}: game {values[at['game_key']]}: ")
            yield StoredRow(str(values[at["game_key"]]), content, str(values[at["prev_mac"]]), str(values[at["mac"]]), row, problem)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read the file as one snapshot (one read transaction): a writer that
        goes on meanwhile (a running league) is not seen half way."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def digest(self) -> tuple[int, str]:
        """How many games, and the public digest of the whole file (``chain.digest``):
        recomputed by anyone holding a copy, no key needed."""
        columns = self._select((*SIGNED_COLUMNS, "mac"))
        with self.snapshot():
            rows = [(canonical(values[:-1]), str(values[-1]))
                    for values in self._db.execute(f"SELECT {columns} FROM games ORDER BY rowid")]
            return len(rows), "sha256:" + digest(self.config_text(), rows)

    def unproven(self) -> list[str]:
        """The rows of this file its key file did not sign as they are, or that
        are out of the chain, one line each (``game K: kind: detail``): the
        signatures alone, no replay (``--verify`` does both). A writable store's."""
        assert self._keys is not None
        check = ChainCheck(self._keys.signing_key)
        columns = self._select(("game_key", *SIGNED_COLUMNS, "prev_mac", "mac"))
        found: list[str] = []
        with self.snapshot():
            for values in self._db.execute(f"SELECT {columns} FROM games ORDER BY rowid"):
                problems = check.row(str(values[0]), canonical(values[1:-2]), str(values[-2]), str(values[-1]))
                if problems:
                    found.append(f"game {values[0]}: " + "; ".join(f"{kind}: {detail}" for kind, detail in problems))
            end = check.end(self.head(), self.config_text())
        if end is not None:
            found.append(f"game {end[0]}: {end[1][0]}: {end[1][1]}")
        return found

    def head(self) -> dict[str, Any] | None:
        """The signed chain head (``rows``, ``mac``, ``tag``) as stored; None if there is none."""
        if self.version < 7:
            return None
        head = self.get_meta(HEAD_META)
        return head if isinstance(head, dict) else None

    def config_text(self) -> str | None:
        """The stored config exactly as written (what the head signs)."""
        found = self._db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        return None if found is None else str(found[0])

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


class _Keying:
    """The step of migration 7: the secret moves out of the results file to
    the key file, and the rows written so far are signed as they are."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keys: Keys | None = None
        self.notices: list[str] = []

    def migrate(self, db: sqlite3.Connection, from_version: int) -> None:
        found = db.execute("SELECT value FROM meta WHERE key = ?", (SECRET_META,)).fetchone()
        stored = json.loads(found[0]) if found is not None else None
        try:
            secret = TournamentSecret.from_hex(stored) if isinstance(stored, str) else None
        except ValueError:
            raise KeyFileError(f"{self.path}: the stored tournament secret is damaged") from None
        keys = read_keys(self.path)
        if keys is None:
            keys = Keys.fresh(secret)
        elif secret is not None and keys.secret not in (None, secret):
            raise KeyFileError(f"{key_path(self.path)}: holds another secret than {self.path}; "
                               f"it is not this file's key file (move it away)")
        elif secret is not None:
            keys = keys.with_secret(secret)
        write_keys(self.path, keys)  # before the commit: a crash leaves the secret in both, never in neither
        db.execute("DELETE FROM meta WHERE key = ?", (SECRET_META,))
        last, count = "", 0
        columns = ", ".join(_column(c, 7) for c in SIGNED_COLUMNS)  # as they are named at version 7
        for rowid, *values in db.execute(f"SELECT rowid, {columns} FROM games ORDER BY rowid").fetchall():
            mac = row_mac(keys.signing_key, canonical(values), last)
            db.execute("UPDATE games SET prev_mac = ?, mac = ? WHERE rowid = ?", (last, mac, rowid))
            last, count = mac, count + 1
        _write_head(db, keys.signing_key, count, last)
        self.keys = keys
        if from_version > 0:
            moved = "moved its deal secret out to" if secret is not None else "keeps its keys in"
            self.notices.append(f"{self.path}: upgraded to signed rows: {moved} {key_path(self.path)} "
                                f"(owner-only; keep it, never publish it) and signed its {count} stored games")


def _write_head(db: sqlite3.Connection, signing_key: bytes, rows: int, last: str) -> None:
    """The chain head: ``rows`` rows, the last one's MAC, signed with the stored config."""
    found = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
    tag = head_tag(signing_key, rows, last, found[0] if found is not None else None)
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
               (HEAD_META, json.dumps({"rows": rows, "mac": last, "tag": tag})))


def _keys_of_signed_file(db: sqlite3.Connection, path: Path) -> Keys:
    """The keys of a file already at version 7: its key file. A file with no
    signed row yet gets new keys; one with rows cannot go on without them."""
    keys = read_keys(path)
    if keys is not None:
        return keys
    if db.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None:
        raise KeyFileError(f"{path}: its key file {key_path(path)} is missing: without it no game can be "
                           f"signed or dealt; restore it from where you keep it")
    keys = Keys.fresh()
    write_keys(path, keys)
    return keys


def _column(name: str, version: int) -> str:
    """The SQL that reads column ``name`` from a database of schema ``version``."""
    if name in _ADDED_IN and version < _ADDED_IN[name][0]:
        return f"{_ADDED_IN[name][1]} AS {name}"
    if name in _RENAMED_IN_9 and version < 9:
        return f"{_RENAMED_IN_9[name]} AS {name}"
    if name == "mano" and version >= 9:
        return "0 AS mano"
    return name


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


_SHOWN = 5  # games a message names
