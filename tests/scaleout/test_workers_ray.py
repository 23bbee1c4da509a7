"""A tournament on a Ray cluster that the test starts on this machine's
loopback: two nodes, one of them removed mid-run. The games its task had not reported are
played again on the other node; none is lost or recorded twice, and the
results are those of one process."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ray.cluster_utils import Cluster
from workers_helpers import CLI, count, results, wait_for_games, write_config

from arena.cli import main
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}


@pytest.fixture()
def cluster() -> Iterator[Any]:
    c = Cluster(initialize_head=True, head_node_args=dict(NODE))
    assert c.address.startswith("127.0.0.1:"), c.address  # on loopback (conftest.py)
    try:
        yield c
    finally:
        c.shutdown()  # type: ignore[no-untyped-call]


def test_a_lost_node_loses_no_game_and_records_none_twice(tmp_path: Path, cluster: Any) -> None:
    node = cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 24", "batch_pairs = 3", "[options]", "target = 30")
    total = len(schedule_of(load_config(cfg)))
    reference = tmp_path / "reference.sqlite"
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--db", str(reference), "--workers", "1",
                                    "--no-progress", "--json"])
    assert res.exit_code == 0, res.output

    db = tmp_path / "ray.sqlite"
    proc = subprocess.Popen([*CLI, "tournament", "run", str(cfg), "--db", str(db), "--ray", cluster.address,
                             "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_games(db, 8, proc, timeout=180)
        cluster.remove_node(node)
        at_loss = count(db)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
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
