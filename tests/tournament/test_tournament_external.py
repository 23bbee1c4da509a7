"""A bot that is not launched by the arena: it connects by itself with a token
minted by the operator, to a tournament listening on a fixed address."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.tournament.store import ResultsStore


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
