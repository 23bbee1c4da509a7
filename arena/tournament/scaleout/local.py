"""Local worker processes, each with its own arena and bots (``worker.py``),
driven over their stdin and stdout."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

from ..config import TournamentConfig
from ..orders import Outcome
from .batches import Batch
from .frames import BatchDone, Failed, FrameError, Ready, Setup, encode, read_frame
from .workers import WorkerFailedError, WorkerLostError

START_TIMEOUT = 60.0  # seconds for a worker to import, bind its arena and launch its bots
CLOSE_GRACE = 10.0  # after stdin closes (or SIGTERM), then it is killed
_PIPE_LIMIT = 2**20


class LocalWorker:
    def __init__(self, index: int, config: TournamentConfig, log_dir: Path, concurrency: int) -> None:
        self.name = f"worker {index}"
        self.index = index
        self.config = config
        self.log_dir = log_dir
        self.concurrency = concurrency
        self.process: asyncio.subprocess.Process | None = None
        self._log: IO[bytes] | None = None

    async def start(self) -> None:
        # Each worker keeps its bots' logs apart from the others'.
        log_dir = self.log_dir / f"worker-{self.index}"
        log_dir.mkdir(parents=True, exist_ok=True)
        self._log = open(log_dir / "worker.log", "ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena.tournament.scaleout.worker",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self._log,
            start_new_session=True,  # a Ctrl-C reaches the coordinator only; it stops the workers itself
            limit=_PIPE_LIMIT,
        )
        await self._send(Setup(self.config, log_dir, self.concurrency))
        try:
            reply = await asyncio.wait_for(self._read(), START_TIMEOUT)
        except TimeoutError:
            raise WorkerFailedError(f"{self.name} did not start within {START_TIMEOUT:g} s") from None
        if isinstance(reply, Failed):
            raise WorkerFailedError(reply.message)
        if not isinstance(reply, Ready):
            raise WorkerLostError(f"sent {type(reply).__name__} instead of Ready")

    async def run(self, batch: Batch) -> AsyncIterator[Outcome]:
        await self._send(batch)
        while True:
            msg = await self._read()
            if isinstance(msg, BatchDone):
                return
            if isinstance(msg, Failed):
                raise WorkerLostError(msg.message)
            yield msg

    async def restart(self) -> None:
        await self.close()
        await self.start()

    async def interrupt(self) -> None:
        proc = self.process
        if proc is not None and proc.returncode is None:
            try:
                proc.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass

    async def close(self) -> None:
        proc, self.process = self.process, None
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                try:
                    await asyncio.wait_for(proc.wait(), CLOSE_GRACE)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
            except ProcessLookupError:
                pass
        if self._log is not None:
            self._log.close()
            self._log = None

    async def _send(self, obj: object) -> None:
        proc = self.process
        if proc is None or proc.stdin is None:
            raise WorkerLostError("not running")
        try:
            proc.stdin.write(encode(obj))
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise WorkerLostError(self._exit()) from None

    async def _read(self) -> Any:
        proc = self.process
        if proc is None or proc.stdout is None:
            raise WorkerLostError("not running")
        try:
            return await read_frame(proc.stdout)
        except EOFError:
            await proc.wait()
            raise WorkerLostError(self._exit()) from None
        except FrameError as exc:
            raise WorkerLostError(str(exc)) from None

    def _exit(self) -> str:
        code = None if self.process is None else self.process.returncode
        if code is None:
            return "its output ended"
        return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
