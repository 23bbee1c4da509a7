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


def _send(out: IO[bytes], obj: object) -> None:
    out.write(encode(obj))
    out.flush()


async def _serve(out: IO[bytes]) -> int:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    setup = await read_frame(reader)
    if not isinstance(setup, Setup):
        _send(out, Failed(f"expected a Setup, got {type(setup).__name__}"))
        return 2
    session = WorkerSession(setup.config, setup.log_dir, setup.concurrency)
    loop.add_signal_handler(signal.SIGTERM, session.interrupt)
    try:
        try:
            await session.start()
        except (OSError, RuntimeError, ValueError) as exc:  # cannot bind, a bot cannot start
            _send(out, Failed(str(exc)))
            return 1
        _send(out, Ready())
        while True:
            try:
                batch = await read_frame(reader)
            except EOFError:
                return 0
            if not isinstance(batch, Batch):
                _send(out, Failed(f"expected a Batch, got {type(batch).__name__}"))
                return 2
            await session.play(batch, lambda outcome: _send(out, outcome))
            if session.arena.closing:
                return 0
            _send(out, BatchDone(batch.number))
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
