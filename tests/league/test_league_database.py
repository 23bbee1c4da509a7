"""The league's side of the results store, on real SQLite files: adopting a
file, continuing it, refusing another's, the v3 columns, whole pairs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.schema import LATEST_VERSION
from arena.games.store import ResultsStore, StoreError
from arena.league import LeagueDatabase, LeagueDatabaseError, parse_league_config
from arena.league.keys import match_games


def row(key: str, seq: int, pair_index: int = -1, version0: str = "") -> GameRecord:
    return GameRecord(game_key=key, seq=seq, matchup="a|b", pair_index=pair_index, bot0="a", bot1="b", seed=7, score0=30, score1=3, winner="a", winner_seat=0, termination=Termination.TARGET_REACHED, faulty_bot=None, hands=4, duration=0.5,
                   actions=("0 play 1o",), reason="30 points", version0=version0, version1="2.0")


def test_a_new_file_becomes_a_league_and_a_restart_continues_it(tmp_path: Path) -> None:
    path = tmp_path / "league.sqlite"
    config = parse_league_config({})
    with ResultsStore.create_or_open(path) as store:
        db = LeagueDatabase(store, config)
        secret = db.secret
        assert [db.take_match_number() for _ in range(3)] == [0, 1, 2]
        db.record((row("a|b#m0", 0, version0="1.0"),))
    with ResultsStore.create_or_open(path) as store:
        db = LeagueDatabase(store, parse_league_config({"concurrency": 2}))  # the clock and concurrency may change
        assert db.secret == secret
        assert db.take_match_number() == 3
        assert [(r.bot0, r.bot1, r.winner) for r in db.results()] == [("a", "b", "a")]
    with ResultsStore.open_existing(path) as store:
        (stored,) = store.games()
        assert (stored.version0, stored.version1) == ("1.0", "2.0")
        assert store.get_meta("config")["concurrency"] == 2


@pytest.mark.parametrize("change", [{"pairing": "duplicate"}, {"variant": "uruguayo"}, {"options": {"target": 15}}])
def test_other_rules_on_a_league_file_are_refused(tmp_path: Path, change: dict[str, object]) -> None:
    path = tmp_path / "league.sqlite"
    with ResultsStore.create_or_open(path) as store:
        LeagueDatabase(store, parse_league_config({}))
    with ResultsStore.create_or_open(path) as store, pytest.raises(LeagueDatabaseError, match=next(iter(change))):
        LeagueDatabase(store, parse_league_config(change))


def test_a_tournament_file_is_not_a_league(tmp_path: Path) -> None:
    path = tmp_path / "weekly.sqlite"
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "weekly", "bots": []})
    with ResultsStore.create_or_open(path) as store, pytest.raises(LeagueDatabaseError, match="tournament"):
        LeagueDatabase(store, parse_league_config({}))


def test_a_pair_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    with ResultsStore.create_or_open(tmp_path / "league.sqlite") as store:
        store.record(row("a|b#m0b", 1, 0))
        with pytest.raises(StoreError, match="already recorded"):
            store.record_together((row("a|b#m0a", 0, 0), row("a|b#m0b", 1, 0)))
        assert store.recorded_keys() == {"a|b#m0b"}  # the first half was rolled back with the second


def test_version_2_files_gain_the_version_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE games (game_key TEXT PRIMARY KEY, seq INTEGER NOT NULL, pairing TEXT NOT NULL,
            pair_index INTEGER NOT NULL, bot0 TEXT NOT NULL, bot1 TEXT NOT NULL, mano INTEGER NOT NULL,
            seed INTEGER NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL, winner TEXT,
            winner_seat INTEGER, termination TEXT NOT NULL, faulty_bot TEXT, hands INTEGER NOT NULL,
            duration REAL NOT NULL, actions TEXT NOT NULL, finished_at REAL NOT NULL,
            reason TEXT NOT NULL DEFAULT '');
        CREATE TABLE interrupted (game_key TEXT NOT NULL, at REAL NOT NULL, reason TEXT NOT NULL);
        INSERT INTO meta VALUES ('config', '{"name": "old"}');
        INSERT INTO games VALUES ('a|b#0', 0, 'a|b', -1, 'a', 'b', 0, 1, 30, 0, 'a', 0, 'target_reached', NULL,
            3, 0.1, '[]', 0, 'done');
        PRAGMA user_version = 2;
    """)
    db.close()
    with ResultsStore.open_existing(path) as store:  # read as it is: no new columns needed
        assert [(g.version0, g.version1) for g in store.games()] == [("", "")]
    with ResultsStore.create_or_open(path) as store:
        assert store.version == LATEST_VERSION >= 3
        (old,) = store.games()
        assert (old.version0, old.version1, old.reason) == ("", "", "done")


def test_match_keys_never_repeat_and_duplicate_halves_share_the_deal() -> None:
    (seq0, first), (seq1, second) = match_games(5, ("a", "b"), duplicate=True, swap_first=False)
    assert (seq0, seq1) == (10, 11) and second.after == first.key
    assert (first.bot0, second.bot0) == ("a", "b") and first.deal == second.deal
    assert first.pair_index == second.pair_index == 5 and first.key != second.key
    ((_, single),) = match_games(6, ("a", "b"), duplicate=False, swap_first=True)
    assert (single.bot0, single.pair_index) == ("b", -1) and single.deal != first.deal


@pytest.mark.parametrize("forgery", [
    "UPDATE games SET winner = 'b', winner_seat = 1 WHERE game_key = 'a|b#m1'",
    "DELETE FROM games WHERE game_key = 'a|b#m0'",
    "DELETE FROM games WHERE game_key = 'a|b#m2'",
    "INSERT INTO games SELECT * FROM games WHERE game_key = 'a|b#m2' AND 0",  # nothing: the control
])
def test_a_league_restarted_on_a_forged_file_refuses_it(tmp_path: Path, forgery: str) -> None:
    """A league has no resume: restarting it is where a row written by someone
    without the key file is refused, before any game is played or written."""
    path = tmp_path / "league.sqlite"
    with ResultsStore.create_or_open(path) as store:
        db = LeagueDatabase(store, parse_league_config({}))
        for n in range(3):
            db.take_match_number()
            db.record((row(f"a|b#m{n}", 2 * n),))
    with sqlite3.connect(path) as con:
        forged = con.execute(forgery).rowcount
    with ResultsStore.create_or_open(path) as store:
        if not forged:
            LeagueDatabase(store, parse_league_config({}))  # an untouched file goes on
            return
        with pytest.raises(LeagueDatabaseError, match="not what its key file signed, the first: game ") as err:
            LeagueDatabase(store, parse_league_config({}))
        assert "bad MAC" in str(err.value) or "broken chain" in str(err.value)
        assert store.count() == 2 + ("UPDATE" in forgery)
