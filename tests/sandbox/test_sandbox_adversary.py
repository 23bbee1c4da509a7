"""A hostile launched bot, in a real tournament with default settings (two
worker processes here, each launching its copy of every bot): everything it
tries against the machine, the results, its opponent and the arena fails,
the run goes on, nothing recorded is touched, and its opponent loses no game
on time. The same bot with ``sandbox = "none"`` succeeds at most of it, so
the test is known to see the attacks.

The config and its results file sit inside the project checkout, where an
editable install could expose them: the sandbox shows only the package
folders, never the checkout around them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_runs import CLI, HERE, RANDOM, needs_bwrap, needs_containment

from arena.games.store import ResultsStore
from arena.replay import options_of, replay_row

pytestmark = [pytest.mark.slow, pytest.mark.integration, needs_bwrap]

REPO = HERE.parents[1]
# Attacks that must all fail in the sandbox.
ATTACKS = ("read_databases", "read_tokens", "see_canary", "read_memory", "signal_processes", "renice_and_pin",
           "connect_loopback", "connect_outside", "open_worker_pipe", "write_outside_scratch", "plant_symlink",
           "share_with_partner", "fork_unbounded", "allocate")


@pytest.fixture
def inside_checkout() -> Iterator[Path]:
    """A folder inside the checkout, as an organizer who keeps configs there has."""
    folder = REPO / f".sandbox-test-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _config(folder: Path, sandbox: str, adversary_args: list[str], games: int = 24) -> Path:
    args = ", ".join(json.dumps(a) for a in adversary_args)
    lines = ['variant = "uruguayo"', f"games_per_pairing = {games}", "concurrency = 2",
             f'sandbox = "{sandbox}"',
             "[options]", "target = 15",
             "[time_control]", "move_seconds = 1.0", "bank_seconds = 5.0",
             "[[bots]]", 'name = "adversary"', 'command = ["python", "adversary_bot.py"]', f"args = [{args}]",
             f'dir = "{HERE}"',
             "[[bots]]", 'name = "random"', f'command = "{RANDOM}"']
    path = folder / "hostile.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(config: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ADVERSARY_CANARY="organizer-secret-variable")
    return subprocess.run([*CLI, "tournament", "run", str(config), "--no-progress"], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=config.parent)


def _attacks(log_dir: Path) -> dict[str, list[dict[str, object]]]:
    """Every attack line from every copy of the adversary, by attack."""
    found: dict[str, list[dict[str, object]]] = {}
    for log in log_dir.rglob("adversary*.log"):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith('{"attack"'):
                entry = json.loads(line)
                found.setdefault(str(entry["attack"]), []).append(entry)
    return found


def _replays_cleanly(db: Path) -> int:
    """Every stored game replays from its seed to the stored result; returns the count."""
    with ResultsStore.open_existing(db) as store:
        options = options_of(store.get_meta("config"))
        rows = list(store.games())
    for row in rows:
        if row.actions:
            replay = replay_row(row, options)
            assert replay.info.scores == (row.score0, row.score1), row.game_key
    return len(rows)


@needs_containment
def test_a_hostile_launched_bot_is_contained_by_default(inside_checkout: Path) -> None:
    config = _config(inside_checkout, "bwrap", ["--alloc-mb", "10240", "--fork-cap", "5000",
                                                 "--spin-seconds", "12"])
    run = _run(config)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    attacks = _attacks(inside_checkout / "hostile-logs")
    assert "done" in attacks, f"the adversary did not finish its attacks: {sorted(attacks)}"
    for name in ATTACKS:
        assert name in attacks, f"{name} never tried"
        worked = [a for a in attacks[name] if a["ok"]]
        assert not worked, f"{name} got through the sandbox: {worked}"
    # The limits said why they refused.
    assert all("Resource temporarily unavailable" in str(a["detail"]) for a in attacks["fork_unbounded"])
    assert all("killed by signal 9" in str(a["detail"]) for a in attacks["allocate"])
    # The run went on: every game recorded once, each replays to its stored result,
    # and the opponent never ran out of time while the adversary spun.
    db = inside_checkout / "hostile.sqlite"
    assert _replays_cleanly(db) == 24
    with ResultsStore.open_existing(db) as store:
        rows = list(store.games())
    assert not [r for r in rows if r.faulty_bot == "random"], [r.reason for r in rows if r.faulty_bot == "random"]
    # Arena-side files are the organizer's alone.
    assert db.stat().st_mode & 0o077 == 0
    assert (inside_checkout / "hostile-logs").stat().st_mode & 0o077 == 0
    # Each bot's CPU was measured by its sandbox, game by game.
    assert all(r.cpu0 is not None and r.cpu1 is not None for r in rows)


def test_without_the_sandbox_the_same_bot_gets_through(tmp_path: Path) -> None:
    """The control: the attacks are real, and the test sees them succeed."""
    # The host's whole filesystem is searched here: a few seconds of it find the test's own files.
    config = _config(tmp_path, "none", ["--alloc-mb", "1536", "--fork-cap", "300", "--spin-seconds", "2",
                                        "--search-seconds", "3"])
    run = _run(config)
    assert run.returncode == 0, run.stderr[-3000:]
    attacks = _attacks(tmp_path / "hostile-logs")
    assert "done" in attacks, sorted(attacks)
    worked = {name for name, entries in attacks.items() if any(e["ok"] for e in entries)}
    expected = {"read_databases", "read_tokens", "see_canary", "signal_processes", "renice_and_pin",
                "connect_loopback", "open_worker_pipe", "write_outside_scratch", "plant_symlink",
                "share_with_partner", "fork_unbounded", "allocate"}
    assert expected <= worked, f"not detected without a sandbox: {sorted(expected - worked)}"
