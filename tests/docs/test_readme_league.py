"""The README's "Run a league" section, run as written: two tokens minted,
the league served with its live page, the README's own 20-line bot under
alice's token and a sample bot under bob's, then the standings. Real
processes, real gRPC over loopback, a real SQLite file."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from doc_commands import README, Command, blocks, commands, section
from doc_fixtures import get, recorded

pytestmark = pytest.mark.integration  # a league of real processes, ~15 s

DEADLINE = 120.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _league_commands() -> list[Command]:
    (block,) = blocks(section(README.read_text(), "Run a league"), "sh")
    return commands(block)


def _readme_bot() -> str:
    (code,) = blocks(section(README.read_text(), "Write a bot in 20 lines"), "python")
    return code


def _wait_for(url: str, procs: list[subprocess.Popen[str]]) -> str:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        assert all(p.poll() is None for p in procs), "a process of the league section exited early"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                body: str = response.read().decode()
                if response.status == 200:
                    return body
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} never answered")


def test_the_readme_league_section_works_as_written(tmp_path: Path) -> None:
    cmds = _league_commands()
    steps = [c.argv[1:3] if c.argv[0] == "truco-arena" else [c.argv[0]] for c in cmds]
    assert steps == [["token", "mint"], ["token", "mint"], ["serve", "--tokens"], ["python"], ["python"],
                     ["standings", "league.sqlite"]], steps
    (tmp_path / "mybot.py").write_text(_readme_bot())
    replace = {"50051": str(_free_port()), "8080": str(_free_port())}
    for mint, placeholder in zip(cmds[:2], ("ALICE_TOKEN", "BOB_TOKEN")):
        done = subprocess.run(mint.resolved(replace), capture_output=True, timeout=60, cwd=tmp_path, text=True)
        assert done.returncode == 0, done.stderr
        replace[placeholder] = done.stdout.strip()
    running: list[subprocess.Popen[str]] = []
    try:
        serve = subprocess.Popen(cmds[2].resolved(replace), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=tmp_path, text=True)
        running.append(serve)
        live = f"http://127.0.0.1:{replace['8080']}/"
        # The live page is up (no extra to install); asked for its data, not its
        # front page, which it would then keep for INDEX_MAX_AGE seconds without the games.
        _wait_for(live + "api/live.json", running)
        for bot in cmds[3:5]:
            running.append(subprocess.Popen(bot.resolved(replace), env={**os.environ, **bot.environment(replace)},
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, text=True))
        standings = cmds[5].resolved(replace)
        deadline = time.monotonic() + DEADLINE
        while recorded(tmp_path / "league.sqlite") < 1:  # a game between the two, read here, not by the CLI
            assert all(p.poll() is None for p in running), [p.stderr.read() for p in running if p.poll() is not None
                                                            and p.stderr]
            assert time.monotonic() < deadline, "no game recorded"
            time.sleep(0.2)
        done = subprocess.run(standings + ["--json"], capture_output=True, timeout=60, cwd=tmp_path, text=True)
        assert done.returncode == 0, done.stderr
        assert {r["bot"] for r in json.loads(done.stdout)["standings"]["rows"]} == {"alice", "bob"}, done.stdout
        as_written = subprocess.run(standings, capture_output=True, timeout=60, cwd=tmp_path, text=True)
        assert as_written.returncode == 0 and "alice" in as_written.stdout and "bob" in as_written.stdout
        # The front page, first asked for now, lists the two.
        page_deadline = time.monotonic() + 30
        while True:
            _status, page = get(live)  # its first making may take seconds on a busy machine
            if ("alice" in page and "bob" in page) or time.monotonic() > page_deadline:
                break
            time.sleep(0.5)
        assert "alice" in page and "bob" in page
    finally:
        for p in reversed(running):
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in running:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    # The bots never had their token refused, and the arena stopped cleanly.
    errors = serve.stderr.read() if serve.stderr else ""
    assert "league stopped:" in errors and "Traceback" not in errors, errors
    for process in running[1:]:
        said = process.stderr.read() if process.stderr else ""
        assert "this token is for bot" not in said and "Traceback" not in said, said
