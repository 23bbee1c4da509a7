"""Views an organizer meets: interim standings every N games, interrupted
games listed, a league's database named as such by `tournament status`, and
an empty pairs view that says why. Real tournaments through the CLI, real
bot processes, real SQLite files."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from forget_games import forget_games

from arena.cli import main
from arena.games.gameids import id_of_key
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
RANDOM = "python -m sample_bots.random_bot"


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _config(tmp_path: Path, games: int, *extra: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text("\n".join([
        'variant = "uruguayo"', f"games_per_pairing = {games}", "seed = 3", "concurrency = 2", "workers = 1",
        *extra, "[options]", "target = 9",
        "[[bots]]", 'name = "a"', f'command = "{RANDOM}"', "[[bots]]", 'name = "b"', f'command = "{RANDOM}"',
    ]) + "\n")
    return path


def test_standings_every_n_games_on_stderr_and_the_final_ones_on_stdout(tmp_path: Path) -> None:
    config = _config(tmp_path, 12)
    code, out, err = _invoke("tournament", "run", str(config), "--no-progress", "--standings-every", "4", "--json")
    assert code == 0, err
    assert [line for line in err.splitlines() if line.startswith("standings after")] == [
        "standings after 4 games:", "standings after 8 games:", "standings after 12 games:"]
    assert json.loads(out)["standings"]["rows"]  # stdout: only the final result, for scripts
    # The default (every 100 games) stays quiet in a short run.
    (tmp_path / "short").mkdir()
    code, _, err = _invoke("tournament", "run", str(_config(tmp_path / "short", 4)), "--no-progress")
    assert code == 0 and "standings after" not in err


def test_interim_standings_count_the_games_of_earlier_runs_after_a_resume(tmp_path: Path) -> None:
    config = _config(tmp_path, 8)
    db = config.with_suffix(".sqlite")
    code, _, err = _invoke("tournament", "run", str(config), "--no-progress", "--standings-every", "0")
    assert code == 0 and "standings after" not in err
    forget_games(db, keep=4)  # the file before its last 4 games: a resume plays them again
    code, _, err = _invoke("tournament", "resume", str(db), "--no-progress", "--standings-every", "2")
    assert code == 0, err
    assert [line for line in err.splitlines() if line.startswith("standings after")] == [
        "standings after 6 games:", "standings after 8 games:"]


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_games_termination_interrupted_lists_the_interrupted_games(tmp_path: Path) -> None:
    config = tmp_path / "long.toml"
    config.write_text("\n".join([
        'variant = "argentino"', "games_per_pairing = 400", "seed = 1", "concurrency = 2", "workers = 1",
        "[[bots]]", 'name = "a"', f'command = "{RANDOM}"', "[[bots]]", 'name = "b"', f'command = "{RANDOM}"',
    ]) + "\n")
    db = config.with_suffix(".sqlite")
    proc = subprocess.Popen([*CLI, "tournament", "run", str(config), "--no-progress"], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _count(db) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    assert proc.returncode == 130
    with ResultsStore.open_existing(db) as store:
        interrupted = store.interrupted()
    assert interrupted, "the run was stopped while games were running"
    code, out, _ = _invoke("games", str(db), "--termination", "interrupted", "--json")
    assert code == 0
    listed = json.loads(out)["games"]["rows"]
    assert [r["game"] for r in listed] == [id_of_key(key) for key, _at, _reason in interrupted]  # shell-safe ids
    assert all(r["reason"] and r["recorded since"] == "no" for r in listed)
    for bot in ("a", "b"):  # both bots of the pairing
        code, out, _ = _invoke("games", str(db), "--termination", "interrupted", "--bot", bot, "--json")
        assert code == 0 and len(json.loads(out)["games"]["rows"]) == len(listed)
    code, out, _ = _invoke("games", str(db), "--termination", "interrupted")
    assert code == 0 and "still to play" in out


def test_tournament_status_on_a_league_database_names_league_status(tmp_path: Path) -> None:
    db = tmp_path / "league.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", {"kind": "league", "variant": "argentino"})
    code, out, err = _invoke("tournament", "status", str(db))
    assert code == 2 and out == ""
    assert err == f"error: {db}: a league's database, not a tournament's: use `truco-arena league status {db}`\n"


def test_an_empty_pairs_view_says_why(tmp_path: Path) -> None:
    config = _config(tmp_path, 4, 'pairing = "independent"')
    code, _, err = _invoke("tournament", "run", str(config), "--no-progress")
    assert code == 0, err
    code, out, _ = _invoke("standings", str(config.with_suffix(".sqlite")), "--view", "pairs")
    assert code == 0 and 'No duplicate pairs: every game was played on a deal of its own' in out
    code, out, _ = _invoke("standings", str(config.with_suffix(".sqlite")), "--view", "pairs", "--json")
    pairs = json.loads(out)["pairs"]
    assert pairs["rows"] == [] and pairs["notes"][0].startswith("No duplicate pairs")
