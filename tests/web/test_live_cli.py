"""``--http`` on the command line: ``serve`` (a league) shows its running
games and its database's report, a malformed or busy address is one line
and an exit code, never a traceback."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main

from .live_run import CLI, _read_url, write_config


def test_serve_with_http_shows_the_games_in_progress(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    assert CliRunner().invoke(main, ["token", "mint", "bot", "--tokens", str(tokens)]).exit_code == 0
    process = subprocess.Popen(
        [str(CLI), "serve", "--address", "127.0.0.1:0", "--tokens", str(tokens), "--db", str(tmp_path / "league.sqlite"),
         "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = _read_url(process)
        with urllib.request.urlopen(url + "api/live.json", timeout=30) as reply:
            assert json.loads(reply.read()) == {"recorded": 0, "games": []}  # a new league: nothing yet
        with urllib.request.urlopen(url, timeout=30) as reply:
            page = reply.read().decode()
        assert "Games in progress" in page
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_a_malformed_http_address_is_a_usage_error(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, delay=0.0)
    for args in (["tournament", "run", str(config), "--http", "nowhere"],
                 ["serve", "--tokens", str(tmp_path / "t.txt"), "--http", "127.0.0.1:99999"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and "expected HOST:PORT" in result.output
    assert not config.with_suffix(".sqlite").exists()


def test_a_busy_http_port_ends_the_run_with_one_line(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, delay=0.0)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([str(CLI), "tournament", "run", str(config), "--no-progress",
                                 "--http", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
