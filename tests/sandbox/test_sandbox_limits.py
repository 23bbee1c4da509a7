"""Limits and the start check, with real sandboxed bots in real tournaments:
a bot over its memory or process limit loses with a reason naming the limit;
a bot that cannot start stops the run at once with the last line of its log;
partners of a team cannot share a hand; CPU seconds are stored per game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sandbox_runs import HERE, RANDOM, needs_bwrap, needs_containment, run_cli, write_config

from arena.games.store import ResultsStore

pytestmark = [pytest.mark.integration, needs_bwrap, needs_containment]


def _rows(db: Path) -> list:  # type: ignore[type-arg]
    with ResultsStore.open_existing(db) as store:
        return list(store.games())


def test_a_bot_over_its_memory_limit_loses_with_the_limit_as_reason(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [
        ['name = "hog"', 'command = ["python", "hog_bot.py", "--what", "memory"]', f'dir = "{HERE}"',
         "memory_mb = 256"],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ], games=2)
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = _rows(tmp_path / "t.sqlite")
    assert len(rows) == 2
    first = [r for r in rows if r.faulty_bot == "hog"]
    assert first and "out of memory (limit 256 MiB)" in first[0].reason, [r.reason for r in rows]
    assert all(r.winner == "steady" for r in first)
    assert "out of memory (limit 256 MiB)" in run.stderr  # the run's summary lists it


def test_a_bot_over_its_process_limit_loses_with_the_limit_as_reason(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [
        ['name = "hog"', 'command = ["python", "hog_bot.py", "--what", "processes"]', f'dir = "{HERE}"',
         "processes = 64"],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ], games=2)
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    reasons = [r.reason for r in _rows(tmp_path / "t.sqlite") if r.faulty_bot == "hog"]
    assert reasons and "too many processes (limit 64" in reasons[0], reasons


def test_a_bot_that_cannot_start_stops_the_run_with_its_last_words(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "broken.py").write_text("import sys\nsys.exit('cannot find my model file')\n")
    config = write_config(tmp_path / "t.toml", [
        ['name = "broken"', 'command = ["python", "broken.py"]', 'dir = "bots"'],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ])
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    line = lines[0]
    assert "bot broken exited before saying hello" in line and "cannot find my model file" in line, line
    assert not _rows(tmp_path / "t.sqlite")


def test_a_bot_that_never_says_hello_stops_the_run_after_start_seconds(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [
        ['name = "mute"', 'command = ["python", "-c", "import time; print(\'loading\', flush=True); time.sleep(60)"]'],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ], extra=("start_seconds = 2",))
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "bot mute did not say hello within 2 s (start_seconds): loading" in run.stderr


def test_partners_of_a_team_cannot_share_a_hand(tmp_path: Path) -> None:
    """4 seats: each of a team's two processes has its own sandbox and /tmp."""
    config = write_config(tmp_path / "t.toml", [
        ['name = "adversary"', 'command = ["python", "adversary_bot.py", "--only", "share_with_partner"]',
         f'dir = "{HERE}"'],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ], games=6, seats=4)
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    logs = sorted((tmp_path / "t-logs").glob("adversary*.log"))
    entries = {log.name: [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
               for log in logs}
    shared = [e for lines in entries.values() for e in lines if e.get("attack") == "share_with_partner"]
    assert len(shared) == 2 and not any(e["ok"] for e in shared), shared
    # And the arena seated the two partners of every game from the two processes.
    games = [{e["game"] for e in lines if "game" in e} for lines in entries.values()]
    assert len(games) == 2 and games[0] and games[0] == games[1], games


def test_each_bots_cpu_seconds_are_stored_per_game_and_shown(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [
        ['name = "heuristic"', 'command = "python -m sample_bots.heuristic"'],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ])
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = _rows(tmp_path / "t.sqlite")
    assert all(r.cpu0 is not None and r.cpu1 is not None and r.cpu0 >= 0 and r.cpu1 >= 0 for r in rows)
    assert sum(r.cpu0 + r.cpu1 for r in rows) > 0
    view = run_cli("standings", str(tmp_path / "t.sqlite"), "--view", "cpu", "--json", cwd=tmp_path)
    assert view.returncode == 0, view.stderr
    table = json.loads(view.stdout)["cpu"]["rows"]
    assert {r["bot"] for r in table} == {"heuristic", "steady"}
    assert all(r["games measured"] == 4 for r in table)


def test_cpu_a_bot_hides_from_its_own_process_times_is_still_counted(tmp_path: Path) -> None:
    """A bot burns CPU where its own /proc times do not show it (children the
    kernel reaps at once because it ignores SIGCHLD, a double-forked orphan,
    threads that exit, a zombie): its games' CPU seconds still count all of it."""
    config = write_config(tmp_path / "t.toml", [
        ['name = "hider"', 'command = ["python", "hog_bot.py", "--what", "hide-cpu", "--at", "2"]', f'dir = "{HERE}"'],
        ['name = "steady"', f'command = "{RANDOM}"'],
    ], games=2, move_seconds=30.0, bank_seconds=60.0)
    run = run_cli("tournament", "run", str(config), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    log, = (tmp_path / "t-logs").glob("hider*.log")
    said = [json.loads(line) for line in log.read_text().splitlines() if line.startswith('{"hidden_cpu"')]
    assert len(said) == 1, log.read_text()[-2000:]
    rows = _rows(tmp_path / "t.sqlite")
    assert len(rows) == 2 and all(r.faulty_bot is None for r in rows), [r.reason for r in rows]
    recorded = [r.cpu0 if r.bot0 == "hider" else r.cpu1 for r in rows]
    assert all(c is not None for c in recorded), recorded
    assert sum(recorded) >= 0.95 * said[0]["hidden_cpu"], (recorded, said)
