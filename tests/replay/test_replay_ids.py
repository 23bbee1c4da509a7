"""Game ids people type: shell-safe (no quotes needed), the old form still
accepted, and a unique start of an id is enough for `replay`. A real
tournament's results file; the CLI as a real process for the shell test."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.games.gameids import id_of_key
from arena.games.store import ResultsStore


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_games_lists_shell_safe_ids_that_replay_takes_unquoted(small_db: Path) -> None:
    code, out, _ = _run("games", str(small_db), "--json")
    assert code == 0
    ids = [r["game"] for r in json.loads(out)["games"]["rows"]]
    assert ids and all(shlex.quote(i) == i for i in ids)  # nothing a shell would read otherwise
    with ResultsStore.open_existing(small_db) as store:
        assert ids == [id_of_key(r.game_key) for r in store.games()]
    # Typed into a real shell, unquoted, as `games` printed it.
    line = f"{shlex.quote(sys.executable)} -c 'from arena.cli import main; main()' replay {small_db} {ids[0]} --json"
    done = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["info"]["game_id"] == ids[0]


def test_replay_takes_the_old_form_and_a_unique_prefix(small_db: Path) -> None:
    with ResultsStore.open_existing(small_db) as store:
        rows = list(store.games())
    row = rows[-1]
    _, by_id, _ = _run("replay", str(small_db), row.game_id, "--json")
    code, by_key, _ = _run("replay", str(small_db), row.game_key, "--json")
    assert code == 0 and by_key == by_id
    unique = next(row.game_id[:n] for n in range(1, len(row.game_id) + 1)
                  if sum(r.game_id.startswith(row.game_id[:n]) for r in rows) == 1)
    code, by_prefix, _ = _run("replay", str(small_db), unique, "--json")
    assert code == 0 and by_prefix == by_id


def test_an_ambiguous_or_unknown_id_is_one_line_naming_the_candidates(small_db: Path) -> None:
    with ResultsStore.open_existing(small_db) as store:
        rows = list(store.games())
    pairing = rows[0].game_id.rsplit(":", 1)[0] + ":"  # the start every game of that pairing shares
    matching = [r.game_id for r in rows if r.game_id.startswith(pairing)]
    assert len(matching) > 1
    code, out, err = _run("replay", str(small_db), pairing)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert f"is the start of {len(matching)} games' ids ({matching[0]}, " in err and "type more of it" in err
    code, _, err = _run("replay", str(small_db), "nobody:")
    assert code == 1 and "no game 'nobody:'" in err and err.count("\n") == 1


def test_a_version_5_file_gets_its_ids_by_migration_and_is_read_unchanged_before(small_db: Path,
                                                                                  tmp_path: Path) -> None:
    old = tmp_path / "v5.sqlite"
    old.write_bytes(small_db.read_bytes())
    with sqlite3.connect(old) as db:  # the file as version 5 wrote it: no game_id column, no signatures
        db.execute("DROP INDEX games_by_id")
        for column in ("game_id", "evidence", "row_version", "prev_mac", "mac", "stderr"):
            db.execute(f"ALTER TABLE games DROP COLUMN {column}")
        db.execute("ALTER TABLE games RENAME COLUMN matchup TO pairing")  # named so before version 9
        db.execute("ALTER TABLE games ADD COLUMN mano INTEGER NOT NULL DEFAULT 0")
        db.execute("PRAGMA user_version = 5")
    with ResultsStore.open_existing(old) as store:  # read-only: ids computed, the file untouched
        assert store.version == 5
        ids = [r.game_id for r in store.games()]
    with ResultsStore.open_existing(small_db) as store:
        assert ids == [r.game_id for r in store.games()]
    ResultsStore.create_or_open(old).close()  # opened to write: migrated
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 6
        stored = [i for (i,) in db.execute("SELECT game_id FROM games ORDER BY seq")]
    assert stored == ids
