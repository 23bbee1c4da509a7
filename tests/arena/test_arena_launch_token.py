"""A bot the arena launches gets its token in the environment, never on its
command line, which every local user can read (``ps``, /proc/PID/cmdline)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from arena_harness import BotProc, Harness

from arena.tournament.launcher import LaunchSpec, launch, stop

pytestmark = pytest.mark.integration


def test_launched_bot_has_no_token_on_its_command_line(fresh_harness: Harness, tmp_path: Path) -> None:
    h = fresh_harness
    token = h.token("launched")

    async def start_bot() -> tuple[int, bytes, bytes]:
        bot = await launch(LaunchSpec("launched", ("python", "-m", "sample_bots.random_bot")), h.address, token, 1,
                           tmp_path)
        pid = bot.process.pid
        try:
            await h.arena.wait_for_bots(["launched"], timeout=20.0)  # so the token did reach it
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            return pid, cmdline, environ
        finally:
            await stop(bot)

    pid, cmdline, environ = h.call(start_bot())
    args = cmdline.split(b"\0")
    assert b"sample_bots.random_bot" in args, args
    assert token.encode() not in cmdline
    assert not any(a.startswith(b"--token") for a in args)
    # It came through the environment, which only the bot's owner may read.
    assert f"TRUCO_ARENA_TOKEN={token}".encode() in environ.split(b"\0")
    assert not os.path.exists(f"/proc/{pid}")


def test_a_bot_without_a_token_says_where_to_put_it(log_dir: Path) -> None:
    proc = BotProc([sys.executable, "-m", "sample_bots.random_bot", "--address", "127.0.0.1:9"], log_dir, "tokenless")
    assert proc.wait() == 2
    assert proc.stderr().strip().endswith("error: no token: set TRUCO_ARENA_TOKEN (or pass --token)")
