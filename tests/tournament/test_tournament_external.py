"""A bot that is not launched by the arena: it connects by itself with a token
minted by the operator, to a tournament listening on a fixed address."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_external_bot_joins_a_tournament(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    minted = CliRunner().invoke(main, ["token", "mint", "outsider", "--tokens", str(tokens)])
    assert minted.exit_code == 0
    token = minted.stdout.strip()
    port = _free_port()
    cfg = tmp_path / "ext.toml"
    cfg.write_text("\n".join([
        'variant = "venezolano"', "games_per_pairing = 2", f'address = "127.0.0.1:{port}"',
        f'tokens = "{tokens}"',
        "[[bots]]", 'name = "outsider"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    exe = [sys.executable, "-c", "from arena.cli import main; main()"]
    arena = subprocess.Popen([*exe, "tournament", "run", str(cfg), "--no-progress", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    bot = subprocess.Popen([sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}",
                            "--token", token, "--name", "outsider"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        out, err = arena.communicate(timeout=120)
        assert arena.returncode == 0, err
        assert "waiting up to" in err and "outsider" in err
        bot.wait(timeout=30)  # the arena's shutdown ends the bot cleanly
        assert bot.returncode == 0
    finally:
        for p in (arena, bot):
            if p.poll() is None:
                p.kill()
                p.wait()
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert len(rows) == 2 and {r.bot0 for r in rows} == {"outsider", "random"}
    assert all(r.termination == "target_reached" for r in rows)
    # A bot that connects by itself: independent pairing, so no game is half of a duplicate pair.
    assert all(r.pair_index == -1 and r.pair_id is None for r in rows) and rows[0].seed != rows[1].seed
    pairs = CliRunner().invoke(main, ["standings", str(cfg.with_suffix(".sqlite")), "--view", "all", "--json"])
    assert pairs.exit_code == 0, pairs.output
    assert json.loads(pairs.stdout)["pairs"]["rows"] == []


def test_an_external_bot_that_crashes_loses_only_its_own_games(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    minted = CliRunner().invoke(main, ["token", "mint", "outsider", "--tokens", str(tokens)])
    assert minted.exit_code == 0
    token = minted.stdout.strip()
    port = _free_port()
    cfg = tmp_path / "crash.toml"
    cfg.write_text("\n".join([
        'variant = "uruguayo"', "games_per_pairing = 4", f'address = "127.0.0.1:{port}"', "seed = 2",
        f'tokens = "{tokens}"', "absent_wait_seconds = 10",
        "[options]", "target = 9",
        "[[bots]]", 'name = "outsider"',
        "[[bots]]", 'name = "r1"', 'command = "python -m sample_bots.random_bot"',
        "[[bots]]", 'name = "r2"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    exe = [sys.executable, "-c", "from arena.cli import main; main()"]
    arena = subprocess.Popen([*exe, "tournament", "run", str(cfg), "--no-progress", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # It plays a few decisions, then its process exits without a word, for good.
    bot = subprocess.Popen([sys.executable, "-m", "sample_bots.misbehaving", "--mode", "exit", "--at", "4",
                            "--address", f"127.0.0.1:{port}", "--token", token, "--name", "outsider"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        out, err = arena.communicate(timeout=120)
        assert arena.returncode == 0, err
        bot.wait(timeout=30)
        assert bot.returncode == 3
    finally:
        for p in (arena, bot):
            if p.poll() is None:
                p.kill()
                p.wait()
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert len(rows) == 12  # the tournament finished: every game has a result
    theirs = [r for r in rows if "outsider" in (r.bot0, r.bot1)]
    assert len(theirs) == 8 and all(r.winner != "outsider" and r.faulty_bot == "outsider" for r in theirs)
    # One game was lost in play when the process died; the rest by forfeit after the wait.
    assert sum(1 for r in theirs if r.hands > 0 and r.termination == "disconnect") == 1
    absent = [r for r in theirs if r.reason.startswith("forfeit (absent): outsider was not connected for 10 s")]
    assert len(absent) == 7 and all(r.hands == 0 and r.actions == () and r.termination == "absent" for r in absent)
    # The others' games were all played to the end.
    others = [r for r in rows if "outsider" not in (r.bot0, r.bot1)]
    assert len(others) == 4 and all(r.termination == "target_reached" for r in others)
    # The forfeits count as losses in the ratings and as failures in the failures view.
    failures = json.loads(CliRunner().invoke(
        main, ["standings", str(cfg.with_suffix(".sqlite")), "--view", "failures", "--json"]).stdout)
    assert {r["bot"]: r["disconnects"] for r in failures["failures"]["rows"]} == {"outsider": 8, "r1": 0, "r2": 0}
