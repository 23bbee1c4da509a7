"""A bot that sends but never reads cannot pile up the arena's memory or
stall it: its writes back up, and the arena drops the stream (outbox cap or
the blocked-write watchdog) while serving everyone else."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import grpc
import pytest
from arena_harness import Harness

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import say_hello

# Every junk Move outside a game earns a warning Status that quotes its game
# id (cut to 200 characters). By default the client's gRPC buffers a few MB
# unread before flow control stops the arena's writes; the deaf bot turns off
# the window growth (BDP probing) and asks for a small stream window, so a
# few hundred warnings are enough to block the arena's writes.
_SMALL_WINDOW = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 16 * 1024)]


async def _deaf_bot(address: str, name: str, token: str, junk: int, then_wait: int, id_size: int) -> None:
    long_id = "x" * id_size
    async with grpc.aio.insecure_channel(address, options=_SMALL_WINDOW) as channel:
        call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
        await say_hello(call, name, token)
        try:
            for i in range(junk):
                if call.done():
                    return
                await call.write(pb.PlayRequest(move=pb.Move(game_id=long_id, seq=i + 1, action="mazo")))
            await asyncio.sleep(then_wait)
        except (grpc.aio.AioRpcError, grpc.aio.UsageError, asyncio.InvalidStateError):
            pass  # the arena ended the call: that is the point
        finally:
            call.cancel()


def _wait_gone(h: Harness, name: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        async def streams() -> int:
            status = h.arena.bots().get(name)
            return 0 if status is None else status.streams

        if h.call(streams()) == 0:
            return True
        time.sleep(0.05)
    return False


def _assert_dropped(h: Harness, caplog: pytest.LogCaptureFixture, name: str, reason: str, **bot: int) -> None:
    """Connect a deaf bot ``name`` (``_deaf_bot`` arguments in ``bot``); the
    arena must close its stream and log ``reason``."""
    caplog.set_level(logging.INFO, logger="arena.server")
    token = h.token(name)
    task = h.submit(_deaf_bot(h.address, name, token, **bot))
    h.wait_for([name])
    try:
        assert _wait_gone(h, name, 30.0), f"the arena kept {name}'s stream: expected {reason!r}"
    finally:
        task.cancel()
    assert any(name in r.getMessage() and reason in r.getMessage() for r in caplog.records)


def test_a_bot_that_never_reads_is_dropped_when_its_outbox_fills(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    _assert_dropped(harness, caplog, "deaf-spammer", "the bot is not reading", junk=8000, then_wait=10, id_size=300)
    harness.assert_serving()


def test_a_blocked_write_is_dropped_after_the_write_timeout(log_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(log_dir, write_timeout=0.5)
    try:
        # 600 unread warnings (~130 KB): enough to block a write through the
        # small window, fewer than the outbox cap; then silence: only the
        # watchdog can notice.
        _assert_dropped(h, caplog, "deaf-sleeper", "a write blocked for 0.5 s", junk=600, then_wait=15, id_size=300)
    finally:
        h.close()
