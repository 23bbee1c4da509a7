"""Someone holding the results file but not its key file cannot make a single
row that verifies.

The forger here has what a co-organizer or the public has: a copy of the
database (sqlite3, the engine, and the tournament's seed when the config has
one, so the deal secret too), and not ``DB.key``. Each forgery is one the
replay alone lets through (a win rewritten as the opponent's forfeit,
timeout, crash or disconnect cut where it was that seat's turn, another
legal game on the row's own seed, games not played yet), or one that breaks
the file's order. ``standings --verify`` and ``tournament resume``, holding
the key file, must each refuse it, naming the game and the kind, and leave
the file as it was.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.engine import Action, Game, Termination
from arena.engine import events as ev
from arena.games.keyfile import key_path
from arena.games.seeds import TournamentSecret
from arena.games.store import ResultsStore
from arena.replay.audit import verify_store
from arena.replay.stored import options_of
from arena.tournament.config import parse_config
from arena.tournament.runner import schedule_of

pytestmark = pytest.mark.integration

SEED = 3  # the config's seed: the forger derives the deal secret from it
BOTS = (
    ("crasher", "python -m sample_bots.misbehaving --mode exit --at 1"),  # crashes, then forfeits
    ("cheat", "python -m sample_bots.misbehaving --mode illegal --at 2"),  # loses by an illegal card
    ("steady", "python -m sample_bots.random_bot"),
)
KEEP = 8  # the partial file holds the first 8 of the 12 games: the rest are still to play


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("forgeries")
    lines = ['variant = "argentino"', "games_per_pairing = 4", f"seed = {SEED}", "workers = 1",
             "[options]", "target = 9"]
    for name, command in BOTS:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{command}"']
    config = directory / "t.toml"
    config.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert res.exit_code == 0, res.output
    return config.with_suffix(".sqlite")


def _copy(source: Path, directory: Path, name: str = "t.sqlite") -> Path:
    """The database and its key file, as the organizer holds them."""
    directory.mkdir(exist_ok=True)
    db = directory / name
    shutil.copy(source, db)
    shutil.copy(key_path(source), key_path(db))
    return db


def _partial(played: Path, directory: Path, keep: int = KEEP) -> Path:
    """What the organizer's file looked like while only ``keep`` games were
    played: written through the store, signed with a key file of its own."""
    directory.mkdir(exist_ok=True)
    db = directory / "partial.sqlite"
    with ResultsStore.open_existing(played) as source:
        rows = [stored.row for stored in source.chain()]
        config, config_dir, secret = source.get_meta("config"), source.get_meta("config_dir"), source.secret()
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", config)
        store.set_meta("config_dir", config_dir)
        store.set_secret(secret)
        for row in rows[:keep]:
            assert row is not None
            store.record(row)
    return db


# -- the forger's tools: sqlite3 and the engine, no key


def _raw(db: Path) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(db)) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute("SELECT rowid AS rowid_, * FROM games ORDER BY rowid")]


def _update(db: Path, key: str, **values: Any) -> None:
    sets = ", ".join(f"{c} = ?" for c in values)
    with closing(sqlite3.connect(db)) as con, con:
        assert con.execute(f"UPDATE games SET {sets} WHERE game_key = ?", (*values.values(), key)).rowcount == 1


def _insert(db: Path, row: dict[str, Any]) -> None:
    columns = [c for c in row if c != "rowid_"]
    with closing(sqlite3.connect(db)) as con, con:
        con.execute(f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                    [row[c] for c in columns])


def _game(db: Path) -> Game:
    with ResultsStore.open_existing(db) as store:
        return Game(options_of(store.get_meta("config")))


def _random_game(game: Game, seed: int, rng: random.Random, stop: Callable[[Any], bool] = lambda s: False
                 ) -> tuple[Any, list[str]]:
    """A legal game on ``seed``, to its end or until ``stop(state)``: the state and its log."""
    state = game.new_state(seed=seed)
    actions: list[str] = []
    while not state.is_terminal() and not stop(state):
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        actions.append(f"{seat} {action}")
        state.apply(action)
    return state, actions


def _hands(state: Any) -> int:
    return len({e.hand for e in state.events if isinstance(e, ev.HandStarted)})


def _win_of(db: Path) -> dict[str, Any]:
    """A game won by the rules, played long enough to cut it where its loser is to act."""
    return next(r for r in _raw(db) if r["termination"] == "target_reached" and len(json.loads(r["actions"])) > 4)


def _as_fault_of_winner(db: Path, termination: Termination) -> str:
    """Rewrite a win as a fault of its winner, so its loser wins: cut the log
    where the winner's seat is to act (what the replay wants of a timeout),
    with evidence that fits."""
    row = _win_of(db)
    game = _game(db)
    winner_team = row["winner_seat"]
    losing = row["bot1"] if winner_team == 0 else row["bot0"]
    state = game.new_state(seed=row["seed"])
    log = json.loads(row["actions"])
    cut = 0
    for i, text in enumerate(log):
        to_act = state.current_player()
        if i >= 2 and to_act is not None and to_act % 2 == winner_team:
            cut = i
            break
        state.apply(Action.parse(text.split(" ", 1)[1]))
    assert cut, "the winner was never to act"
    seat = state.current_player()
    evidence = {"seat": seat, "moves": cut, "move_time": 2.0, "bank": 30.0, "bank_used": 0.0, "waited": 32.5}
    _update(db, row["game_key"], winner=losing, winner_seat=1 - winner_team, termination=termination.value,
            faulty_bot=row["winner"], actions=json.dumps(log[:cut]), score0=state.scores[0], score1=state.scores[1],
            hands=_hands(state), evidence=json.dumps(evidence), reason=f"seat {seat} ran out of time")
    return str(row["game_key"])


def _as_forfeit_of_winner(db: Path, termination: Termination) -> str:
    row = _win_of(db)
    winner_team = row["winner_seat"]
    losing = row["bot1"] if winner_team == 0 else row["bot0"]
    _update(db, row["game_key"], winner=losing, winner_seat=1 - winner_team, termination=termination.value,
            faulty_bot=row["winner"], actions="[]", score0=0, score1=0, hands=0, duration=0.0,
            evidence=json.dumps({"seat": winner_team, "moves": 0}),
            reason=f"forfeit ({termination.value}): {row['winner']} not connected")
    return str(row["game_key"])


def _flip_winner(db: Path) -> str:
    row = _win_of(db)
    _update(db, row["game_key"], winner=row["bot1"] if row["winner_seat"] == 0 else row["bot0"],
            winner_seat=1 - row["winner_seat"])
    return str(row["game_key"])


def _another_game_on_its_seed(db: Path) -> str:
    """The row replaced by a whole legal game of the forger's on the row's own deal."""
    row = _win_of(db)
    game, rng = _game(db), random.Random(1)
    while True:
        state, log = _random_game(game, row["seed"], rng)
        if state.winner is not None and state.winner != row["winner_seat"]:
            break
    _update(db, row["game_key"], actions=json.dumps(log), score0=state.scores[0], score1=state.scores[1],
            hands=_hands(state), winner=row["bot0"] if state.winner == 0 else row["bot1"], winner_seat=state.winner)
    return str(row["game_key"])


def _edit_evidence(db: Path) -> str:
    row = next(r for r in _raw(db) if r["termination"] == "illegal_action")
    evidence = json.loads(row["evidence"])
    evidence["moves"] -= 1
    _update(db, row["game_key"], evidence=json.dumps(evidence))
    return str(row["game_key"])


def _delete_a_row(db: Path) -> str:
    rows = _raw(db)
    with closing(sqlite3.connect(db)) as con, con:
        con.execute("DELETE FROM games WHERE game_key = ?", (rows[3]["game_key"],))
    return str(rows[4]["game_key"])  # the row after the hole is the one whose link breaks


def _swap_two_rows(db: Path) -> str:
    rows = _raw(db)
    a, b = rows[2], rows[5]
    with closing(sqlite3.connect(db)) as con, con:
        for r in (a, b):
            con.execute("DELETE FROM games WHERE rowid = ?", (r["rowid_"],))
        columns = [c for c in a if c != "rowid_"]
        for r, rowid in ((b, a["rowid_"]), (a, b["rowid_"])):
            con.execute(f"INSERT INTO games (rowid, {', '.join(columns)}) VALUES (?, {', '.join('?' for _ in columns)})",
                        [rowid, *(r[c] for c in columns)])
    return str(b["game_key"])  # now where a was: it does not follow a's predecessor


FORGERIES: dict[str, tuple[Callable[[Path], str], tuple[str, ...]]] = {
    # name: (the forgery, returning the game it names; the kinds the refusal must name)
    "flipped winner": (_flip_winner, ("bad MAC", "replay mismatch")),
    "win rewritten as the opponent's absent forfeit": (
        lambda db: _as_forfeit_of_winner(db, Termination.ABSENT), ("bad MAC",)),
    "win rewritten as the opponent's crash forfeit": (
        lambda db: _as_forfeit_of_winner(db, Termination.CRASH), ("bad MAC",)),
    "win rewritten as the opponent's timeout": (
        lambda db: _as_fault_of_winner(db, Termination.TIMEOUT), ("bad MAC",)),
    "win rewritten as the opponent's disconnect": (
        lambda db: _as_fault_of_winner(db, Termination.DISCONNECT), ("bad MAC",)),
    "another game on the row's own seed": (_another_game_on_its_seed, ("bad MAC",)),
    "evidence edited": (_edit_evidence, ("bad MAC", "evidence inconsistent")),
    "a row deleted": (_delete_a_row, ("broken chain",)),
    "two rows swapped": (_swap_two_rows, ("broken chain",)),
}


def _digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def _verify(db: Path) -> Result:
    return CliRunner().invoke(main, ["standings", str(db), "--verify"])


def _resume(db: Path) -> Result:
    return CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress"])


def _refused(res: Result, key: str, kinds: tuple[str, ...], refusing: str) -> None:
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.stderr and res.stdout == "", res.output
    lines = res.stderr.strip().splitlines()
    named = [line for line in lines if f"game {key}:" in line]
    assert len(named) == 1 and all(f"{kind}:" in named[0] for kind in kinds), res.stderr
    assert refusing in lines[-1], res.stderr


def _refused_both_ways(db: Path, key: str, kinds: tuple[str, ...]) -> None:
    forged = _digest(db)
    _refused(_verify(db), key, kinds, "its standings are not shown")
    _refused(_resume(db), key, kinds, "refusing to resume")
    assert _digest(db) == forged  # nothing was written: no game played, no migration


def test_the_results_file_holds_no_secret_and_an_untouched_one_verifies(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    with closing(sqlite3.connect(db)) as con:
        meta = dict(con.execute("SELECT key, value FROM meta"))
    assert "secret" not in meta
    keys = json.loads(key_path(db).read_text())
    assert keys["secret"] not in db.read_bytes().decode("latin-1")
    assert keys["signing_key"] not in db.read_bytes().decode("latin-1")
    assert key_path(db).stat().st_mode & 0o777 == 0o600
    res = _verify(db)
    assert res.exit_code == 0 and "verified 12 stored games" in res.stderr, res.output
    faults = [r for r in _raw(db) if r["termination"] != "target_reached"]
    assert faults and all(json.loads(r["evidence"])["moves"] == len(json.loads(r["actions"])) for r in faults)
    crashes = [json.loads(r["evidence"]) for r in faults if r["faulty_bot"] == "crasher"]
    # The crasher exits with status 3: its disconnects and its crash forfeits carry it.
    assert crashes and any(e.get("exit_code") == 3 for e in crashes), crashes
    assert all(json.loads(r["evidence"]).get("exit_code") == 3 for r in faults if r["termination"] == "crash")


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_each_forgery_is_refused_by_verify_and_resume_naming_the_game(played: Path, tmp_path: Path,
                                                                      name: str) -> None:
    forge, kinds = FORGERIES[name]
    db = _copy(played, tmp_path)
    key = forge(db)
    _refused_both_ways(db, key, kinds)


def _future_row(db: Path, secret: TournamentSecret | None) -> tuple[dict[str, Any], str]:
    """A row for a game not played yet, a whole legal game the forger won for
    ``steady``; with ``secret``, on the very deal the schedule will give it."""
    with ResultsStore.open_existing(db) as store:
        config = parse_config(store.get_meta("config"))
        recorded = store.recorded_keys()
    seq, future = next((i, g) for i, g in enumerate(schedule_of(config)) if g.key not in recorded)
    seed = secret.deal_seed(future.deal) if secret is not None else random.Random(5).getrandbits(62)
    game, rng = _game(db), random.Random(2)
    team = 0 if future.bot0 == "steady" else 1
    while True:
        state, log = _random_game(game, seed, rng)
        if state.winner == team:
            break
    template = _raw(db)[-1]
    row = dict(template, game_key=future.key, game_id=future.key.replace("|", ":").replace("#", ":"), seq=seq,
               matchup=future.matchup, pair_index=future.pair_index, bot0=future.bot0, bot1=future.bot1, seed=seed,
               actions=json.dumps(log), score0=state.scores[0], score1=state.scores[1], hands=_hands(state),
               winner="steady", winner_seat=team, termination="target_reached", faulty_bot=None, evidence=None,
               prev_mac=template["mac"], mac=secrets.token_hex(32), reason="")
    del row["rowid_"]
    return row, future.key


@pytest.mark.parametrize("with_secret", [True, False], ids=["with-the-secret", "without-the-secret"])
def test_rows_for_games_not_played_yet_are_refused(played: Path, tmp_path: Path, with_secret: bool) -> None:
    db = _partial(played, tmp_path / "organizer")
    clean = _verify(db)
    assert clean.exit_code == 0 and f"verified {KEEP} stored games" in clean.stderr, clean.output
    row, key = _future_row(db, TournamentSecret.from_seed(SEED) if with_secret else None)
    _insert(db, row)
    # With the secret the deal is right and the game replays: only the signature tells.
    _refused_both_ways(db, key, ("bad MAC",) if with_secret else ("bad MAC", "a row from another tournament"))


def test_a_row_copied_from_another_tournaments_file_is_refused(played: Path, tmp_path: Path) -> None:
    ours = _partial(played, tmp_path / "ours")
    theirs = _partial(played, tmp_path / "theirs")  # the same games, signed by another file's key
    victim = _raw(ours)[4]
    copied = next(r for r in _raw(theirs) if r["game_key"] == victim["game_key"])
    _update(ours, victim["game_key"], **{c: copied[c] for c in ("mac", "prev_mac", "finished_at")})
    _refused_both_ways(ours, str(victim["game_key"]), ("bad MAC",))


def test_without_the_key_file_verify_checks_what_it_can_and_does_not_pass(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    key_path(db).unlink()
    res = _verify(db)
    assert res.exit_code == 1 and res.stdout == "", res.output
    assert "signatures were not checked: no key file" in res.stderr and "12 games replay" in res.stderr
    flipped = _flip_winner(db)
    res = _verify(db)
    assert res.exit_code == 1 and f"game {flipped}: replay mismatch" in res.stderr, res.output
    resumed = _resume(db)
    assert resumed.exit_code == 1 and "no key file" in resumed.stderr, resumed.output


def test_a_key_file_others_may_read_or_a_link_is_refused(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    key_path(db).chmod(0o644)
    res = _verify(db)
    assert res.exit_code == 1 and "group or others may read it" in res.stderr, res.output
    key_path(db).chmod(0o600)
    real = tmp_path / "elsewhere.key"
    key_path(db).rename(real)
    key_path(db).symlink_to(real)
    res = _verify(db)
    assert res.exit_code == 1 and "symbolic link" in res.stderr, res.output


def test_an_older_file_migrates_its_secret_out_and_then_verifies(played: Path, tmp_path: Path) -> None:
    """A file of schema version 6 (the secret in meta, no signatures): resume
    moves the secret to the key file with one line, changes no recorded row,
    and the migrated file verifies."""
    db = _copy(played, tmp_path)
    with ResultsStore.open_existing(db) as store:
        secret = store.secret()
    assert secret is not None
    key_path(db).unlink()
    with closing(sqlite3.connect(db)) as con, con:
        for column in ("evidence", "row_version", "prev_mac", "mac", "stderr"):  # the columns of versions 7 and 8
            con.execute(f"ALTER TABLE games DROP COLUMN {column}")
        con.execute("ALTER TABLE games RENAME COLUMN matchup TO pairing")  # and the layout before version 9
        con.execute("ALTER TABLE games ADD COLUMN mano INTEGER NOT NULL DEFAULT 0")
        con.execute("DELETE FROM meta WHERE key = 'chain_head'")
        con.execute("INSERT INTO meta (key, value) VALUES ('secret', ?)", (json.dumps(secret.hex),))
        con.execute("PRAGMA user_version = 6")
    with ResultsStore.open_existing(db) as store:
        before = [r.__dict__ | {"row_version": 0} for r in store.games()]
    old = _verify(db)
    assert old.exit_code == 1 and "written before rows were signed" in old.stderr, old.output
    resumed = _resume(db)
    assert resumed.exit_code == 0, resumed.output
    notice = [line for line in resumed.stderr.splitlines() if "upgraded to signed rows" in line]
    assert len(notice) == 1 and "moved its deal secret out to" in notice[0] and str(key_path(db)) in notice[0]
    with closing(sqlite3.connect(db)) as con:
        assert con.execute("SELECT 1 FROM meta WHERE key = 'secret'").fetchone() is None
    with ResultsStore.open_existing(db) as store:
        assert store.secret() == secret
        assert [r.__dict__ | {"row_version": 0} for r in store.games()] == before  # nothing recorded changed
        assert verify_store(store).proven
    res = _verify(db)
    assert res.exit_code == 0 and "verified 12 stored games" in res.stderr, res.output


def test_the_digest_is_the_same_for_every_copy_and_changes_with_any_row(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path / "a")
    published = tmp_path / "published.sqlite"
    shutil.copy(db, published)  # the public copy: no key file
    ours = CliRunner().invoke(main, ["standings", str(db), "--digest"])
    theirs = CliRunner().invoke(main, ["standings", str(published), "--digest"])
    assert ours.exit_code == 0 and theirs.exit_code == 0, ours.output + theirs.output
    assert ours.stdout == theirs.stdout and ours.stdout.startswith("sha256:") and len(ours.stdout.strip()) == 71
    _update(published, _win_of(published)["game_key"], duration=1.0)
    changed = CliRunner().invoke(main, ["standings", str(published), "--digest"])
    assert changed.stdout != ours.stdout


def test_the_report_shows_the_digest_people_recompute(played: Path, tmp_path: Path) -> None:
    db = _copy(played, tmp_path)
    announced = CliRunner().invoke(main, ["standings", str(db), "--digest"]).stdout.strip()
    res = CliRunner().invoke(main, ["report", str(db), "-o", str(tmp_path / "report")])
    assert res.exit_code == 0, res.output
    assert f"<code>{announced}</code>" in (tmp_path / "report" / "index.html").read_text()
