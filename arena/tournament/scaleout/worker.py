"""A local worker process: ``python -m arena.tournament.scaleout.worker``,
started by the coordinator (``local.py``), never by hand.

It reads a ``Setup`` and then ``Batch``es from stdin and writes back
``Ready``, each game's outcome and ``BatchDone`` on what was its stdout;
anything else printed goes to stderr, the worker's log. It stops when stdin
closes (the coordinator is gone or done) and on SIGTERM (the tournament was
interrupted: games in progress end as interrupted and are reported so)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import IO

from .batches import Batch
from .frames import BatchDone, Failed, Ready, Setup, encode, read_frame
from .session import WorkerSession

FLUSH_TIMEOUT = 10.0  # seconds to hand the last frames to a coordinator that is still reading


class _Out:
    """Frames to the coordinator, written without blocking the loop: a
    coordinator busy for a moment must not stall this worker's games."""

    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self.transport = transport

    def __call__(self, obj: object) -> None:
        if not self.transport.is_closing():
            self.transport.write(encode(obj))


async def _serve(out_file: IO[bytes]) -> int:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    transport, _ = await loop.connect_write_pipe(asyncio.Protocol, out_file)
    send = _Out(transport)
    try:
        return await _play(reader, send)
    finally:
        # What is still buffered (the last outcomes) goes out before the loop ends.
        deadline = loop.time() + FLUSH_TIMEOUT
        while transport.get_write_buffer_size() and not transport.is_closing() and loop.time() < deadline:
            await asyncio.sleep(0.01)
        transport.close()


async def _play(reader: asyncio.StreamReader, send: _Out) -> int:
    loop = asyncio.get_running_loop()
    setup = await read_frame(reader)
    if not isinstance(setup, Setup):
        send(Failed(f"expected a Setup, got {type(setup).__name__}"))
        return 2
    session = WorkerSession(setup.config, setup.log_dir, setup.concurrency)
    loop.add_signal_handler(signal.SIGTERM, session.interrupt)
    try:
        try:
            await session.start()
        except (OSError, RuntimeError, ValueError) as exc:  # cannot bind, a bot cannot start
            send(Failed(str(exc)))
            return 1
        send(Ready())
        while True:
            try:
                batch = await read_frame(reader)
            except EOFError:
                return 0
            if not isinstance(batch, Batch):
                send(Failed(f"expected a Batch, got {type(batch).__name__}"))
                return 2
            await session.play(batch, send)
            if session.arena.closing:
                return 0
            send(BatchDone(batch.number))
    finally:
        await session.stop()


def main() -> None:
    # Frames go out on a private copy of stdout; fd 1 becomes stderr, so a
    # stray print (ours or a library's) cannot corrupt the stream of frames.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s worker %(process)d %(name)s: %(message)s")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the coordinator alone answers Ctrl-C
    try:
        code = asyncio.run(_serve(out))
    except (EOFError, BrokenPipeError):  # the coordinator went away
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()
