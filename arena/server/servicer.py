"""The gRPC servicer: admits a stream (Hello -> Welcome or a closing Status),
parks it in the pool, and keeps the RPC open until the stream ends. It only
translates; games are run by ``GameRun``."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import grpc

import arena
from sdk.pb import PROTOCOL_VERSION
from sdk.pb import arena_pb2 as pb
from sdk.pb import arena_pb2_grpc as pb_grpc

from .connection import Connection
from .convert import status_pb

if TYPE_CHECKING:
    from .arena import Arena


class ArenaServicer(pb_grpc.ArenaServiceServicer):
    def __init__(self, arena_: "Arena") -> None:
        self.arena = arena_
        self._ids = itertools.count(1)

    async def Play(  # noqa: N802 - the RPC's name
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: grpc.aio.ServicerContext
    ) -> None:
        conn = Connection(context, f"s{next(self._ids)}", self.arena.write_timeout)
        loop = asyncio.get_running_loop()
        reader = loop.create_task(conn.read_loop(), name=f"reader-{conn.stream_id}")
        writer = loop.create_task(conn.write_loop(), name=f"writer-{conn.stream_id}")
        try:
            if await self._admit(conn):
                await conn.closed.wait()
                if conn.graceful and not reader.done():
                    # Closed by the arena (shutdown): let the bot finish a write
                    # in flight and half-close. Ending the call under a pending
                    # client write fails that write and, with it, the client's
                    # read of the Status just sent.
                    await asyncio.wait({reader}, timeout=self.arena.close_grace)
        finally:
            conn.drop("stream ended")
            self.arena.pool.remove(conn)
            reader.cancel()
            writer.cancel()

    async def _admit(self, conn: Connection) -> bool:
        try:
            async with asyncio.timeout(self.arena.hello_timeout):
                hello = await conn.hello
        except TimeoutError:
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO, f"no Hello within {self.arena.hello_timeout:g} s")
        if hello is None:
            if not conn.alive:
                return False
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO, "the first message must be a Hello")
        rejection = self._judge(hello)
        if rejection is not None:
            return await self._reject(conn, *rejection)
        conn.name, conn.version, conn.token = hello.bot_name, hello.bot_version, hello.token
        # Pool first, Welcome second: no await in between, so the name check
        # above still holds; the stream's write lock keeps Welcome first on the wire.
        self.arena.pool.add(conn)
        welcome = pb.Welcome(
            protocol_version=PROTOCOL_VERSION,
            bot_name=conn.name,
            stream_id=conn.stream_id,
            arena_version=arena.__version__,
        )
        return await conn.send_quietly(pb.PlayResponse(welcome=welcome))

    def _judge(self, hello: pb.Hello) -> tuple[pb.StatusCode, str] | None:
        """Why this Hello is refused, or None to admit it."""
        if hello.protocol_version != PROTOCOL_VERSION:
            return (
                pb.STATUS_CODE_PROTOCOL_VERSION,
                f"protocol version {hello.protocol_version} is not supported: this arena speaks {PROTOCOL_VERSION}",
            )
        owner = self.arena.tokens.name_for(hello.token)
        if owner is None:
            return pb.STATUS_CODE_UNAUTHENTICATED, "unknown token"
        if owner != hello.bot_name:
            return pb.STATUS_CODE_UNAUTHENTICATED, f"this token is for bot {owner!r}, not {hello.bot_name!r}"
        holder = self.arena.pool.token_of(hello.bot_name)
        if holder is not None and holder != hello.token:
            return pb.STATUS_CODE_NAME_TAKEN, f"bot name {hello.bot_name!r} is already connected with another token"
        if self.arena.closing:
            return pb.STATUS_CODE_SHUTDOWN, "the arena is shutting down"
        return None

    @staticmethod
    async def _reject(conn: Connection, code: pb.StatusCode, message: str) -> bool:
        await conn.send_quietly(status_pb(code, message, closing=True))
        conn.drop(f"rejected: {message}")
        return False
