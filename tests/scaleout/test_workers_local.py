"""A tournament spread over local worker processes: the same results for
any number of workers, and a worker killed mid-run costs nothing."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from workers_helpers import (
    count,
    processes_launched_by,
    results,
    running_tournament,
    wait_for_games,
    worker_pids,
    write_config,
)

from arena.cli import main
from arena.games.game_record import checked
from arena.games.orders import GameResult
from arena.games.store import ResultsStore
from arena.match.tally import PairTally
from arena.ratings import SprtBounds, SprtVerdict, sprt_status
from arena.tournament import runner
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of
from arena.tournament.scaleout.batches import Batch
from arena.tournament.scaleout.coordinator import WorkerFailedError, WorkerLostError
from arena.tournament.scaleout.local import LocalWorker


def _run(cfg: Path, db: Path, workers: int) -> None:
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(db), "--workers", str(workers),
                                    "--no-progress", "--json"])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("pairing", ["duplicate", "independent"])
def test_results_do_not_depend_on_the_number_of_workers(tmp_path: Path, pairing: str) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 6", "concurrency = 2", f'pairing = "{pairing}"',
                       "[options]", "target = 15")
    runs = {}
    for workers in (1, 2, 3):
        db = tmp_path / f"w{workers}.sqlite"
        _run(cfg, db, workers)
        runs[workers] = results(db)
    assert len(runs[1]) == len(schedule_of(load_config(cfg))) == 18
    assert runs[1] == runs[2] == runs[3]
    assert len({r[9] for r in runs[1]}) > 1  # not a degenerate tournament: more than one bot won games


def test_team_games_on_workers_match_one_process(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 4", "[options]", "seats = 4", "target = 9",
                       bots={"r0": "sample_bots.random_bot", "h": "sample_bots.heuristic"})
    _run(cfg, tmp_path / "one.sqlite", 1)
    _run(cfg, tmp_path / "two.sqlite", 2)
    assert results(tmp_path / "one.sqlite") == results(tmp_path / "two.sqlite")
    assert len(results(tmp_path / "one.sqlite")) == 4


def test_a_swiss_system_plays_each_round_on_the_workers(tmp_path: Path) -> None:
    # Each round is drawn from the results of the last, then shared out over the workers.
    cfg = write_config(tmp_path / "t.toml", 'format = "swiss"', "rounds = 3", "games_per_pairing = 2",
                       "concurrency = 1", "[options]", "target = 15",
                       bots={"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot",
                             "h2": "sample_bots.heuristic", "h3": "sample_bots.heuristic"})
    _run(cfg, tmp_path / "one.sqlite", 1)
    _run(cfg, tmp_path / "two.sqlite", 2)
    assert results(tmp_path / "one.sqlite") == results(tmp_path / "two.sqlite")
    assert len(results(tmp_path / "two.sqlite")) == 3 * 2 * 2  # three rounds of two pairings
    for worker in ("worker-0", "worker-1"):  # each worker launched bots and played
        logs = {p.name for p in (tmp_path / "two-logs" / worker).glob("*.log")} - {"worker.log"}
        assert logs, (worker, sorted(p.name for p in (tmp_path / "two-logs").rglob("*")))
    assert not (tmp_path / "one-logs" / "worker-0").exists()


class _LostAfterItsBatch(LocalWorker):
    """A real worker that, once it has reported every game of its first batch,
    is lost and cannot start again: every worker gone exactly between two
    Swiss rounds, a moment a kill from outside cannot pick."""

    played = False

    async def start(self) -> None:
        if self.played:
            raise WorkerFailedError(f"{self.name} cannot start again")
        await super().start()

    async def run(self, batch: Batch) -> AsyncIterator[GameResult]:
        async for outcome in super().run(batch):
            yield outcome
        self.played = True
        raise WorkerLostError("gone after its batch")


def test_every_worker_lost_between_two_swiss_rounds_ends_the_run_and_resume_plays_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = write_config(tmp_path / "t.toml", 'format = "swiss"', "rounds = 2", "games_per_pairing = 2",
                       "concurrency = 1", "[options]", "target = 15",
                       bots={"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot",
                             "h2": "sample_bots.heuristic", "h3": "sample_bots.heuristic"})
    _run(cfg, tmp_path / "unbroken.sqlite", 2)
    db = tmp_path / "lost.sqlite"
    with monkeypatch.context() as patch:
        patch.setattr(runner, "LocalWorker", _LostAfterItsBatch)
        res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(db), "--workers", "2",
                                        "--no-progress"])
    # Round one's two pairs went one to each worker, and both were lost after theirs.
    assert res.exit_code == 1, res.output
    assert res.stderr.strip().splitlines()[-1] == (
        "error: every worker was lost; 4 game(s) are left to play: `truco-arena tournament resume` plays them")
    assert "Traceback" not in res.output
    assert count(db) == 4
    res = CliRunner().invoke(main, ["tournament", "resume", str(db), "--workers", "2", "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    assert results(db) == results(tmp_path / "unbroken.sqlite")


def test_a_match_on_workers_stops_soon_after_its_sprt_decides(tmp_path: Path) -> None:
    bounds = SprtBounds(0, 50)  # heuristic sweeps random: about 24 pairs to H1 of the 200 allowed
    cfg = write_config(tmp_path / "m.toml", 'format = "match"', "concurrency = 1", "max_games = 400",
                       f"sprt = {{ elo0 = {bounds.elo0:g}, elo1 = {bounds.elo1:g} }}",
                       bots={"heuristic": "sample_bots.heuristic", "random": "sample_bots.random_bot"})
    db = tmp_path / "m.sqlite"
    _run(cfg, db, 2)
    with ResultsStore.open_existing(db) as store:
        rows = checked(reversed(list(store.games(newest=1000))))  # in the order they ended
    tally = PairTally("heuristic", "random")
    decided = next(i for i, row in enumerate(rows, 1)
                   if tally.add(row) and sprt_status(tally.counts, bounds).verdict is SprtVerdict.H1_ACCEPTED)
    # Past the deciding game, only the pairs the two workers had out (one each, one game at a time).
    assert len(rows) - decided <= 2 * 2, (decided, len(rows))
    for worker in ("worker-0", "worker-1"):  # both played
        assert (tmp_path / "m-logs" / worker / "heuristic.log").exists(), worker


def test_the_match_command_spreads_its_pairs_when_asked(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    res = CliRunner().invoke(main, ["match", "heuristic", "random", "--games", "12", "--workers", "2", "--seed", "4",
                                    "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    assert count(db) == 12
    assert all((tmp_path / "m-logs" / w / "heuristic.log").exists() for w in ("worker-0", "worker-1"))
    one = tmp_path / "one.sqlite"  # the same games as in one process
    res = CliRunner().invoke(main, ["match", "heuristic", "random", "--games", "12", "--seed", "4", "--db", str(one)])
    assert res.exit_code == 0, res.output
    assert results(one) == results(db) and not (tmp_path / "one-logs" / "worker-0").exists()


def test_a_worker_killed_mid_run_loses_no_game_and_records_none_twice(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 40", "[options]", "target = 30")
    total = len(schedule_of(load_config(cfg)))
    reference = tmp_path / "reference.sqlite"
    _run(cfg, reference, 1)

    db = tmp_path / "killed.sqlite"
    with running_tournament(cfg, db, "--workers", "2") as proc:
        wait_for_games(db, 6, proc)
        workers = worker_pids(proc.pid)
        assert len(workers) == 2, workers
        victim = workers[0]
        os.kill(victim, signal.SIGKILL)
        at_kill = count(db)
        _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert at_kill < total, "the run was over before the kill"
    # Six games recorded may all be the other worker's: the victim may still
    # have been starting its bots, which the coordinator says differently.
    assert re.search(r"^worker [01] lost (\(killed by SIGKILL\); its \d+ unfinished game\(s\) will be played again"
                     r"|while starting \(killed by SIGKILL\); starting it again)$", err, re.MULTILINE), err
    # Every game once, exactly as one process plays them.
    assert results(db) == results(reference)
    assert count(db) == total
    # The dead worker's bots did not outlive it.
    deadline = time.monotonic() + 15
    while processes_launched_by(victim) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_launched_by(victim) == []


def test_a_stopped_run_resumes_to_the_same_results(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 30", "concurrency = 2", "[options]", "target = 30")
    reference = tmp_path / "reference.sqlite"
    _run(cfg, reference, 1)
    db = tmp_path / "stopped.sqlite"
    with running_tournament(cfg, db, "--workers", "2") as proc:
        wait_for_games(db, 4, proc)
        workers = worker_pids(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert all(not Path(f"/proc/{w}").exists() or "Z" in Path(f"/proc/{w}/stat").read_text().split()[2]
               for w in workers), "a worker outlived the tournament"
    res = CliRunner().invoke(main, ["tournament", "resume", str(db), "--workers", "3", "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    assert results(db) == results(reference)


def test_bad_worker_counts_are_one_line(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "workers = 0")
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])
    assert res.exit_code == 2
    assert res.stderr.strip() == f"error: {cfg}: workers: must be from 1 to 1024, got 0"
    res = CliRunner().invoke(main, ["tournament", "run", str(write_config(tmp_path / "u.toml")), "--workers", "0"])
    assert res.exit_code == 2 and "--workers" in res.stderr
