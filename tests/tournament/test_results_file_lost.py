"""A results file deleted, replaced or overwritten while a tournament runs
stops the run with one line and exit 1, naming the games played but not
kept; it never ends with standings as if they were recorded."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "scaleout"))
from workers_helpers import count, running_tournament, write_config  # noqa: E402

pytestmark = pytest.mark.integration


def _delete(db: Path) -> None:
    db.unlink()


def _delete_with_wal(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


def _rename_garbage_over(db: Path) -> None:
    garbage = db.with_name("garbage")
    garbage.write_bytes(os.urandom(64 * 1024))
    garbage.replace(db)


def _overwrite_in_place(db: Path) -> None:
    with open(db, "r+b") as f:
        f.write(os.urandom(64 * 1024))


FAULTS = {
    "deleted": (_delete, "the results file was deleted"),
    "deleted with its WAL and SHM": (_delete_with_wal, "the results file was deleted"),
    "garbage renamed over it": (_rename_garbage_over, "the results file was replaced by another file"),
    "overwritten in place": (_overwrite_in_place, "overwritten"),
}


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_results_file_lost_mid_run_stops_it_with_one_line(tmp_path: Path, fault: str, workers: str) -> None:
    cfg = write_config(tmp_path / "t.toml", "games_per_pairing = 60", "concurrency = 2", "[options]", "target = 12")
    db = tmp_path / "t.sqlite"
    damage, said = FAULTS[fault]
    with running_tournament(cfg, db, "--workers", workers) as proc:
        deadline = time.monotonic() + 120
        while count(db) < 4 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None and count(db) >= 4, "the run ended before the file could be damaged"
        damage(db)
        damaged_at = time.monotonic()
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert time.monotonic() - damaged_at < 30, "the run went on long after its file was lost"
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: {db}: ") and said in last, err
    assert re.search(r"the \d+ game\(s\) played this run are not kept: \S", last), last
    assert "Traceback" not in err
