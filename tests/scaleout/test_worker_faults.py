"""Faults of the workers themselves: one killed before it is ready, one
that cannot be started at all, and a bot that keeps crashing in several
workers. Real tournaments, real worker and bot processes, real files."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from workers_helpers import CLI, results, running_tournament, worker_pids, write_config

from arena.games.store import ResultsStore


def _run(cfg: Path, db: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "tournament", "run", str(cfg), "--db", str(db), "--no-progress", "--json", *options],
                          capture_output=True, text=True, timeout=300)


def test_a_worker_killed_before_it_is_ready_is_started_again(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 6", "[options]", "target = 9")
    reference = tmp_path / "reference.sqlite"
    assert _run(cfg, reference, "--workers", "1").returncode == 0
    db = tmp_path / "killed.sqlite"
    with running_tournament(cfg, db, "--workers", "2") as proc:
        deadline = time.monotonic() + 60
        while not (workers := worker_pids(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert workers, "no worker started"
        time.sleep(0.05)  # 50 ms after its start: it is still importing, far from ready
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "lost while starting (killed by SIGKILL); starting it again" in err, err
    assert "Traceback" not in err
    assert results(db) == results(reference)


def test_a_worker_that_cannot_be_started_is_one_line_and_exit_1(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 6", "[options]", "target = 9")
    blocked = tmp_path / "t-logs" / "worker-1" / "worker.log"
    blocked.mkdir(parents=True)  # its log cannot be opened: the worker cannot be started
    proc = _run(cfg, tmp_path / "t.sqlite", "--workers", "2")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == \
        f"error: a worker cannot start: worker 1 cannot start: {blocked}: cannot open: Is a directory", proc.stderr
    assert "Traceback" not in proc.stderr


def _crash_counts(db: Path) -> tuple[int, int, int]:
    """The crasher's games: (all lost by it, lost by a crash, lost by a forfeit)."""
    with ResultsStore.open_existing(db) as store:
        rows = [r for r in store.games() if "crasher" in (r.bot0, r.bot1)]
    lost = sum(r.faulty_bot == "crasher" and r.winner == "steady" for r in rows)
    crashes = sum("(crasher) crashed with exit code" in r.reason for r in rows)
    forfeits = sum(r.reason.startswith("forfeit (crash): crasher crashed") for r in rows)
    assert len(rows) == lost == crashes + forfeits, [r.reason for r in rows]
    return lost, crashes, forfeits


def test_a_crashing_bot_gets_the_same_restarts_whatever_the_workers(tmp_path: Path) -> None:
    # Every process of the crasher exits at its first decision: each game it
    # starts is a crash, and it is given up after 3 restarts in the run.
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 24", "[options]", "target = 9",
                       bots={"steady": "sample_bots.random_bot", "crasher": "sample_bots.misbehaving --mode exit --at 1"})
    counts = {}
    for workers in (1, 2):
        proc = _run(cfg, tmp_path / f"w{workers}.sqlite", "--workers", str(workers))
        assert proc.returncode == 0, proc.stderr
        counts[workers] = _crash_counts(tmp_path / f"w{workers}.sqlite")
    assert counts[1] == (24, 4, 20)  # the first start and 3 restarts: 4 crashes, then forfeits
    lost, crashes, forfeits = counts[2]
    assert lost == 24
    # 4 crashes counted across both workers; at most one more, a game the other
    # worker had begun with its copy as the limit was reached (counted 8 when
    # each worker kept its own count).
    assert 4 <= crashes <= 5 and forfeits == 24 - crashes, counts
