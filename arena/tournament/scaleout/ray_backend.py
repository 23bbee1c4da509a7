"""Workers as Ray tasks across a Ray cluster (optional extra ``truco-arena[ray]``).

Each task plays one batch on whichever node Ray puts it: it starts a
``WorkerSession`` there (an arena on that node's loopback and the bots,
launched on that node) and streams back each game's outcome as it ends
(a Ray streaming generator). The driver, this process, records them. When
a live page watches the run, the task streams its games' ``Progress`` too,
in the same order as a local worker sends them, and the driver replays them
for the page (``progress.py``).

Ray's own retries are off (``max_retries=0``): a task that was retried by
Ray would send again the outcomes it had already sent. When a node is lost,
the task fails here instead, and the coordinator puts the games it had not
reported back in the queue (``coordinator.py``).

What goes to a task and what comes back are the JSON messages of the local
workers (``frames.py``) as bytes, never pickled objects of ours: a result
is read as data and checked like a local worker's frame, since the node
runs bots. (Ray still moves those bytes with its own serializer; keeping
bots away from Ray's sockets is the sandbox's part.)"""

from __future__ import annotations

import asyncio
import logging
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from arena.errors import DomainError

from ...games.orders import GameResult
from ..config import TournamentConfig
from .batches import Batch
from .coordinator import WorkerLostError
from .frames import FROM_WORKER, MAX_ORDER, MAX_REPORT, TO_WORKER, FrameError, Setup, parse, payload
from .progress import BatchReports, LiveGames, report_progress
from .worker_session import WorkerSession, worker_config

CPUS_PER_TASK = 1.0  # the arena's share; the bots' processes come on top, as on a local worker


class RayUnavailableError(DomainError):
    """Ray is not installed, or the cluster cannot be reached; one line."""


def connect(address: str, runtime_env: dict[str, Any] | None = None) -> int:
    """Join the cluster at ``address`` as its driver; return its CPU count."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError("--ray needs the ray extra: pip install 'truco-arena[ray]'") from None
    _check_reachable(address)
    try:
        ray.init(address=address, runtime_env=runtime_env, logging_level=logging.ERROR, log_to_driver=False,
                 ignore_reinit_error=True)
    except Exception as exc:  # ConnectionError, ValueError, RuntimeError...: Ray says why in one line
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RayUnavailableError(f"cannot join the Ray cluster at {address}: {why}") from None
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    return max(1, int(cpus))


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on an address where nothing listens: Ray itself would keep
    retrying for minutes."""
    if address == "auto":
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RayUnavailableError(f"--ray: expected HOST:PORT or auto, got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise RayUnavailableError(f"cannot join the Ray cluster at {address}: {why}") from None


def disconnect() -> None:
    import ray

    ray.shutdown()


def play_batch_on_node(setup_frame: bytes, batch_frame: bytes) -> Iterator[bytes]:
    """The body of a Ray task: play the batch here, yielding each outcome's
    frame (JSON bytes) as its game ends, and when ``Setup.progress`` asks,
    the ``Progress`` of its running games."""
    setup, batch = _orders(setup_frame, batch_frame)
    log_dir = Path(tempfile.mkdtemp(prefix="truco-arena-batch-"))
    loop = asyncio.new_event_loop()
    outcomes: asyncio.Queue[object] = asyncio.Queue()  # GameResult, Progress, then None

    async def play() -> None:
        session = WorkerSession(setup.config, log_dir, setup.concurrency)
        reporting: asyncio.Task[None] | None = None
        try:
            await session.start()
            if setup.progress:
                reporting = asyncio.create_task(report_progress(session.arena, outcomes.put_nowait))
            await session.play(batch, outcomes.put_nowait)
        finally:
            if reporting is not None:
                reporting.cancel()
                await asyncio.gather(reporting, return_exceptions=True)
            await session.stop()
            outcomes.put_nowait(None)

    task = loop.create_task(play())
    try:
        # The loop runs only while the driver waits for the next outcome;
        # handing one over to Ray is quick, and games keep their own clocks.
        while (outcome := loop.run_until_complete(outcomes.get())) is not None:
            yield payload(outcome)
        loop.run_until_complete(task)  # its error, if it failed
    finally:
        if not task.done():
            task.cancel()
            loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        loop.close()


def _orders(setup_frame: bytes, batch_frame: bytes) -> tuple[Setup, Batch]:
    if len(setup_frame) > MAX_ORDER or len(batch_frame) > MAX_ORDER:
        raise ValueError("a task's orders are over the frame size")
    setup, batch = parse(setup_frame, TO_WORKER), parse(batch_frame, TO_WORKER)
    if not isinstance(setup, Setup) or not isinstance(batch, Batch):
        raise ValueError("a task needs a Setup and a Batch")
    return setup, batch


def _frame(data: Any) -> Any:
    """A task's result, read as any frame from a worker."""
    if not isinstance(data, bytes) or len(data) > MAX_REPORT:
        raise WorkerLostError("sent a result that is not a frame of at most "
                              f"{MAX_REPORT} bytes ({type(data).__name__})")
    try:
        return parse(data, FROM_WORKER)
    except FrameError as exc:
        raise WorkerLostError(str(exc)) from None


class RayWorker:
    """One slot of the cluster: plays one batch at a time as a Ray task."""

    def __init__(self, index: int, config: TournamentConfig, concurrency: int, live: LiveGames | None = None
                 ) -> None:
        import ray

        self.name = f"ray task slot {index}"
        self.live = live  # where its games in progress go (a live page watches); None: its tasks send none
        self.setup = payload(Setup(worker_config(config), Path(tempfile.gettempdir()), concurrency,
                                   progress=live is not None))
        self._task = ray.remote(num_returns="streaming", max_retries=0, num_cpus=CPUS_PER_TASK)(
            play_batch_on_node)
        self._running: Any = None

    async def start(self) -> None:
        return None

    async def run(self, batch: Batch) -> AsyncIterator[GameResult]:
        import ray

        stream: Any = self._task.remote(self.setup, payload(batch))  # an ObjectRefGenerator
        self._running = stream
        reports = BatchReports({o.game.key: o for unit in batch.units for o in unit}, self.live)
        try:
            async for ref in stream:
                if (outcome := reports.take(_frame(await ref))) is not None:
                    yield outcome
        except ray.exceptions.RayError as exc:
            raise WorkerLostError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        finally:
            self._running = None
            reports.close()

    async def interrupt(self) -> None:
        import ray

        if self._running is not None:
            try:
                ray.cancel(self._running, force=True)
            except Exception:  # already finished, or its node is gone: nothing left to stop
                pass

    async def close(self) -> None:
        return None
