"""Tournaments end to end through the CLI: real arena over loopback, real bot
subprocesses, a real SQLite file."""

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

from arena.cli import main
from arena.engine import Action, Game, make_options
from arena.games.store import ResultsStore
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

pytestmark = pytest.mark.integration

RANDOM = "python -m sample_bots.random_bot"


def _config(tmp_path: Path, *, games: int = 4, target: int = 9, concurrency: int = 2, bots: int = 3,
            name: str = "t") -> Path:
    lines = [
        f'name = "{name}"', 'variant = "uruguayo"', f"games_per_pairing = {games}", "seed = 5",
        f"concurrency = {concurrency}", "[options]", f"target = {target}",
        "[time_control]", "move_seconds = 5.0", "bank_seconds = 30.0",
    ]
    for i in range(bots):
        lines += ["[[bots]]", f'name = "r{i}"', f'command = "{RANDOM}"']
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


Row = tuple[str, str, str, int, int, int, "str | None", str, tuple[str, ...]]


def _rows(db: Path) -> list[Row]:
    """What must not depend on how the games were run (no timings)."""
    with ResultsStore.open_existing(db) as store:
        return [(r.game_key, r.bot0, r.bot1, r.seed, r.score0, r.score1, r.winner, r.termination, r.actions)
                for r in store.games()]


def test_tournament_run_records_every_game_and_prints_standings(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    result = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--json"])
    assert result.exit_code == 0, result.output + (result.stderr or "")
    table = json.loads(result.stdout)["standings"]["rows"]
    assert sorted(r["bot"] for r in table) == ["r0", "r1", "r2"]
    assert sum(r["games"] for r in table) == 2 * 12
    db = cfg.with_suffix(".sqlite")
    rows = _rows(db)
    assert len(rows) == 12 and {r[0] for r in rows} == {g.key for g in schedule_of(load_config(cfg))}
    # Every recorded game replays from its seed to the recorded score.
    game = Game(make_options("uruguayo", {"target": 9}))
    for key, _b0, _b1, seed, s0, s1, _winner, termination, actions in rows:
        assert termination == "target_reached"
        state = game.new_state(seed=seed)
        for text in actions:
            seat, _, action = text.partition(" ")
            assert state.current_player() == int(seat)
            state.apply(Action.parse(action))
        assert state.is_terminal() and tuple(state.scores) == (s0, s1), key
    # The other views and commands read the same file.
    for args in (["standings", str(db), "--view", "all", "--format", "github"],
                 ["standings", str(db), "--csv"],
                 ["tournament", "status", str(db), "--json"],
                 ["compare", str(db), str(db), "--json"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 0, (args, res.output)
    status = json.loads(CliRunner().invoke(main, ["tournament", "status", str(db), "--json"]).stdout)
    assert status["recorded"] == 12 and status["missing"] == 0 and status["complete"] is True
    cmp = json.loads(CliRunner().invoke(main, ["compare", str(db), str(db), "--json"]).stdout)["compare"]
    assert all(r["move"] == "+0" and r["delta"] == 0 for r in cmp["rows"])
    # Running again into the same database is refused: resume is the way.
    again = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])
    assert again.exit_code == 1 and "resume" in again.stderr


def test_same_results_one_at_a_time_and_four_at_once(tmp_path: Path) -> None:
    cfg = _config(tmp_path, games=6, bots=3)
    dbs = []
    for concurrency in (1, 4):
        db = tmp_path / f"c{concurrency}.sqlite"
        res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(db), "--no-progress",
                                        "--concurrency", str(concurrency)])
        assert res.exit_code == 0, res.output
        dbs.append(db)
    one, four = (sorted(_rows(db)) for db in dbs)
    assert len(one) == 18 and one == four


def test_typo_in_config_is_a_usage_error_naming_the_key(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("games_per_pairing", "games_per_pairng"))
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg)])
    assert res.exit_code == 2
    assert "games_per_pairng: unknown key" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_missing_database_is_a_one_line_domain_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["standings", str(tmp_path / "none.sqlite")])
    assert res.exit_code == 1 and "no results database" in res.stderr


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_arena_killed_mid_tournament_then_resumed_records_each_game_once(tmp_path: Path) -> None:
    cfg = _config(tmp_path, games=20, target=12, concurrency=2, bots=3, name="killed")
    db = cfg.with_suffix(".sqlite")
    exe = [sys.executable, "-c", "from arena.cli import main; main()"]
    proc = subprocess.Popen([*exe, "tournament", "run", str(cfg), "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _count(db) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the tournament finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close() if proc.stderr else None
    recorded = _count(db)
    scheduled = len(schedule_of(load_config(cfg)))
    assert 5 <= recorded < scheduled
    res = subprocess.run([*exe, "tournament", "resume", str(db), "--no-progress", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    rows = _rows(db)
    keys = [r[0] for r in rows]
    assert len(keys) == len(set(keys)) == scheduled
    assert set(keys) == {g.key for g in schedule_of(load_config(cfg))}


def test_a_bot_that_crashes_loses_that_game_and_is_restarted(tmp_path: Path) -> None:
    path = tmp_path / "crash.toml"
    # Seed 1: deals where no game is decided (say by an accepted falta envido)
    # before the crasher's third decision.
    path.write_text("\n".join([
        'variant = "argentino"', "games_per_pairing = 4", "seed = 1",
        "[[bots]]", 'name = "crasher"', 'command = "python -m sample_bots.misbehaving --mode exit --at 3"',
        "[[bots]]", 'name = "steady"', f'command = "{RANDOM}"',
    ]) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(path), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    with ResultsStore.open_existing(path.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    # Every process of the crasher dies at its 3rd decision: each game is a loss by disconnect.
    assert len(rows) == 4
    assert all(r.termination == "disconnect" and r.faulty_bot == "crasher" and r.winner == "steady" for r in rows)
    # The reason names the crash and the process's exit code (misbehaving exits with 3), not a disconnect.
    reasons = [line for line in res.stderr.splitlines() if line.startswith("game ")]
    assert len(reasons) == 4 and all("(crasher) crashed with exit code 3" in line for line in reasons), res.stderr
    assert all(r.reason.endswith("(crasher) crashed with exit code 3") for r in rows)
    failures = json.loads(CliRunner().invoke(
        main, ["standings", str(path.with_suffix(".sqlite")), "--view", "failures", "--json"]).stdout)
    assert {r["bot"]: r["disconnects"] for r in failures["failures"]["rows"]} == {"crasher": 4, "steady": 0}


def test_a_bot_that_keeps_crashing_forfeits_its_games_and_the_others_finish(tmp_path: Path) -> None:
    path = tmp_path / "dies.toml"
    path.write_text("\n".join([
        'variant = "argentino"', "games_per_pairing = 6", "seed = 3", "absent_wait_seconds = 20",
        "[options]", "target = 9",
        "[[bots]]", 'name = "crasher"', 'command = "python -m sample_bots.misbehaving --mode exit --at 1"',
        "[[bots]]", 'name = "steady"', f'command = "{RANDOM}"',
        "[[bots]]", 'name = "other"', f'command = "{RANDOM}"',
    ]) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(path), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    with ResultsStore.open_existing(path.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert len(rows) == 18  # every game of the schedule has a result
    crasher_games = [r for r in rows if "crasher" in (r.bot0, r.bot1)]
    # It lost every one: first by crashing in the game (restarted 3 times), then by forfeit.
    assert len(crasher_games) == 12
    assert all(r.winner != "crasher" and r.faulty_bot == "crasher" for r in crasher_games)
    forfeits = [r for r in crasher_games if r.reason.startswith("forfeit (crash): crasher crashed 4 times")]
    assert forfeits and all(r.hands == 0 and r.actions == () and r.termination == "crash" for r in forfeits)
    # The others played their own games to the end, none lost by a failure.
    others = [r for r in rows if "crasher" not in (r.bot0, r.bot1)]
    assert len(others) == 6 and all(r.termination == "target_reached" and r.hands > 0 for r in others)
    # Forfeits count in the ratings as losses.
    standings = json.loads(CliRunner().invoke(main, ["standings", str(path.with_suffix(".sqlite")), "--json"]).stdout)
    assert "crasher" in json.dumps(standings)
    # Resume: nothing is missing, nothing is played again.
    again = CliRunner().invoke(main, ["tournament", "resume", str(path.with_suffix(".sqlite")), "--no-progress"])
    assert again.exit_code == 0, again.output
    with ResultsStore.open_existing(path.with_suffix(".sqlite")) as store:
        assert store.count() == 18


