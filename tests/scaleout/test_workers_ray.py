"""Tournaments on a Ray cluster that the tests start on this machine's
loopback, two nodes: the live page shows the games in progress on the
cluster; a Swiss system plays its rounds there; then one node is removed mid-run, the games its task had not
reported are played again on the other node, none is lost or recorded
twice, and the results are those of one process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_live_workers import check_views, watch
from web.live_run import live_tournament
from workers_helpers import count, results, running_tournament, wait_for_games, write_config

from arena.cli import main
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

# One Ray cluster at a time on this machine, whatever the number of test workers.
pytestmark = pytest.mark.xdist_group("ray")

CLUSTER = Path(__file__).with_name("ray_cluster.py")
# Ray's switch for a cluster on one machine: its nodes, workers and drivers on 127.0.0.1.
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


@dataclass(frozen=True)
class Cluster:
    process: subprocess.Popen[str]
    address: str  # the head node's, on 127.0.0.1


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A two-node cluster in its own process (ray_cluster.py), shared by the
    tests of this file: the one that removes a node comes last."""
    proc = subprocess.Popen([sys.executable, str(CLUSTER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, **LOOPBACK))
    try:
        address = _line(proc)  # its first line
        assert address.startswith("127.0.0.1:"), address  # on loopback
        yield Cluster(proc, address)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _line(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line, f"the cluster process ended (exit code {proc.poll()})"
    return line


def test_the_live_page_shows_the_games_in_progress_on_the_cluster(tmp_path: Path, cluster: Cluster,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in LOOPBACK.items():
        monkeypatch.setenv(key, value)
    # Moves 0.15 s apart: each game spans several of the tasks' 0.5 s reports.
    with live_tournament(tmp_path, 4, 0.15, "--ray", cluster.address, "--concurrency", "1") as run:
        most, served = watch(run)
    assert most >= 1 and served, "no game in progress on the cluster reached the page"
    check_views(run.db, served, 4)


def test_a_swiss_system_plays_its_rounds_on_the_cluster(tmp_path: Path, cluster: Cluster) -> None:
    cfg = write_config(tmp_path / "t.toml", 'format = "swiss"', "rounds = 2", "games_per_pairing = 2",
                       "[options]", "target = 15",
                       bots={"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot",
                             "h2": "sample_bots.heuristic", "h3": "sample_bots.heuristic"})
    reference = tmp_path / "reference.sqlite"
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(reference), "--workers", "1",
                                    "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    db = tmp_path / "ray.sqlite"
    with running_tournament(cfg, db, "--ray", cluster.address, env=dict(os.environ, **LOOPBACK)) as proc:
        _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert results(db) == results(reference) and len(results(db)) == 2 * 2 * 2
    # Every round went to the cluster's tasks: no bot was launched here.
    assert not list((tmp_path / "ray-logs").glob("*.log")), sorted((tmp_path / "ray-logs").iterdir())


def test_a_lost_node_loses_no_game_and_records_none_twice(tmp_path: Path, cluster: Cluster) -> None:
    address = cluster.address
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 24", "batch_pairs = 3", "[options]", "target = 30")
    total = len(schedule_of(load_config(cfg)))
    reference = tmp_path / "reference.sqlite"
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(reference), "--workers", "1",
                                    "--no-progress", "--json"])
    assert res.exit_code == 0, res.output

    db = tmp_path / "ray.sqlite"
    with running_tournament(cfg, db, "--ray", address, env=dict(os.environ, **LOOPBACK)) as proc:
        wait_for_games(db, 8, proc, timeout=180)
        assert cluster.process.stdin is not None
        cluster.process.stdin.write("remove\n")
        cluster.process.stdin.flush()
        assert _line(cluster.process) == "removed"
        at_loss = count(db)
        _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert at_loss < total, "the run was over before the node was removed"
    assert "ray task slot" in err and "lost" in err and "will be played again" in err, err
    assert results(db) == results(reference)
    assert count(db) == total


def test_an_unreachable_cluster_is_one_line(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 2")
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--ray", "127.0.0.1:1", "--no-progress"])
    assert res.exit_code == 1, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot join the Ray cluster at 127.0.0.1:1"), res.stderr
