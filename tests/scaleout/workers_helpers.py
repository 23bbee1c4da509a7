"""Shared by the scaling tests: a tournament config of sample bots, its
results in a comparable form, and the processes of a running tournament."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
WORKER_MODULE = "arena.tournament.scaleout.worker"


def write_config(path: Path, *lines: str, bots: dict[str, str] | None = None) -> Path:
    bots = bots or {"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot", "h": "sample_bots.heuristic"}
    text = ['variant = "argentino"', "seed = 11", *lines]
    for name, module in bots.items():
        text += ["[[bots]]", f'name = "{name}"', f'command = "python -m {module}"']
    path.write_text("\n".join(text) + "\n")
    return path


def results(db: Path) -> list[tuple[object, ...]]:
    """Every game as the store holds it, minus when it ended and how long it took."""
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT game_key, seq, matchup, pair_index, bot0, bot1, seed, score0, score1, winner, winner_seat, "
            "termination, faulty_bot, hands, actions FROM games ORDER BY game_key").fetchall()


def count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def wait_for_games(db: Path, games: int, proc: subprocess.Popen[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while count(db) < games and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the tournament ended before the test could act"
    assert count(db) >= games, f"fewer than {games} games after {timeout:g} s"


@contextmanager
def running_tournament(cfg: Path, db: Path, *options: str, env: dict[str, str] | None = None
                       ) -> Iterator[subprocess.Popen[str]]:
    """``tournament run`` as its own process (stderr piped); killed if still running at the end."""
    proc = subprocess.Popen([*CLI, "tournament", "run", str(cfg), "--db", str(db), *options, "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat.rsplit(")", 1)[1].split()[1])


def children(pid: int) -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(int(p.name)) == pid]


def worker_pids(coordinator: int) -> list[int]:
    return [p for p in children(coordinator) if WORKER_MODULE in _cmdline(p)]


def processes_launched_by(pid: int) -> list[int]:
    """Live processes whose environment names ``pid`` as the process that launched them
    (TRUCO_ARENA_PARENT_PID: what every launched bot gets)."""
    mark = f"TRUCO_ARENA_PARENT_PID={pid}".encode()
    found = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            if mark in (p / "environ").read_bytes().split(b"\0"):
                state = (p / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(p.name))
        except OSError:
            continue
    return found
