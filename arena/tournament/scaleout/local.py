"""Local worker processes, each with its own arena and bots (``worker.py``),
driven over their stdin and stdout.

Everything a worker sends is checked before it is used (``frames.py``):
a frame that is not one of the protocol's, a result for a game the worker
was not given, a crash of a bot it does not run, or a game's progress that
does not follow that game (``progress.py``) makes the worker lost,
as if it had died; its unreported games are played again elsewhere."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import IO, Any

from ...games.orders import GameResult
from ...games.private_files import PrivateFileError, make_private_dir, open_private
from ..config import TournamentConfig
from ..launcher import wait_or_kill
from .batches import Batch
from .coordinator import WorkerFailedError, WorkerLostError
from .frames import (
    FROM_WORKER,
    MAX_REPORT,
    BatchDone,
    Crash,
    CrashAnswer,
    Failed,
    FrameError,
    GiveUp,
    Ready,
    Setup,
    encode,
    printable,
    read_frame,
)
from .progress import BatchReports, LiveGames
from .worker_session import worker_config

log = logging.getLogger("arena.tournament")

MAX_RESTARTS = 3  # the same limit as on a single arena (Supervisor)
# A worker's Failed line holds a bot's words (cut to 200 characters) and the
# path of its log, which is cut nowhere (PATH_MAX is 4,096 bytes).
FAILED_MAX = 8192

START_TIMEOUT = 60.0  # seconds for a worker to import, bind its arena and launch its bots
CLOSE_GRACE = 10.0  # after stdin closes (or SIGTERM), then it is killed
_PIPE_LIMIT = 2**20


class LocalWorker:
    def __init__(self, index: int, config: TournamentConfig, log_dir: Path, concurrency: int,
                 crashes: CrashLedger | None = None, live: LiveGames | None = None) -> None:
        self.name = f"worker {index}"
        self.index = index
        self.config = worker_config(config)
        self.log_dir = log_dir
        self.concurrency = concurrency
        self.crashes = crashes or CrashLedger()
        self.crashes.listen(self._tell_given_up)
        self.live = live  # where its games in progress go (a live page watches); None: it sends none
        self.process: asyncio.subprocess.Process | None = None
        self._log: IO[bytes] | None = None
        self._bots = {b.name for b in self.config.bots}
        self._next_ask = 0

    async def start(self) -> None:
        # Each worker keeps its bots' logs apart from the others'.
        log_dir = self.log_dir / f"worker-{self.index}"
        try:
            # Owner-only and never through a planted link (private_files.py).
            make_private_dir(log_dir, parents=True)
            self._log = open_private(log_dir / "worker.log", append=True)
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "arena.tournament.scaleout.worker",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self._log,
                start_new_session=True,  # a Ctrl-C reaches the coordinator only; it stops the workers itself
                limit=_PIPE_LIMIT,
            )
        except PrivateFileError as exc:  # its log cannot be written safely; the message names it
            await self.close()
            raise WorkerFailedError(f"{self.name} cannot start: {exc}") from None
        except OSError as exc:  # the interpreter cannot be run
            await self.close()
            where = exc.filename if exc.filename is not None else sys.executable
            raise WorkerFailedError(f"{self.name} cannot start: {where}: {exc.strerror or exc}") from None
        self._next_ask = 0  # a fresh process numbers its crash reports from 0
        await self._send(Setup(self.config, log_dir, self.concurrency, tuple(self.crashes.given_up.items()),
                               progress=self.live is not None))
        try:
            reply = await asyncio.wait_for(self._read(), START_TIMEOUT)
        except TimeoutError:
            raise WorkerFailedError(f"{self.name} did not start within {START_TIMEOUT:g} s") from None
        if isinstance(reply, Failed):
            # Whole: the line ends with the bot's log path, which must not be cut.
            raise WorkerFailedError(printable(reply.message, FAILED_MAX))
        if not isinstance(reply, Ready):
            raise WorkerLostError(f"sent {type(reply).__name__} instead of Ready")

    async def run(self, batch: Batch) -> AsyncIterator[GameResult]:
        await self._send(batch)
        reports = BatchReports({o.game.key: o for unit in batch.units for o in unit}, self.live)
        try:
            while True:
                msg = await self._read()
                if isinstance(msg, BatchDone):
                    if msg.number != batch.number:
                        raise WorkerLostError(f"said batch {msg.number} was done while playing batch {batch.number}")
                    return
                if isinstance(msg, Failed):
                    raise WorkerLostError(printable(msg.message, FAILED_MAX))
                if isinstance(msg, Crash):
                    await self._answer(msg)
                    continue
                if isinstance(msg, Ready):
                    raise WorkerLostError("sent Ready again")
                if (outcome := reports.take(msg)) is not None:
                    yield outcome
        finally:
            reports.close()

    async def _answer(self, crash: Crash) -> None:
        if crash.bot not in self._bots:
            raise WorkerLostError(f"reported a crash of {printable(crash.bot, 40)!r}, a bot it does not run")
        # A worker numbers its questions 0, 1, 2...: one out of turn was not written by it.
        if crash.ask != self._next_ask:
            raise WorkerLostError(f"asked about crash {crash.ask} when {self._next_ask} was due")
        self._next_ask += 1
        verdict = self.crashes.crashed(crash.bot, crash.code, crash.last_line, self.name)
        await self._send(CrashAnswer(crash.ask, verdict))

    def _tell_given_up(self, bot: str, why: str) -> None:
        """Another worker's crash gave ``bot`` up: this one stops playing it too."""
        proc = self.process
        if proc is not None and proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.write(encode(GiveUp(bot, why)))  # whole frames: the transport keeps them in order

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
                await wait_or_kill(proc, CLOSE_GRACE)
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
            raise await self._lost(proc) from None

    async def _read(self) -> Any:
        proc = self.process
        if proc is None or proc.stdout is None:
            raise WorkerLostError("not running")
        try:
            return await read_frame(proc.stdout, FROM_WORKER, MAX_REPORT)
        except EOFError:
            raise await self._lost(proc) from None
        except FrameError as exc:
            raise WorkerLostError(str(exc)) from None

    async def _lost(self, proc: asyncio.subprocess.Process) -> WorkerLostError:
        """Its input or output closed: it is exiting, or was killed, or closed
        a pipe and must be ended. Reaped first, so the error names how it ended."""
        await wait_or_kill(proc, CLOSE_GRACE)
        return WorkerLostError(self._exit())

    def _exit(self) -> str:
        code = None if self.process is None else self.process.returncode
        if code is None:
            return "its output ended"
        return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"


class CrashLedger:
    """Crashes of launched bots counted by the coordinator for the whole run.

    Each worker runs its own copies of the bots, so a restart limit counted in
    each worker would grow with the number of workers (and so would the games
    a crashing bot plays before it forfeits). Instead a worker asks here before
    it starts a crashed bot again (a ``Crash`` frame, answered by a
    ``CrashAnswer``): the bot may be restarted ``max_restarts`` times in the whole
    run, as on a single arena, and once it is given up every worker is told,
    so it forfeits its remaining games everywhere."""

    def __init__(self, max_restarts: int = MAX_RESTARTS) -> None:
        self.max_restarts = max_restarts
        self.crashes: Counter[str] = Counter()
        self.given_up: dict[str, str] = {}  # bot -> why
        self._listeners: list[Callable[[str, str], None]] = []

    def listen(self, tell: Callable[[str, str], None]) -> None:
        """``tell(bot, why)`` is called for every bot given up from now on."""
        self._listeners.append(tell)

    def crashed(self, bot: str, code: int | None, last_line: str, where: str) -> str | None:
        """A process of ``bot`` died in ``where``: None to restart it, or why it is given up."""
        if bot in self.given_up:
            return self.given_up[bot]
        self.crashes[bot] += 1
        n = self.crashes[bot]
        if n <= self.max_restarts:
            log.info("bot %s crashed in %s (exit code %s); restart %d of %d", bot, where, code, n,
                     self.max_restarts)
            return None
        why = f"crashed {n} times in this run (last in {where}, exit code {code}: {printable(last_line)})"
        self.given_up[bot] = why
        for tell in self._listeners:
            tell(bot, why)
        return why
