"""What a tournament writes next to its config, as an operator (or a bot
running as the operator) meets it: owner-only modes under the usual umask,
and a link planted where the arena will write makes the run refuse in one
line, leaving the link's target as it was. Real CLI, real bots, real SQLite."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

RANDOM = "python -m sample_bots.random_bot"
PRECIOUS = b"alias ls='ls --color'\n"


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "t.toml"
    lines = ['variant = "uruguayo"', "games_per_pairing = 2", "seed = 7", "workers = 1", "[options]", "target = 9"]
    for name in ("r0", "r1"):
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{RANDOM}"']
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(cfg: Path) -> Result:
    return CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _victim(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    victim = home / ".bashrc"
    victim.write_bytes(PRECIOUS)
    victim.chmod(0o644)
    return victim


def _refused(res: Result, *words: str) -> None:
    assert res.exit_code == 1, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_a_run_leaves_only_owner_only_files(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    res = _run(cfg)
    assert res.exit_code == 0, res.output
    db = tmp_path / "t.sqlite"
    assert _mode(db) == 0o600  # it holds the tournament secret
    assert _mode(tmp_path / "t.sqlite.lock") == 0o600
    assert _mode(tmp_path / "t-logs") == 0o700
    # The WAL and shared-memory files exist while a store is open; SQLite gives them the database's mode.
    with ResultsStore.create_or_open(db) as store:
        assert store.count() == 2
        for sidecar in ("-wal", "-shm"):
            assert _mode(db.with_name(db.name + sidecar)) == 0o600


def test_a_database_left_open_to_others_is_tightened_on_resume(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    assert _run(cfg).exit_code == 0
    db = tmp_path / "t.sqlite"
    db.chmod(0o644)  # as an older version created it
    res = CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert _mode(db) == 0o600


@pytest.mark.parametrize("planted", ["t.sqlite.lock", "t.sqlite", "t.sqlite-wal", "t.sqlite-shm"])
def test_a_link_planted_next_to_the_database_is_refused(tmp_path: Path, planted: str) -> None:
    victim = _victim(tmp_path)
    (tmp_path / planted).symlink_to(victim)
    res = _run(_config(tmp_path))
    _refused(res, planted, "symbolic link")
    assert victim.read_bytes() == PRECIOUS and _mode(victim) == 0o644
    assert (tmp_path / planted).is_symlink()


@pytest.mark.parametrize("planted", ["t.sqlite.lock", "t.sqlite"])
def test_a_dangling_link_does_not_create_its_target(tmp_path: Path, planted: str) -> None:
    (tmp_path / "home").mkdir()
    target = tmp_path / "home" / ".profile"
    (tmp_path / planted).symlink_to(target)
    _refused(_run(_config(tmp_path)), planted, "symbolic link")
    assert not target.exists()


def test_a_hard_link_planted_at_the_lock_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    os.link(victim, tmp_path / "t.sqlite.lock")
    _refused(_run(_config(tmp_path)), "t.sqlite.lock", "hard links")
    assert victim.read_bytes() == PRECIOUS


def test_a_logs_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    (tmp_path / "t-logs").symlink_to(victim.parent)
    _refused(_run(_config(tmp_path)), "t-logs", "symbolic link")
    assert sorted(p.name for p in victim.parent.iterdir()) == [".bashrc"]  # no r0.log written into it
    assert victim.read_bytes() == PRECIOUS and _mode(victim.parent) == 0o755


def test_a_link_planted_at_a_bot_log_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    (tmp_path / "t-logs").mkdir(mode=0o700)
    (tmp_path / "t-logs" / "r0.log").symlink_to(victim)
    res = _run(_config(tmp_path))
    assert victim.read_bytes() == PRECIOUS
    _refused(res, "r0.log", "link")


def test_bot_logs_are_owner_only(tmp_path: Path) -> None:
    assert _run(_config(tmp_path)).exit_code == 0
    assert {p.name: _mode(p) for p in (tmp_path / "t-logs").iterdir()} == {"r0.log": 0o600, "r1.log": 0o600}


def test_a_hard_link_planted_at_a_bot_log_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    (tmp_path / "t-logs").mkdir(mode=0o700)
    os.link(victim, tmp_path / "t-logs" / "r0.log")
    res = _run(_config(tmp_path))
    assert victim.read_bytes() == PRECIOUS
    _refused(res, "r0.log", "hard links")


def test_a_fifo_planted_at_a_bot_log_is_refused_without_hanging(tmp_path: Path) -> None:
    (tmp_path / "t-logs").mkdir(mode=0o700)
    os.mkfifo(tmp_path / "t-logs" / "r0.log")  # opened for writing, it waits for a reader that never comes
    proc = subprocess.Popen([sys.executable, "-c", "from arena.cli import main; main()", "tournament", "run",
                             str(_config(tmp_path)), "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the run hung on a FIFO planted at a bot log")
    assert proc.returncode == 1 and len(err.strip().splitlines()) == 1 and "r0.log" in err, err


def test_a_link_planted_at_a_worker_log_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("workers = 1", "workers = 2"))
    (tmp_path / "t-logs" / "worker-0").mkdir(mode=0o700, parents=True)
    (tmp_path / "t-logs" / "worker-0" / "worker.log").symlink_to(victim)
    res = _run(cfg)
    assert victim.read_bytes() == PRECIOUS
    _refused(res, "worker.log", "link")
