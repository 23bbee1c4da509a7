"""A bot process that hangs (SIGSTOP) while its stream waits in the pool is
found by the keepalive pings and dropped within seconds."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from arena_harness import Harness

from arena.server import Arena

pytestmark = pytest.mark.integration


def test_hung_idle_bot_is_dropped(log_dir: Path) -> None:
    h = Harness(log_dir, keepalive_time=1.0, keepalive_timeout=1.0)
    try:
        proc = h.spawn("sample_bots.random_bot", "frozen")
        h.wait_for(["frozen"], [proc])
        proc.proc.send_signal(signal.SIGSTOP)
        start = time.monotonic()

        async def connected(arena: Arena) -> bool:
            return "frozen" in arena.bots()

        while h.call(connected(h.arena)):
            assert time.monotonic() - start < 10, "a hung bot was still connected after 10 s"
            time.sleep(0.2)
        assert time.monotonic() - start < 6
    finally:
        proc.proc.send_signal(signal.SIGCONT)
        proc.kill()
        h.close()
