"""The SQLite results store and the tables rendered from it."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
from pathlib import Path

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord, checked
from arena.games.schema import LATEST_VERSION
from arena.games.store import ResultsStore, StoreError
from arena.results.tables import render, views


def _row(key: str, seq: int, bot0: str, bot1: str, winner: str,
         termination: Termination = Termination.TARGET_REACHED,
         faulty: str | None = None) -> GameRecord:
    pairing = "|".join(sorted((bot0, bot1)))
    return GameRecord(game_key=key, seq=seq, matchup=pairing, pair_index=seq // 2, bot0=bot0, bot1=bot1, seed=1000 + seq // 2, score0=30, score1=12, winner=winner,
                   winner_seat=0 if winner == bot0 else 1, termination=termination, faulty_bot=faulty, hands=7, duration=1.25, actions=("0 play 1E", "1 mazo"),
                   reason=f"{termination} in game {key}")


def test_rows_round_trip_in_schedule_order_and_never_twice(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "x"})
        store.record(_row("g2", 2, "a", "b", "a"))
        store.record(_row("g0", 0, "a", "b", "b"))
        with pytest.raises(StoreError, match="already recorded"):
            store.record(_row("g0", 0, "a", "b", "b"))
    with ResultsStore.open_existing(path) as store:
        rows = list(store.games())
        assert [r.game_key for r in rows] == ["g0", "g2"]
        assert rows[0].actions == ("0 play 1E", "1 mazo") and rows[0].duration == 1.25
        assert store.recorded_keys() == {"g0", "g2"} and store.get_meta("config") == {"name": "x"}
        assert rows[1].reason == "target_reached in game g2"


def test_open_existing_rejects_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results database"):
        ResultsStore.open_existing(tmp_path / "nope.sqlite")


# The schema as it was before versions were stamped (user_version 0), copied
# verbatim: databases like this exist and must open with every row intact.
_VERSION_1_DDL = """
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
_VERSION_1_GAMES = [
    ("a|b:0:0", 0, "a|b", 0, "a", "b", 0, 11, 30, 12, "a", 0, "target_reached", None, 7, 1.5,
     '["0 play 1E", "1 mazo"]', 1700000000.25),
    ("a|b:0:1", 1, "a|b", 0, "b", "a", 0, 11, 3, 0, "b", 0, "timeout", "a", 1, 9.0, '["0 truco"]', 1700000001.5),
]


def _version_1_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(_VERSION_1_DDL)
    db.execute("INSERT INTO meta VALUES (?, ?)", ("config", json.dumps({"name": "old", "variant": "argentino"})))
    db.executemany("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", _VERSION_1_GAMES)
    db.execute("INSERT INTO interrupted VALUES (?, ?, ?)", ("a|b:1:0", 1700000002.0, "arena stopped"))
    db.commit()
    db.close()


def _version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _expected_version_1_rows() -> list[GameRecord]:
    return [GameRecord(game_key=k, seq=seq, matchup=m, pair_index=pi, bot0=b0, bot1=b1, seed=seed,
                       score0=s0, score1=s1, winner=w, winner_seat=ws, termination=Termination(t), faulty_bot=f,
                       hands=h, duration=d, actions=tuple(json.loads(a)), finished_at=at,
                       row_version=6)  # written before rows carried evidence
            for k, seq, m, pi, b0, b1, _mano, seed, s0, s1, w, ws, t, f, h, d, a, at in _VERSION_1_GAMES]


def test_a_version_1_database_is_read_as_it_is_and_migrated_when_opened_to_write(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _version_1_database(path)
    before = _digest(path)
    with ResultsStore.open_existing(path) as store:  # the views read it without touching it
        assert store.version == 1 and list(store.games()) == _expected_version_1_rows()
    assert _digest(path) == before and _version(path) == 0
    with ResultsStore.create_or_open(path) as store:
        assert store.version == LATEST_VERSION
        assert list(store.games()) == _expected_version_1_rows()  # reason reads as "" for old rows
        assert store.get_meta("config") == {"name": "old", "variant": "argentino"}
        store.record(_row("new", 2, "a", "b", "b"))
    assert _version(path) == LATEST_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT * FROM interrupted").fetchall() == [("a|b:1:0", 1700000002.0, "arena stopped")]
        columns = [c[1] for c in db.execute("PRAGMA table_info(games)")]
        assert columns[:4] == ["game_key", "seq", "matchup", "pair_index"] and "mano" not in columns
        assert columns[17:] == ["reason", "version0", "version1", "cpu0", "cpu1", "fallbacks0", "fallbacks1", "game_id",
                                "evidence", "row_version", "prev_mac", "mac", "stderr"]
        assert [k for (k,) in db.execute("SELECT game_id FROM games ORDER BY seq")][:2] == ["a:b:0:0", "a:b:0:1"]
    with ResultsStore.open_existing(path) as store:
        rows = list(store.games())
        assert rows[:2] == _expected_version_1_rows() and rows[2].reason == "target_reached in game new"


def _as_version_8(path: Path, mano: int = 0) -> None:
    """Turn a store written now back into the layout of schema version 8: the
    matchup column named ``pairing`` and a ``mano`` column (always 0 as written)."""
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games RENAME COLUMN matchup TO pairing")
        db.execute("ALTER TABLE games ADD COLUMN mano INTEGER NOT NULL DEFAULT 0")
        db.execute("UPDATE games SET mano = ? WHERE seq = 1", (mano,))
        db.execute("PRAGMA user_version = 8")
    db.close()


def test_a_version_8_store_migrates_once_and_its_signed_rows_still_verify(tmp_path: Path) -> None:
    path = tmp_path / "v8.sqlite"
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "v8", "variant": "argentino"})
        for seq, (bot0, bot1) in enumerate((("a", "b"), ("b", "a"))):
            store.record(_row(f"k{seq}", seq, bot0, bot1, "a"))
        rows, digest = list(store.games()), store.digest()
    _as_version_8(path)
    with ResultsStore.open_existing(path) as store:  # read as it is, unchanged
        assert store.version == 8 and list(store.games()) == rows and store.digest() == digest
    with ResultsStore.create_or_open(path) as store:
        assert store.version == LATEST_VERSION and list(store.games()) == rows
        assert store.unproven() == [] and store.digest() == digest  # the same signed content
        store.record(_row("k2", 2, "a", "b", "b"))
    with ResultsStore.create_or_open(path) as store:  # once: nothing left to migrate
        assert store.version == LATEST_VERSION and store.unproven() == [] and store.count() == 3
    with sqlite3.connect(path) as db:
        columns = [c[1] for c in db.execute("PRAGMA table_info(games)")]
    assert "matchup" in columns and "pairing" not in columns and "mano" not in columns


def test_a_version_8_store_with_an_edited_mano_is_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "v8.sqlite"
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "v8", "variant": "argentino"})
        for seq in range(2):
            store.record(_row(f"k{seq}", seq, "a", "b", "a"))
    _as_version_8(path, mano=1)
    before = _digest(path)
    with pytest.raises(StoreError, match=r"game k1: stored mano 1, .* the file was edited") as info:
        ResultsStore.create_or_open(path)
    assert "\n" not in str(info.value) and _digest(path) == before and _version(path) == 8


def test_a_new_database_is_stamped_with_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    ResultsStore.create_or_open(path).close()
    assert _version(path) == LATEST_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_from_a_newer_version_is_refused_by_both_ways_in(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    ResultsStore.create_or_open(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    before = _digest(path)
    for opener in (ResultsStore.open_existing, ResultsStore.create_or_open):
        with pytest.raises(StoreError, match="newer truco-arena") as info:
            opener(path)
        assert "\n" not in str(info.value)
    assert _digest(path) == before


def _foreign_database(path: Path, wal: bool) -> None:
    db = sqlite3.connect(path)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO users (name) VALUES ('ana')")
    db.commit()
    db.close()


@pytest.mark.parametrize("wal", [False, True])
def test_another_programs_database_is_refused_and_left_byte_for_byte(tmp_path: Path, wal: bool) -> None:
    path = tmp_path / "theirs.sqlite"
    _foreign_database(path, wal)
    before = _digest(path)
    for opener in (ResultsStore.open_existing, ResultsStore.create_or_open):
        with pytest.raises(StoreError, match="not a truco-arena results database"):
            opener(path)
    assert _digest(path) == before
    # A read-only look at a WAL database may leave its side files; a rollback-journal one gets none.
    assert sorted(p.name for p in tmp_path.iterdir() if wal is False or not p.name.endswith(("-wal", "-shm"))) == [
        "theirs.sqlite"]


def test_files_that_are_not_databases_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not SQLite at all\n" * 100)
    before = _digest(text)
    for opener in (ResultsStore.open_existing, ResultsStore.create_or_open):
        with pytest.raises(StoreError, match="not a SQLite database"):
            opener(text)
        with pytest.raises(StoreError, match="is a directory"):
            opener(tmp_path)
    assert _digest(text) == before
    with pytest.raises(StoreError, match="directory .* does not exist"):
        ResultsStore.create_or_open(tmp_path / "no" / "such" / "x.sqlite")
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(StoreError, match="empty"):
        ResultsStore.open_existing(empty)
    assert empty.stat().st_size == 0
    ResultsStore.create_or_open(empty).close()  # an empty file holds nothing to lose
    assert _version(empty) == LATEST_VERSION


def test_a_read_only_store_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "x"})
    with ResultsStore.open_existing(path) as store, pytest.raises(StoreError, match="read-only"):
        store.record(_row("g", 0, "a", "b", "a"))


def _records() -> list[GameRecord]:
    rows = [
        _row("1", 0, "a", "b", "a"), _row("2", 1, "b", "a", "a"),
        _row("3", 2, "a", "c", "a"), _row("4", 3, "c", "a", "c"),
        _row("5", 4, "b", "c", "c", Termination.TIMEOUT, "b"), _row("6", 5, "c", "b", "b"),
    ]
    return checked(rows)


def test_every_format_renders_the_same_numbers() -> None:
    tables = views(_records())
    assert [t.name for t in tables] == ["standings", "cross", "pairs", "suspicious", "failures", "failed_games", "ladder",
                                       "cpu"]
    standings = tables[0]
    assert [r[1] for r in standings.rows][0] == "a"  # a won 3 of 4
    payload = json.loads(render(tables, "json"))
    assert payload["standings"]["rows"][0]["bot"] == "a"
    assert payload["failures"]["rows"] == [
        {"bot": "a", "timeouts": 0, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 0, "fallbacks": 0},
        {"bot": "b", "timeouts": 1, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 1, "fallbacks": 0},
        {"bot": "c", "timeouts": 0, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 0, "fallbacks": 0},
    ]
    assert payload["failed_games"]["rows"] == [
        {"game": "5", "bot": "b", "failure": "timeout", "reason": "timeout in game 5"},
    ]
    ladder = {r["bot"]: r["points"] for r in payload["ladder"]["rows"]}
    # a: +30 +30 +30 -20 = 70; b: -20 (floor 0) -20 (0) -20 (0) +30 = 30; c: -20 (0) +30 +30 -20 = 40
    assert ladder == {"a": 70, "b": 30, "c": 40}
    text = render(tables[:1], "csv")
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0][:2] == ["rank", "bot"] and parsed[1][1] == "a"
    lines = render(tables[:1], "github").splitlines()
    assert lines[0] == "Standings" and lines[1].split("|")[1].strip() == "rank"
    assert lines[3].split("|")[2].strip() == "a" and lines[3].split("|")[6].strip() == "75.0"


def test_html_is_a_whole_page_with_every_table_escaped() -> None:
    rows = [_row("1", 0, "<b>a</b>", "b", "<b>a</b>"), _row("2", 1, "b", "<b>a</b>", "b", Termination.ILLEGAL_ACTION, "<b>a</b>")]
    page = render(views(checked(rows), ("standings", "failures")), "html")
    assert page.startswith("<!DOCTYPE html>\n<html") and page.rstrip().endswith("</html>")
    head = page[page.index("<head>"):page.index("</head>")]
    assert '<meta charset="utf-8">' in head and "<title>" in head
    assert page.count("<table>") == 3  # standings, failure counts, failed games
    assert "<b>a</b>" not in page and "&lt;b&gt;a&lt;/b&gt;" in page
    assert "illegal_action in game 2" in page
