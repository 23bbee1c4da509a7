"""Stored results are replayed before they are trusted: a real tournament's
database (games won by the rules, lost by an illegal action, by a crash, and
forfeited), then rows forged in it with sqlite3 the way a bot with write
access would. ``standings --verify`` and ``tournament resume`` must refuse
each forgery in one line naming the game, and never change the file."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.games.game_record import GameRecord
from arena.games.keyfile import key_path
from arena.games.store import ResultsStore
from arena.replay.audit import verify_store

pytestmark = pytest.mark.integration

BOTS = (
    ("crasher", "python -m sample_bots.misbehaving --mode exit --at 1"),  # crashes, then forfeits
    ("cheat", "python -m sample_bots.misbehaving --mode illegal --at 2"),  # one game lost by an illegal card
    ("steady", "python -m sample_bots.random_bot"),
)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("verify")
    lines = ['variant = "argentino"', "games_per_pairing = 4", "seed = 3", "workers = 1",
             "[options]", "target = 9"]
    for name, command in BOTS:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{command}"']
    config = directory / "t.toml"
    config.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert res.exit_code == 0, res.output
    db = config.with_suffix(".sqlite")
    kinds = {_kind(r) for r in _rows(db)}
    assert kinds == {"rules", "illegal", "crash", "forfeit"}, (kinds, res.stderr)  # every shape a row can have
    return db


def _rows(db: Path) -> list[GameRecord]:
    with ResultsStore.open_existing(db) as store:
        return list(store.games())


def _kind(row: GameRecord) -> str:
    if row.termination == "target_reached":
        return "rules"
    if row.termination == "illegal_action":
        return "illegal"
    return "forfeit" if row.hands == 0 else "crash"


def _copy(played: Path, tmp_path: Path) -> Path:
    """The database and its key file, as the organizer holds them."""
    db = tmp_path / played.name
    shutil.copy(played, db)
    shutil.copy(key_path(played), key_path(db))
    return db


def _digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def _forge(db: Path, key: str, sql: str, *args: object) -> None:
    with closing(sqlite3.connect(db)) as con, con:
        changed = con.execute(sql, (*args, key)).rowcount
    assert changed == 1


def _standings(db: Path) -> Result:
    return CliRunner().invoke(main, ["standings", str(db), "--verify"])


def _resume(db: Path) -> Result:
    return CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress"])


def _refused(res: Result, key: str, *words: str) -> None:
    """Exit 1, one line naming the game with every word, then one line saying what is refused."""
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    named = [line for line in lines if f"game {key}:" in line]
    assert len(named) == 1 and all(w in named[0] or w in lines[-1] for w in words), res.stderr
    assert "do not hold" in lines[-1], res.stderr
    assert res.stdout == ""  # no standings printed from a file that cannot be trusted


def test_an_untouched_database_verifies_clean_and_is_not_changed(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    before = _digest(db)
    res = _standings(db)
    assert res.exit_code == 0, res.output
    assert "verified 12 stored games: signatures, chain and replays" in res.stderr
    assert "Standings" in res.stdout
    assert _digest(db) == before
    with ResultsStore.open_existing(db) as store:
        assert verify_store(store).games == 12
    assert _digest(db) == before
    resumed = _resume(db)
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr == ""  # checked in silence: its first line stays the run's own (a match's SPRT line)
    assert len(_rows(db)) == 12


Forgery = tuple[str, str, tuple[object, ...], tuple[str, ...]]

FORGERIES: dict[str, Forgery] = {
    # name: (which kind of row, SQL on it, its arguments (see _argument), words the refusal must hold)
    "winner swapped": ("rules",
                       "UPDATE games SET winner = ?, winner_seat = 1 - winner_seat WHERE game_key = ?",
                       ("loser",), ("stored winner",)),
    "score changed": ("rules", "UPDATE games SET score0 = score0 + 1 WHERE game_key = ?",
                      (), ("stored score",)),
    "hands changed": ("rules", "UPDATE games SET hands = hands + 1 WHERE game_key = ?",
                      (), ("hands",)),
    "seats swapped with the winner": ("rules",
                                      "UPDATE games SET bot0 = bot1, bot1 = bot0, winner = ? WHERE game_key = ?",
                                      ("loser",), ("the schedule says",)),
    "seed changed": ("rules", "UPDATE games SET seed = seed + 1 WHERE game_key = ?",
                     (), ("seed",)),
    "last action dropped": ("rules", "UPDATE games SET actions = ? WHERE game_key = ?",
                            ("actions[:-1]",), ("not over",)),
    "a win called a timeout": ("rules",
                               "UPDATE games SET termination = 'timeout', faulty_bot = ? WHERE game_key = ?",
                               ("loser",), ("ended by the rules",)),
    "stored as interrupted": ("rules",
                              "UPDATE games SET termination = 'interrupted' WHERE game_key = ?",
                              (), ("interrupted",)),
    "illegal card won": ("illegal",
                         "UPDATE games SET winner = ?, winner_seat = 1 - winner_seat WHERE game_key = ?",
                         ("loser",), ("the loser is",)),
    "illegal card blamed on the other side": (
        "illegal",
        "UPDATE games SET winner = ?, faulty_bot = winner, winner_seat = 1 - winner_seat WHERE game_key = ?",
        ("loser",), ("was to act",)),
    "forfeit with points": ("forfeit", "UPDATE games SET score1 = 9 WHERE game_key = ?",
                            (), ("a forfeit is absent, crash or, in older files, a disconnect at 0-0",)),
    "forfeit called a win by the rules": (
        "forfeit",
        "UPDATE games SET termination = 'target_reached', faulty_bot = NULL WHERE game_key = ?",
        (), ("no hand dealt",)),
}


def _argument(row: GameRecord, name: object) -> object:
    if name == "loser":
        return row.bot1 if row.winner == row.bot0 else row.bot0
    if name == "actions[:-1]":
        return json.dumps(list(row.actions[:-1]))
    return name


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_row_is_refused_by_verify_and_resume(played: Path, tmp_path: Path, name: str) -> None:
    kind, sql, args, words = FORGERIES[name]
    db = _copy(played, tmp_path)
    row = next(r for r in _rows(db) if _kind(r) == kind)
    _forge(db, row.game_key, sql, *(_argument(row, a) for a in args))
    forged = _digest(db)
    _refused(_standings(db), row.game_key, str(db), *words)
    assert _digest(db) == forged
    _refused(_resume(db), row.game_key, "refusing to resume", *words)
    assert _digest(db) == forged  # nothing was written: no game played, no migration, no checkpoint


def test_a_row_that_is_not_in_the_schedule_is_refused(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    with closing(sqlite3.connect(db)) as con, con:
        columns = [c[1] for c in con.execute("PRAGMA table_info(games)")]
        copied = ", ".join("'steady|cheat#9a'" if c == "game_key" else c for c in columns)
        con.execute(f"INSERT INTO games ({', '.join(columns)}) SELECT {copied} FROM games "
                    f"WHERE termination = 'target_reached' LIMIT 1")
    _refused(_standings(db), "steady|cheat#9a", "not a game of this tournament's schedule")
    _refused(_resume(db), "steady|cheat#9a", "not a game of this tournament's schedule")


def test_without_verify_standings_do_not_replay(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    row = next(r for r in _rows(db) if _kind(r) == "rules")
    _forge(db, row.game_key, "UPDATE games SET score0 = score0 + 1 WHERE game_key = ?")
    res = CliRunner().invoke(main, ["standings", str(db)])
    assert res.exit_code == 0 and "verified" not in res.stderr  # the plain view reads as before; --verify is asked for


def test_a_column_forged_to_hold_text_is_refused_without_a_traceback(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    row = next(r for r in _rows(db) if _kind(r) == "rules")
    _forge(db, row.game_key, "UPDATE games SET hands = 'many' WHERE game_key = ?")
    _refused(_standings(db), row.game_key, "is not a whole number")


def test_a_team_game_tournament_verifies_and_blame_on_the_wrong_team_is_refused(tmp_path: Path) -> None:
    lines = ['variant = "argentino"', "games_per_pairing = 2", "seed = 4", "workers = 1",
             "[options]", "seats = 4", "target = 9",
             "[[bots]]", 'name = "cheat"', 'command = "python -m sample_bots.misbehaving --mode illegal --at 3"',
             "[[bots]]", 'name = "steady"', 'command = "python -m sample_bots.random_bot"']
    config = tmp_path / "teams.toml"
    config.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert res.exit_code == 0, res.output
    db = config.with_suffix(".sqlite")
    clean = _standings(db)
    assert clean.exit_code == 0 and "verified 2 stored games" in clean.stderr, clean.output
    assert all(r.evidence is not None and r.evidence.moves == len(r.actions) for r in _rows(db)
               if r.termination == "illegal_action")
    illegal = [r for r in _rows(db) if r.termination == "illegal_action"]
    assert illegal, "the cheat's processes each play one illegal card: some game must end by it"
    row = illegal[0]
    _forge(db, row.game_key, "UPDATE games SET winner = faulty_bot, faulty_bot = winner, "
                             "winner_seat = 1 - winner_seat WHERE game_key = ?")
    _refused(_standings(db), row.game_key, "was to act")
