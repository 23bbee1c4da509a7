"""The stream writer never leaves a sender waiting on a write it abandoned.

A real stream cannot be made to stop exactly in the middle of one write, so
this drives ``Connection.write_loop`` with a stand-in context whose write
blocks until cancelled. (Seen for real: ``serve`` took 10 s to stop when a
bot cancelled its stream just as the arena sent its goodbye.)"""

from __future__ import annotations

import asyncio

import pytest

from arena.protocol import arena_pb2 as pb
from arena.server.connection import Connection, ConnectionLostError


class _StuckContext:
    def __init__(self) -> None:
        self.writing = asyncio.Event()

    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"

    async def write(self, msg: pb.PlayResponse) -> None:
        self.writing.set()
        await asyncio.Event().wait()  # never completes: a write cut short


def test_a_write_cancelled_midway_fails_its_sender_at_once() -> None:
    async def scenario() -> None:
        ctx = _StuckContext()
        conn = Connection(ctx, "s1", write_timeout=30.0)
        writer = asyncio.create_task(conn.write_loop())
        sender = asyncio.create_task(conn.send(pb.PlayResponse()))
        await ctx.writing.wait()
        writer.cancel()  # what the servicer does when the call ends
        async with asyncio.timeout(1.0):  # not write_timeout
            with pytest.raises(ConnectionLostError):
                await sender
        with pytest.raises(asyncio.CancelledError):
            await writer

    asyncio.run(scenario())


def test_messages_queued_behind_a_cut_write_fail_too() -> None:
    async def scenario() -> None:
        ctx = _StuckContext()
        conn = Connection(ctx, "s1", write_timeout=30.0)
        writer = asyncio.create_task(conn.write_loop())
        first = asyncio.create_task(conn.send(pb.PlayResponse()))
        await ctx.writing.wait()
        second = asyncio.create_task(conn.send(pb.PlayResponse()))
        await asyncio.sleep(0)
        writer.cancel()
        async with asyncio.timeout(1.0):
            results = await asyncio.gather(first, second, return_exceptions=True)
        assert all(isinstance(r, ConnectionLostError) for r in results)
        with pytest.raises(ConnectionLostError):
            conn.post(pb.PlayResponse())  # and nothing more is accepted

    asyncio.run(scenario())
