"""``--http`` on the command line: ``serve`` (a league) shows its running
games and its database's report, a malformed or busy address is one line
and an exit code, never a traceback."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main

from .live_run import CLI, _read_url, page_showing, write_config


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
            # A new league: nothing yet.
            assert json.loads(reply.read()) == {"recorded": 0, "latest": [], "games": [], "finished": False}
        page_showing(url, showing="Games in progress")
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


def test_a_finished_tournament_page_says_so_and_stays_until_ctrl_c(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, delay=0.0)
    process = subprocess.Popen(
        [str(CLI), "tournament", "run", str(config), "--no-progress", "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = _read_url(process)
        deadline = time.monotonic() + 120
        state: dict[str, object] = {}
        while not (state.get("finished") and state.get("recorded")):  # the count is at most 2 s old
            assert time.monotonic() < deadline, f"the page never said finished: {state}"
            with urllib.request.urlopen(url + "api/live.json", timeout=30) as reply:
                state = json.loads(reply.read())
            time.sleep(0.2)
        assert state["recorded"] and len(state["latest"]) == state["recorded"]  # type: ignore[arg-type]
        time.sleep(2.0)
        assert process.poll() is None  # still serving the finished page
        page_showing(url, showing="Standings")
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert "finished; still serving it until Ctrl-C" in err and "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_http_linger_closes_the_finished_page_after_its_seconds(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, delay=0.0)
    started = time.monotonic()
    result = subprocess.run([str(CLI), "tournament", "run", str(config), "--no-progress", "--http", "127.0.0.1:0",
                             "--http-linger", "1.5"], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    assert "still serving it for 1.5 s" in result.stderr and time.monotonic() - started >= 1.5
