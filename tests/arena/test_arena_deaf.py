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

from sdk.pb import arena_pb2 as pb
from sdk.pb import arena_pb2_grpc as pb_grpc

from arena_harness import Harness

# Every junk Move outside a game earns a warning Status that quotes its game
# id, so a long id makes each warning long. The client's gRPC buffers a few
# MB unread (measured: ~4 MB) before flow control stops the arena's writes.


async def _deaf_bot(address: str, name: str, token: str, junk: int, then_wait: float, id_size: int) -> None:
    long_id = "x" * id_size
    async with grpc.aio.insecure_channel(address) as channel:
        call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
        await call.write(pb.PlayRequest(hello=pb.Hello(bot_name=name, protocol_version=1, token=token)))
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


def test_a_bot_that_never_reads_is_dropped_when_its_outbox_fills(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="arena.server")
    name = "deaf-spammer"
    token = harness.token(name)
    bot = harness.submit(_deaf_bot(harness.address, name, token, junk=8000, then_wait=10.0, id_size=2000))
    harness.wait_for([name])
    try:
        assert _wait_gone(harness, name, 30.0), "the arena kept a stream whose writes never drain"
    finally:
        bot.cancel()
    assert any(name in r.getMessage() and "the bot is not reading" in r.getMessage() for r in caplog.records)
    harness.assert_serving()


def test_a_blocked_write_is_dropped_after_the_write_timeout(log_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arena.server")
    h = Harness(log_dir, write_timeout=0.5)
    try:
        name = "deaf-sleeper"
        token = h.token(name)
        # 12 MB of unread warnings in 400 messages: enough to block a write,
        # far fewer than the outbox cap; then silence: only the watchdog can notice.
        bot = h.submit(_deaf_bot(h.address, name, token, junk=400, then_wait=15.0, id_size=30_000))
        h.wait_for([name])
        try:
            assert _wait_gone(h, name, 10.0), "a write blocked for longer than write_timeout was not dropped"
        finally:
            bot.cancel()
        assert any(name in r.getMessage() and "a write blocked for 0.5 s" in r.getMessage() for r in caplog.records)
    finally:
        h.close()
