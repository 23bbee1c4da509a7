"""Workers as Ray tasks across a Ray cluster (optional extra ``truco-arena[ray]``).

Each task plays one batch on whichever node Ray puts it: it starts a
``WorkerSession`` there (an arena on that node's loopback and the bots,
launched on that node) and streams back each game's outcome as it ends
(a Ray streaming generator). The driver, this process, records them.

Ray's own retries are off (``max_retries=0``): a task that was retried by
Ray would send again the outcomes it had already sent. When a node is lost,
the task fails here instead, and the coordinator puts the games it had not
reported back in the queue (``coordinator.py``)."""

from __future__ import annotations

import asyncio
import logging
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from ..config import TournamentConfig
from ..orders import Outcome
from .batches import Batch
from .session import WorkerSession
from .workers import WorkerLostError

CPUS_PER_TASK = 1.0  # the arena's share; the bots' processes come on top, as on a local worker


class RayUnavailableError(Exception):
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


def play_batch_on_node(config: TournamentConfig, concurrency: int, batch: Batch) -> Iterator[Outcome]:
    """The body of a Ray task: play ``batch`` here, yielding outcomes as games end."""
    log_dir = Path(tempfile.mkdtemp(prefix="truco-arena-batch-"))
    loop = asyncio.new_event_loop()
    outcomes: asyncio.Queue[Outcome | None] = asyncio.Queue()

    async def play() -> None:
        session = WorkerSession(config, log_dir, concurrency)
        try:
            await session.start()
            await session.play(batch, outcomes.put_nowait)
        finally:
            await session.stop()
            outcomes.put_nowait(None)

    task = loop.create_task(play())
    try:
        # The loop runs only while the driver waits for the next outcome;
        # handing one over to Ray is quick, and games keep their own clocks.
        while (outcome := loop.run_until_complete(outcomes.get())) is not None:
            yield outcome
        loop.run_until_complete(task)  # its error, if it failed
    finally:
        if not task.done():
            task.cancel()
            loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        loop.close()


class RayWorker:
    """One slot of the cluster: plays one batch at a time as a Ray task."""

    def __init__(self, index: int, config: TournamentConfig, concurrency: int) -> None:
        import ray

        self.name = f"ray task slot {index}"
        self.config = config
        self.concurrency = concurrency
        self._task = ray.remote(num_returns="streaming", max_retries=0, num_cpus=CPUS_PER_TASK)(
            play_batch_on_node)
        self._running: Any = None

    async def start(self) -> None:
        return None

    async def run(self, batch: Batch) -> AsyncIterator[Outcome]:
        import ray

        stream: Any = self._task.remote(self.config, self.concurrency, batch)  # an ObjectRefGenerator
        self._running = stream
        try:
            async for ref in stream:
                yield await ref
        except ray.exceptions.RayError as exc:
            raise WorkerLostError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        finally:
            self._running = None

    async def restart(self) -> None:
        return None  # the next task goes to whichever node Ray has

    async def interrupt(self) -> None:
        import ray

        if self._running is not None:
            try:
                ray.cancel(self._running, force=True)
            except Exception:  # already finished, or its node is gone: nothing left to stop
                pass

    async def close(self) -> None:
        return None
