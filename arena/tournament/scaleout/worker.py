"""A local worker process: ``python -m arena.tournament.scaleout.worker``,
started by the coordinator (``local.py``), never by hand.

It reads a ``Setup`` and then ``Batch``es from stdin and writes back
``Ready``, each game's outcome and ``BatchDone`` on what was its stdout
(and, when ``Setup.progress`` asks, each running game's ``Progress``);
anything else printed goes to stderr, the worker's log. While it plays it
also asks the coordinator whether a crashed bot may start again
(``Crash``/``CrashAnswer``) and hears of bots given up elsewhere (``GiveUp``).
It stops when stdin closes (the coordinator is gone or done) and on SIGTERM
(the tournament was interrupted: games in progress end as interrupted and
are reported so), at once, whether it is playing or still starting its
arena and bots (a start is cut short: the bots it launched are stopped). A
frame it cannot read ends it (exit 2): the coordinator then counts it lost."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import IO, Any

from .batches import Batch
from .frames import (
    MAX_ORDER,
    TO_WORKER,
    BatchDone,
    Crash,
    CrashAnswer,
    Failed,
    FrameError,
    GiveUp,
    Ready,
    Setup,
    encode,
    read_frame,
)
from .progress import report_progress
from .worker_session import WorkerSession

FLUSH_TIMEOUT = 10.0  # seconds to hand the last frames to a coordinator that is still reading
VERDICT_TIMEOUT = 30.0  # seconds for the coordinator to answer a Crash; then the bot is given up here


class _Out:
    """Frames to the coordinator, written without blocking the loop: a
    coordinator busy for a moment must not stall this worker's games."""

    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self.transport = transport

    def __call__(self, obj: object) -> None:
        if not self.transport.is_closing():
            self.transport.write(encode(obj))


class _Inbox:
    """What the coordinator sends while batches play: batches are queued,
    verdicts answer the crash they were asked about, give-ups apply at once."""

    def __init__(self, reader: asyncio.StreamReader, send: _Out, on_end: Callable[[], None]) -> None:
        self.reader, self.send = reader, send
        self.on_end = on_end  # called when the coordinator's stream ends (it is gone, or done with this worker)
        self.batches: asyncio.Queue[Batch | None] = asyncio.Queue()  # None: no more (stdin closed)
        self.session: WorkerSession | None = None
        self.error: str | None = None  # why the stream was given up
        self._asks = itertools.count()
        self._waiting: dict[int, asyncio.Future[str | None]] = {}
        self._giving_up: set[asyncio.Future[None]] = set()

    async def run(self) -> None:
        try:
            while True:
                msg = await read_frame(self.reader, TO_WORKER, MAX_ORDER)
                if isinstance(msg, Batch):
                    self.batches.put_nowait(msg)
                elif isinstance(msg, CrashAnswer):
                    waiting = self._waiting.pop(msg.ask, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(msg.give_up)
                elif isinstance(msg, GiveUp):
                    # Not awaited here: giving up waits for the bots' lock, which a
                    # restart may hold while it waits for a CrashAnswer this loop must read.
                    if self.session is not None:
                        task = asyncio.ensure_future(self.session.give_up(msg.bot, msg.why))
                        self._giving_up.add(task)
                        task.add_done_callback(self._giving_up.discard)
                else:
                    raise FrameError(f"unexpected {type(msg).__name__}")
        except EOFError:
            self.on_end()  # the coordinator is gone (or done): stop now, starting or playing
        except FrameError as exc:
            self.error = str(exc)
        finally:
            self.batches.put_nowait(None)
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_result("the coordinator is gone")

    async def crash_gate(self, bot: str, code: int | None, last_line: str) -> str | None:
        """Ask the coordinator whether ``bot`` may start again (the run's crash count is its)."""
        ask = next(self._asks)
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = answer
        self.send(Crash(ask, bot, code, last_line))
        try:
            return await asyncio.wait_for(answer, VERDICT_TIMEOUT)
        except TimeoutError:
            return f"crashed, and the coordinator did not answer within {VERDICT_TIMEOUT:g} s"
        finally:
            self._waiting.pop(ask, None)


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
    try:
        setup = await read_frame(reader, TO_WORKER, MAX_ORDER)
    except FrameError as exc:
        send(Failed(str(exc)))
        return 2
    if not isinstance(setup, Setup):
        send(Failed(f"expected a Setup, got {type(setup).__name__}"))
        return 2
    stopping = asyncio.Event()

    def stop() -> None:  # SIGTERM, or the coordinator's stream ended: games running end as interrupted
        stopping.set()
        session.interrupt()

    inbox = _Inbox(reader, send, stop)
    session = WorkerSession(setup.config, setup.log_dir, setup.concurrency, crash_gate=inbox.crash_gate)
    inbox.session = session
    loop.add_signal_handler(signal.SIGTERM, stop)
    listening = asyncio.create_task(inbox.run())
    reporting: asyncio.Task[None] | None = None
    try:
        try:
            if not await _unless_stopped(session.start(), stopping):
                return 0  # stopped while starting: nothing was played
        except (OSError, RuntimeError, ValueError) as exc:  # cannot bind, a bot cannot start
            send(Failed(str(exc)))
            return 1
        for bot, why in setup.given_up:
            await session.give_up(bot, why)
        send(Ready())
        if setup.progress:  # a live page watches: its games in progress too
            reporting = asyncio.create_task(report_progress(session.arena, send))
        while (batch := await inbox.batches.get()) is not None:
            await session.play(batch, send)
            if session.arena.closing:
                return 0
            send(BatchDone(batch.number))
        if inbox.error is not None:
            logging.getLogger("arena.tournament").warning("stopping: %s", inbox.error)
            return 2
        return 0
    finally:
        tasks = [listening] if reporting is None else [listening, reporting]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await session.stop()


async def _unless_stopped(start: Coroutine[Any, Any, None], stopping: asyncio.Event) -> bool:
    """Run ``start`` unless ``stopping`` is set first, which cancels it; True if it finished."""
    task = asyncio.ensure_future(start)
    stopper = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    if task.cancelled():
        return False
    task.result()
    return True


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
