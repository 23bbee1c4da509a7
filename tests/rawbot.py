"""A bot at the protocol level, without the SDK, for the tests and the
benchmarks: open a ``Play`` stream, do the Hello handshake, read what the
arena sends and answer its Decisions, with hooks where a test misbehaves.

The stream is opened at the byte level and ``RawCall`` serializes the
PlayRequests itself, so the same call can also carry bytes that are not a
PlayRequest, or a message over the arena's size limit.

The same bot talks to an arena without gRPC through ``memory_transport``
(anything that is a ``Call``). The benchmarks import it with ``tests/`` on
``sys.path``; it needs only grpc and ``arena.protocol``.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import grpc

from arena.protocol import arena_pb2 as pb
from arena.protocol.handshake import say_hello

PLAY = "/truco.arena.v1.ArenaService/Play"
# The client offers a one-byte HTTP/2 receive window: each of the arena's
# writes completes only as the bot reads.
ONE_BYTE_WINDOW = (("grpc.http2.lookahead_bytes", 1), ("grpc.http2.bdp_probe", 0))


def _identity(data: bytes) -> bytes:
    return data


class Call(Protocol):
    """One ``Play`` stream as a bot sees it, over gRPC (``RawCall``) or in memory."""

    async def write(self, msg: pb.PlayRequest) -> None: ...

    async def write_bytes(self, data: bytes) -> None: ...

    async def read(self) -> pb.PlayResponse | None: ...

    async def done_writing(self) -> None: ...

    def cancel(self) -> None: ...


class RawCall:
    """One ``Play`` stream over gRPC. ``write`` sends a PlayRequest, ``write_bytes``
    anything at all; ``read`` gives the next PlayResponse, or None once the
    arena has ended the stream. A Batch (protocol 3) is read as its messages,
    one by one; ``batches`` counts the Batches read."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.batches = 0
        self._unread: deque[pb.PlayResponse] = deque()

    async def write(self, msg: pb.PlayRequest) -> None:
        await self.call.write(msg.SerializeToString())

    async def write_bytes(self, data: bytes) -> None:
        await self.call.write(data)

    async def read(self) -> pb.PlayResponse | None:
        if self._unread:
            return self._unread.popleft()
        msg = await self.call.read()
        if msg is grpc.aio.EOF:
            return None
        assert isinstance(msg, pb.PlayResponse)
        if msg.WhichOneof("kind") == "batch":
            self.batches += 1
            self._unread.extend(msg.batch.messages)
            return self._unread.popleft() if self._unread else pb.PlayResponse()
        return msg

    async def done_writing(self) -> None:
        await self.call.done_writing()

    def cancel(self) -> None:
        self.call.cancel()

    def done(self) -> bool:
        return bool(self.call.done())

    async def code(self) -> grpc.StatusCode:
        code: grpc.StatusCode = await self.call.code()
        return code

    async def details(self) -> str:
        return str(await self.call.details() or "")


def play_call(channel: grpc.aio.Channel) -> RawCall:
    """A fresh ``Play`` stream on ``channel``."""
    stream = channel.stream_stream(PLAY, request_serializer=_identity, response_deserializer=pb.PlayResponse.FromString)
    return RawCall(stream())


@asynccontextmanager
async def open_stream(address: str, options: Sequence[tuple[str, Any]] = ()) -> AsyncIterator[RawCall]:
    """A ``Play`` stream on a channel of its own (gRPC ``options``), closed on the way out."""
    async with grpc.aio.insecure_channel(address, options=list(options)) as channel:
        yield play_call(channel)


async def hello(
    call: Call, name: str, token: str, version: str = "", protocol: int | None = None
) -> pb.PlayResponse | None:
    """The whole handshake (in ``protocol``, default the current version);
    the arena's answer (a Welcome or a closing Status)."""
    reply: pb.PlayResponse | None = await say_hello(call, name, token, version, protocol)
    return reply


OnDecision = Callable[[Call, pb.Decision], Awaitable[None]]


def answer_with(choose: Callable[[Sequence[str]], str]) -> OnDecision:
    """Answer each Decision at once with the action text ``choose`` picks from its legal ones."""

    async def answer(call: Call, d: pb.Decision) -> None:
        await call.write(pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action=choose(d.legal_actions))))

    return answer


first_legal = answer_with(lambda legal: legal[0])


def random_legal(seed: int) -> OnDecision:
    return answer_with(random.Random(seed).choice)


def closing(msg: pb.PlayResponse) -> bool:
    """A Status that says the arena is closing the stream."""
    return msg.HasField("status") and msg.status.closing


def never(msg: pb.PlayResponse) -> bool:
    return False


async def converse(
    call: Call,
    on_decision: OnDecision | None,
    *,
    stop: Callable[[pb.PlayResponse], bool] = closing,
    before_read: Callable[[], Awaitable[None]] | None = None,
    after: Callable[[pb.PlayResponse], Awaitable[None]] | None = None,
    keep: list[pb.PlayResponse] | None = None,
) -> None:
    """After the Hello: read until the arena ends the stream or a message
    ``stop``s it, answering each Decision with ``on_decision`` (None: never
    answer). ``before_read`` runs before each read, ``after`` after each
    message is handled; ``keep`` collects every message read."""
    while True:
        if before_read is not None:
            await before_read()
        msg = await call.read()
        if msg is None:
            return
        if keep is not None:
            keep.append(msg)
        if on_decision is not None and msg.HasField("decision"):
            await on_decision(call, msg.decision)
        if after is not None:
            await after(msg)
        if stop(msg):
            return


async def run_bot(
    address: str, name: str, token: str, streams: int, on_decision: OnDecision, protocol: int | None = None
) -> None:
    """``streams`` streams on one channel, each answering with ``on_decision``,
    until the arena closes them (an error on one stream ends only that one)."""

    async def stream(channel: grpc.aio.Channel) -> None:
        call = play_call(channel)
        await hello(call, name, token, protocol=protocol)
        await converse(call, on_decision)

    async with grpc.aio.insecure_channel(address) as channel:
        await asyncio.gather(*(stream(channel) for _ in range(streams)), return_exceptions=True)
