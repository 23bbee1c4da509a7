"""The real ``truco-arena`` process: Ctrl-C exits 130 keeping every recorded
game, and gRPC's own log lines never reach the CLI's stderr."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

pytestmark = pytest.mark.integration

EXE = [sys.executable, "-c", "from arena.cli import main; main()"]
RANDOM = "python -m sample_bots.random_bot"


def _environment() -> dict[str, str]:
    """This environment without any gRPC logging settings of its own."""
    return {k: v for k, v in os.environ.items() if k not in ("GRPC_VERBOSITY", "GRPC_TRACE")}


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_ctrl_c_during_a_tournament_exits_130_and_keeps_the_recorded_games(tmp_path: Path) -> None:
    config = tmp_path / "long.toml"
    config.write_text("\n".join([
        'variant = "argentino"', "games_per_pairing = 200", "seed = 1", "concurrency = 1",
        "[[bots]]", 'name = "a"', f'command = "{RANDOM}"', "[[bots]]", 'name = "b"', f'command = "{RANDOM}"',
    ]) + "\n")
    db = config.with_suffix(".sqlite")
    proc = subprocess.Popen([*EXE, "tournament", "run", str(config), "--no-progress"], env=_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _count(db) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the tournament ended before it could be interrupted"
    recorded = _count(db)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith("error: interrupted")]
    assert len(err.splitlines()) == 1 and out == ""
    assert recorded <= _count(db) < 400


@pytest.mark.parametrize(("args", "where"), [
    (["standings", "x.sqlite"], ("arena.cli.results", "load_results")),
    (["compare", "a.sqlite", "b.sqlite"], ("arena.cli.results", "load_results")),
    (["rules", "play", "x.json"], ("arena.cli.rules", "parse_scenario")),
])
def test_ctrl_c_in_any_command_exits_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str],
                                         where: tuple[str, str]) -> None:
    # A real Ctrl-C cannot be timed into a command that takes milliseconds; the
    # interrupt is raised where the command does its work instead.
    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    for name in args[1:]:
        (tmp_path / name).write_text("{}")
    monkeypatch.chdir(tmp_path)
    module, function = where  # by module: arena.cli's own names shadow its submodules
    monkeypatch.setattr(sys.modules[module], function, interrupted)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130 and result.stderr.strip() == "error: interrupted"


def _serve_on_a_taken_port(tmp_path: Path, env: dict[str, str]) -> tuple[int, int, str]:
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"a sha256:{'ab' * 32}\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        res = subprocess.run([*EXE, "serve", "--address", f"127.0.0.1:{port}", "--tokens", str(tokens)],
                             env=env, capture_output=True, text=True, timeout=60, check=False)
    return port, res.returncode, res.stderr


def test_grpc_log_lines_stay_out_of_the_cli_output(tmp_path: Path) -> None:
    port, code, stderr = _serve_on_a_taken_port(tmp_path, _environment())
    assert code == 2
    assert stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}") and stderr.count("\n") == 1
    # The control: with gRPC's logging asked for, its core does log here on its own.
    _, code, stderr = _serve_on_a_taken_port(tmp_path, {**_environment(), "GRPC_VERBOSITY": "ERROR"})
    assert code == 2 and stderr.count("\n") > 1
