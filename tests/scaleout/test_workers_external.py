"""A bot that connects by itself plays on the coordinator's arena while the
workers play the games between launched bots."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from workers_helpers import CLI, results

from arena.cli import main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_external_bot_plays_here_and_launched_bots_play_on_workers(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    token = CliRunner().invoke(main, ["token", "mint", "outsider", "--tokens", str(tokens)]).stdout.strip()
    port = _free_port()
    cfg = tmp_path / "mixed.toml"
    cfg.write_text("\n".join([
        'variant = "uruguayo"', "games_per_pairing = 4", "seed = 3", "workers = 2", f'address = "127.0.0.1:{port}"',
        f'tokens = "{tokens}"', "[options]", "target = 15",
        "[[bots]]", 'name = "outsider"',
        "[[bots]]", 'name = "r0"', 'command = "python -m sample_bots.random_bot"',
        "[[bots]]", 'name = "r1"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    run = subprocess.Popen([*CLI, "tournament", "run", str(cfg), "--no-progress", "--json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    bot = subprocess.Popen([sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}",
                            "--token", token, "--name", "outsider", "--retry-for", "30"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _, err = run.communicate(timeout=180)
        assert run.returncode == 0, err
    finally:
        for p in (run, bot):
            if p.poll() is None:
                p.kill()
                p.wait()
    rows = results(cfg.with_suffix(".sqlite"))
    assert len(rows) == 12 and all(r[11] == "target_reached" for r in rows)
    logs = cfg.parent / "mixed-logs"
    # The games between launched bots went to the workers, which launched their own r0 and r1 ...
    assert sorted(p.name for p in logs.glob("worker-*/r*.log")) == ["r0.log", "r0.log", "r1.log", "r1.log"]
    # ... and the outsider's games were played here, against copies launched by the coordinator.
    assert (logs / "r0.log").exists() and (logs / "r1.log").exists()
    assert not list(logs.glob("worker-*/outsider*"))
