"""An arena without gRPC: the real ``ArenaServicer``, ``Connection`` and
``GameRun`` driven over in-memory streams, in the test's own event loop, as
python-chess tests its engine protocol over a mock transport.

``MemoryArena`` starts an ``Arena`` the way ``Arena.start`` does, minus the
gRPC server; ``connect`` opens a ``Play`` stream whose bot side is a
``rawbot.Call``, so the protocol-level bots of ``rawbot`` play here as they
do over loopback. What the transport stands in for, and how:

- the bytes a bot sends go through the arena's own request reader
  (``wire.RequestReader``): an oversized message or bytes that are not a
  PlayRequest reach the servicer as the same ``WireFault`` as over gRPC;
- ``done_writing`` is a half-close (the servicer reads EOF);
- ``cancel`` cancels the servicer's call, as gRPC does for a client cancel
  or a lost connection;
- a write completes at once: there is no flow control, so what depends on
  HTTP/2 windows (tests/arena/test_arena_clock.py) stays on real gRPC, as do
  TLS, keepalive and gRPC's own size limit.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from typing import Any

import grpc

from arena.protocol import arena_pb2 as pb
from arena.server import Arena
from arena.server.pool import Pool
from arena.server.servicer import ArenaServicer
from arena.server.wire import RequestReader

_END = object()  # the servicer's call has ended: after the queued messages, the bot reads EOF
_ports = itertools.count(40000)


class _NoServer:
    """Stands in for the gRPC server in ``Arena.stop``: nothing listens."""

    async def stop(self, grace: float | None) -> None:
        return None


class _Context:
    """The servicer's side of one stream: what ``Connection`` and ``ArenaServicer.Play`` use."""

    def __init__(self, peer: str, limit: int) -> None:
        self._peer = peer
        self.requests: asyncio.Queue[bytes | None] = asyncio.Queue()  # None: the bot half-closed
        self.responses: asyncio.Queue[object] = asyncio.Queue()
        self.reader = RequestReader(limit)
        self.code: grpc.StatusCode | None = None
        self.details = ""

    def peer(self) -> str:
        return self._peer

    async def read(self) -> Any:
        data = await self.requests.get()
        if data is None:
            return grpc.aio.EOF
        return self.reader(data)

    async def write(self, msg: pb.PlayResponse) -> None:
        self.responses.put_nowait(msg)

    def set_code(self, code: grpc.StatusCode) -> None:
        self.code = code

    def set_details(self, details: str) -> None:
        self.details = details


class MemoryCall:
    """The bot's side of one in-memory stream (a ``rawbot.Call``)."""

    def __init__(self, context: _Context, play: asyncio.Task[None]) -> None:
        self._context = context
        self._play = play
        self._half_closed = False
        self._unread: deque[pb.PlayResponse] = deque()  # the rest of a Batch, read one by one

    async def write(self, msg: pb.PlayRequest) -> None:
        await self.write_bytes(msg.SerializeToString())

    async def write_bytes(self, data: bytes) -> None:
        if self._play.done() or self._half_closed:
            raise ConnectionError("the stream has ended")
        self._context.requests.put_nowait(data)

    async def read(self) -> pb.PlayResponse | None:
        if self._unread:
            return self._unread.popleft()
        msg = await self._context.responses.get()
        if msg is _END:
            self._context.responses.put_nowait(_END)  # every later read is EOF too
            return None
        assert isinstance(msg, pb.PlayResponse)
        if msg.WhichOneof("kind") == "batch" and msg.batch.messages:
            self._unread.extend(msg.batch.messages)
            return self._unread.popleft()
        return msg

    async def done_writing(self) -> None:
        self._half_closed = True
        self._context.requests.put_nowait(None)

    def cancel(self) -> None:
        self._play.cancel()

    def done(self) -> bool:
        return self._play.done()

    async def ended(self) -> tuple[grpc.StatusCode, str]:
        """How the call ended: the status code and details the servicer set (OK if none)."""
        await asyncio.wait({self._play})
        return self._context.code or grpc.StatusCode.OK, self._context.details


class MemoryArena:
    """An ``Arena`` with every stream in memory; use ``async with``."""

    def __init__(self, **arena_options: Any) -> None:
        self.arena = Arena(**arena_options)
        self._calls: list[MemoryCall] = []

    async def __aenter__(self) -> MemoryArena:
        # What Arena.start sets up, with no server to listen.
        arena = self.arena
        arena._pool = Pool()
        arena._no_games = asyncio.Event()
        arena._no_games.set()
        arena._servicer = ArenaServicer(arena)
        arena._server = _NoServer()
        arena._watchdog = asyncio.get_running_loop().create_task(arena._watch_writes(), name="write-watchdog")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.arena.stop(grace=0.5)
        for call in self._calls:
            call.cancel()
        await asyncio.gather(*(c._play for c in self._calls), return_exceptions=True)

    def connect(self, peer: str | None = None) -> MemoryCall:
        """A new ``Play`` stream, from ``peer`` (by default a connection of its own)."""
        servicer = self.arena._servicer
        assert servicer is not None, "use MemoryArena in `async with`"
        context = _Context(peer or f"ipv4:127.0.0.1:{next(_ports)}", self.arena.max_receive_bytes)
        play = asyncio.get_running_loop().create_task(servicer.Play(_no_requests(), context))
        play.add_done_callback(lambda _: context.responses.put_nowait(_END))
        call = MemoryCall(context, play)
        self._calls.append(call)
        return call


async def _no_requests() -> Any:
    """The servicer reads its stream through the context, never this iterator."""
    return
    yield
