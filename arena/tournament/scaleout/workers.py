"""What the coordinator needs of a worker, local process or Ray task."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from ..orders import Outcome
from .batches import Batch


class WorkerLostError(Exception):
    """The worker died or its node was lost; the games it had not reported
    are played again elsewhere."""


class WorkerFailedError(Exception):
    """The worker cannot play at all (e.g. a bot command cannot start); one line."""


class Worker(Protocol):
    name: str

    async def start(self) -> None:
        """Be ready to play. WorkerFailedError, or WorkerLostError if it dies starting."""

    def run(self, batch: Batch) -> AsyncIterator[Outcome]:
        """Play ``batch``, yielding each game's outcome as it ends.
        WorkerLostError if the worker is lost on the way."""

    async def restart(self) -> None:
        """After a loss: be ready again (a fresh process, or nothing to do)."""

    async def interrupt(self) -> None:
        """The tournament is stopping: end the games in progress."""

    async def close(self) -> None:
        """Release everything; processes are reaped."""
