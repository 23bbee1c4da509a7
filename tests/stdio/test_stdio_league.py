"""A stdio bot joins a standing league from its author's machine through
``truco-arena connect`` (the SDK's bridge), plays, and comes back by itself
after the league restarts: real ``serve``, real processes, the real file."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "league"))
from league_harness import CLI, REPO, League, env, free_port, wait_until  # noqa: E402

pytestmark = pytest.mark.integration

BOT = Path(__file__).with_name("stdio_first.py")


def kid_games(league: League) -> int:
    return sum(1 for r in league.rows() if "kid" in (r.bot0, r.bot1))


def test_a_stdio_bot_plays_a_league_and_comes_back_after_a_restart(tmp_path: Path) -> None:
    league = League(tmp_path, port=free_port())
    connect: subprocess.Popen[bytes] | None = None
    try:
        token_file = tmp_path / "kid.token"
        token_file.write_text(league.token("kid") + "\n")
        opponent = league.token("opponent")
        league.start()
        league.bot("opponent", opponent)
        with open(tmp_path / "kid.log", "wb") as log:
            connect = subprocess.Popen(
                [*CLI, "connect", "--address", f"127.0.0.1:{league.port}", "--token-file", str(token_file),
                 "--name", "kid", "--", "python", str(BOT)],
                stdout=subprocess.DEVNULL, stderr=log, env=env(), cwd=REPO)
        wait_until(lambda: kid_games(league) >= 2, 60, "games of the stdio bot")
        assert league.stop(signal.SIGTERM) == 0
        time.sleep(1.0)
        assert connect.poll() is None, (tmp_path / "kid.log").read_text()
        before = kid_games(league)
        league.start()
        wait_until(lambda: kid_games(league) > before, 60, "a game of the stdio bot after the restart")
        assert all(r.faulty_bot is None for r in league.rows())
        text = (tmp_path / "kid.log").read_text()
        assert "reconnecting" in text and "Traceback" not in text
    finally:
        if connect is not None and connect.poll() is None:
            connect.send_signal(signal.SIGINT)
            try:
                connect.wait(10)
            except subprocess.TimeoutExpired:
                connect.kill()
                connect.wait(10)
        league.close()


def test_match_and_check_bot_take_a_stdio_bot(tmp_path: Path) -> None:
    """`match --stdio a` plays it; `check-bot --sandbox --stdio` runs a script
    given by a relative path in its own folder, shown to its sandbox."""
    match = subprocess.run([*CLI, "match", f"python {BOT}", "random", "--stdio", "a", "--games", "2",
                            "--no-sandbox", "--json"], capture_output=True, text=True, env=env(), cwd=REPO,
                           timeout=120)
    assert match.returncode == 0, match.stderr
    assert '"stdio_first"' in match.stdout and "gave up" not in match.stderr
    check = subprocess.run([*CLI, "check-bot", "--sandbox", "--stdio", "--games", "1", "--log-dir",
                            str(tmp_path / "logs"), "--", "python", BOT.name], capture_output=True, text=True,
                           env=env(), cwd=BOT.parent, timeout=240)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "COMPLIANT: 17 passed, 0 failed" in check.stdout
