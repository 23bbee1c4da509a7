"""A process family's own Unix socket (``Arena.listen_family``) over real
gRPC: it admits its own bot, refuses a Hello naming another bot (even with
that bot's valid token), and counts its streams before the Hello as the
family's, not as everyone's "unix:"."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path

import grpc
from rawbot import hello, open_stream

from arena.protocol import arena_pb2 as pb
from arena.server import Arena
from arena.server.servicer import family_peer


async def _family_socket() -> None:
    with tempfile.TemporaryDirectory(prefix="family-") as folder:
        arena = Arena(hello_timeout=5.0)
        await arena.start("127.0.0.1:0", unix_socket=Path(folder) / "arena.sock")
        try:
            mine, other = arena.add_token("mine"), arena.add_token("other")
            path = Path(folder) / "mine.sock"
            await arena.listen_family("mine", path, processes=1, streams=2)
            await arena.listen_family("mine", path, processes=1, streams=2)  # idempotent
            address = f"unix:{path}"
            async with open_stream(address) as call:
                reply = await hello(call, "other", other)
                assert reply is not None and reply.WhichOneof("kind") == "status", reply
                assert reply.status.code == pb.STATUS_CODE_UNAUTHENTICATED, reply
                assert "admits bot 'mine' only" in reply.status.message, reply
            async with open_stream(address) as call:
                silent = asyncio.get_running_loop().create_task(_silent(address))
                for _ in range(100):
                    if arena.streams_waiting_for_hello:
                        break
                    await asyncio.sleep(0.02)
                # The silent stream waits as the family's, before any Hello.
                assert arena.streams_waiting_for_hello >= 1
                assert arena._servicer is not None
                assert {c.peer for c in arena._servicer.room._where} == {family_peer("mine")}
                reply = await hello(call, "mine", mine)
                assert reply is not None and reply.WhichOneof("kind") == "welcome", reply
                assert "mine" in arena.bots()
                silent.cancel()
                await asyncio.gather(silent, return_exceptions=True)
        finally:
            await arena.stop(grace=0)


async def _silent(address: str) -> None:
    async with open_stream(address) as call:
        with contextlib.suppress(grpc.aio.AioRpcError):
            await call.read()


def test_a_familys_socket_admits_its_bot_only() -> None:
    asyncio.run(_family_socket())
