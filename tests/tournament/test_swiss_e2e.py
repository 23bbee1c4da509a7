"""A Swiss tournament end to end through the CLI, with real sample bots, a
real arena and a real SQLite file: its rounds follow the results, and a run
stopped mid-way resumes into the same games an unbroken run plays."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parents[1] / "scaleout"))
from workers_helpers import count  # noqa: E402

from arena.cli import main
from arena.games.store import ResultsStore
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
BOTS = {"random": "python -m sample_bots.random_bot", "heuristic": "python -m sample_bots.heuristic"}


def _config(tmp_path: Path, name: str, bots: list[str], rounds: int, games: int) -> Path:
    lines = [f'name = "{name}"', 'variant = "uruguayo"', 'format = "swiss"', f"rounds = {rounds}",
             f"games_per_pairing = {games}", "seed = 11", "concurrency = 2", "workers = 2",
             "[options]", "target = 15"]
    for i, kind in enumerate(bots):
        lines += ["[[bots]]", f'name = "{kind[0]}{i}"', f'command = "{BOTS[kind]}"']
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _stored(db: Path) -> list[tuple[str, int, str, str, int, str | None, tuple[str, ...]]]:
    with ResultsStore.open_existing(db) as store:
        return sorted((r.game_key, r.seq, r.bot0, r.bot1, r.seed, r.winner, r.actions) for r in store.games())


def _schedule(cfg: Path) -> list[str]:
    db = cfg.with_suffix(".sqlite")
    with ResultsStore.open_existing(db) as store:
        return [g.key for g in schedule_of(load_config(cfg), store.secret(), store.winners())]


def test_a_swiss_tournament_plays_its_rounds_from_the_standings(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "swiss", ["heuristic", "random", "random", "heuristic", "random"], rounds=3, games=2)
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output + (res.stderr or "")
    db = cfg.with_suffix(".sqlite")
    rows = _stored(db)
    assert len(rows) == 3 * 2 * 2  # five bots: two pairings a round, one bye
    assert sorted(r[0] for r in rows) == sorted(_schedule(cfg)) and sorted(r[1] for r in rows) == list(range(12))
    rounds: dict[str, set[str]] = {}
    for key, *_ in rows:
        matchup, game = key.split("#")
        rounds.setdefault(game.split(".")[0], set()).add(matchup)
    assert sorted(rounds) == ["r1", "r2", "r3"]
    met = [m for r in rounds.values() for m in r]
    assert len(met) == len(set(met)) == 6  # nobody met twice
    sat_out = [{"h0", "r1", "r2", "h3", "r4"} - {b for m in r for b in m.split("|")} for r in rounds.values()]
    assert all(len(s) == 1 for s in sat_out) and len(set.union(*sat_out)) == 3  # a different bye each round
    table = json.loads(res.stdout)["standings"]["rows"]
    assert sum(r["games"] for r in table) == 2 * 12
    status = CliRunner().invoke(main, ["tournament", "status", str(db), "--json"])
    info = json.loads(status.stdout)
    assert status.exit_code == 0 and (info["scheduled"], info["missing"], info["complete"]) == (12, 0, True)


def test_a_stopped_swiss_run_resumes_into_the_games_of_an_unbroken_one(tmp_path: Path) -> None:
    bots = ["random"] * 4
    (tmp_path / "whole").mkdir()
    whole = _config(tmp_path / "whole", "t", bots, 3, 4)
    res = subprocess.run([*CLI, "tournament", "run", str(whole), "--no-progress"], capture_output=True, text=True,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    (tmp_path / "broken").mkdir()
    cfg = _config(tmp_path / "broken", "t", bots, 3, 4)
    db = cfg.with_suffix(".sqlite")
    proc = subprocess.Popen([*CLI, "tournament", "run", str(cfg), "--no-progress", "--standings-every", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while count(db) < 10 and proc.poll() is None and time.monotonic() < deadline:  # into round 2
            time.sleep(0.02)
        assert proc.poll() is None, "the tournament ended before the test could stop it"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    stopped = count(db)
    assert 10 <= stopped < 24
    status = CliRunner().invoke(main, ["tournament", "status", str(db), "--json"])
    assert json.loads(status.stdout)["missing"] == 24 - stopped
    again = subprocess.run([*CLI, "tournament", "resume", str(db), "--no-progress"], capture_output=True, text=True,
                           timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert _stored(db) == _stored(whole.with_suffix(".sqlite")) and len(_stored(db)) == 24
