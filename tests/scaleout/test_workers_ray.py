"""A tournament on a Ray cluster that the test starts on this machine's
loopback: two nodes, one of them removed mid-run. The games its task had
not reported are played again on the other node; none is lost or recorded
twice, and the results are those of one process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from workers_helpers import count, results, running_tournament, wait_for_games, write_config

from arena.cli import main
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

# One Ray cluster at a time on this machine, whatever the number of test workers.
pytestmark = pytest.mark.xdist_group("ray")

CLUSTER = Path(__file__).with_name("ray_cluster.py")
# Ray's switch for a cluster on one machine: its nodes, workers and drivers on 127.0.0.1.
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


@pytest.fixture()
def cluster() -> Iterator[subprocess.Popen[str]]:
    """A two-node cluster in its own process (ray_cluster.py); its first line is the address."""
    proc = subprocess.Popen([sys.executable, str(CLUSTER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, **LOOPBACK))
    try:
        yield proc
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


def test_a_lost_node_loses_no_game_and_records_none_twice(tmp_path: Path, cluster: subprocess.Popen[str]) -> None:
    address = _line(cluster)
    assert address.startswith("127.0.0.1:"), address  # on loopback
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 24", "batch_pairs = 3", "[options]", "target = 30")
    total = len(schedule_of(load_config(cfg)))
    reference = tmp_path / "reference.sqlite"
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(reference), "--workers", "1",
                                    "--no-progress", "--json"])
    assert res.exit_code == 0, res.output

    db = tmp_path / "ray.sqlite"
    with running_tournament(cfg, db, "--ray", address, env=dict(os.environ, **LOOPBACK)) as proc:
        wait_for_games(db, 8, proc, timeout=180)
        assert cluster.stdin is not None
        cluster.stdin.write("remove\n")
        cluster.stdin.flush()
        assert _line(cluster) == "removed"
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
