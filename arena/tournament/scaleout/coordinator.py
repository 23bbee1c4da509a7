"""The coordinator's side: hand batches to workers, record what comes back,
and give a lost worker's unreported games to the others."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Protocol

from arena.errors import DomainError

from ...games.game_record import GameRecord
from ...games.orders import GameOrder, GameResult, Unplayed
from .batches import Batch

log = logging.getLogger("arena.tournament")

MAX_LOSSES = 3  # a worker lost more often than this is not started again


class WorkerLostError(DomainError):
    """The worker died or its node was lost; the games it had not reported
    are played again elsewhere."""


class WorkerFailedError(DomainError):
    """The worker cannot play at all (e.g. a bot command cannot start); one line."""


class Worker(Protocol):
    """What the coordinator needs of a worker, local process or Ray task."""

    name: str

    async def start(self) -> None:
        """Be ready to play. WorkerFailedError, or WorkerLostError if it dies starting."""

    def run(self, batch: Batch) -> AsyncIterator[GameResult]:
        """Play ``batch``, yielding each game's outcome as it ends.
        WorkerLostError if the worker is lost on the way."""

    async def interrupt(self) -> None:
        """The tournament is stopping: end the games in progress."""

    async def close(self) -> None:
        """Release everything; processes are reaped. ``start`` may follow (after a loss)."""


def check_outcome(msg: Any, orders: dict[str, GameOrder]) -> GameResult:
    """``msg`` as the outcome of one of the games in ``orders`` (which it is
    taken out of: each game is reported once); WorkerLostError if it is
    anything else. A worker runs bots, so what it sends is not trusted: a
    row for a game it was not given, or with other bots or seeds than the
    game's, would be recorded as a result."""
    if not isinstance(msg, (GameRecord, Unplayed)):
        raise WorkerLostError(f"sent {type(msg).__name__} instead of a game's outcome")
    order = orders.pop(msg.game_key, None)
    if order is None:
        raise WorkerLostError("sent the outcome of a game it was not given, or twice")
    if isinstance(msg, GameRecord):
        game = order.game
        given = (game.bot0, game.bot1, game.matchup, game.pair_index, order.seq, order.deal_seed)
        if (msg.bot0, msg.bot1, msg.matchup, msg.pair_index, msg.seq, msg.seed) != given:
            raise WorkerLostError(f"sent a row for game {game.key} that does not match the game it was given")
    return msg


class _Queue:
    """Batches waiting, and how many are out: a driver with nothing to take
    waits while others still play, since a lost batch comes back. Once none
    is waiting or out, ``more`` gives the next stage's (a Swiss round's)."""

    def __init__(self, batches: Sequence[Batch], more: Callable[[], Sequence[Batch]] | None = None,
                 wanted: Callable[[GameOrder], bool] | None = None) -> None:
        self.pending: deque[Batch] = deque(batches)
        self.out = 0
        self.closed = False
        self._more = more
        self._wanted = wanted
        self._changed = asyncio.Event()

    async def take(self) -> Batch | None:
        while True:
            if self.closed:
                return None
            if self.pending:
                batch = self.pending.popleft()
                # Asked as it goes out, as a game on one arena is before it starts.
                kept = batch if self._wanted is None else batch.only(self._wanted)
                if kept is None:
                    continue
                self.out += 1
                return kept
            if self.out == 0:
                if self._more is None:
                    return None
                self.pending.extend(self._more())
                if not self.pending:
                    self._more = None  # the format is over
                continue
            self._changed.clear()
            await self._changed.wait()

    def done(self, rest: Batch | None) -> None:
        """A batch came back; ``rest`` is what is left of it to play."""
        self.out -= 1
        if rest is not None:
            self.pending.appendleft(rest)
        self._changed.set()

    def close(self) -> None:
        self.closed = True
        self._changed.set()


async def play_on_workers(
    workers: Sequence[Worker],
    batches: Sequence[Batch],
    record: Callable[[GameResult], object],
    *,
    stopping: asyncio.Event,
    announce: Callable[[str], None] = lambda line: None,
    more: Callable[[], Sequence[Batch]] | None = None,
    wanted: Callable[[GameOrder], bool] | None = None,
) -> list[Batch]:
    """Play ``batches`` on ``workers`` until done or ``stopping`` is set; each
    outcome goes to ``record`` once. ``more`` is asked for the next stage's
    batches once every batch given has come back (its outcomes recorded);
    none ends the play. ``wanted`` is asked of each game as its batch goes
    out: the games it refuses are left unplayed (a match whose SPRT has
    decided). Returns the batches (or parts) left unplayed: none unless
    stopping, or every worker was lost for good.
    Raises ``WorkerFailedError`` if a worker cannot start at all."""
    queue = _Queue(batches, more, wanted)
    settled: set[str] = set()

    async def drive(worker: Worker) -> None:
        """Start ``worker`` and play batches on it; a worker lost while starting
        or playing is started again, up to ``MAX_LOSSES`` times."""
        losses = 0
        first = True
        while True:
            try:
                await worker.start()
                started = True
            except WorkerLostError as exc:  # it died before it was ready: as if lost playing
                started, why = False, exc
            except WorkerFailedError as exc:
                if first:
                    # It cannot play at all: the run stops, with this line alone
                    # (the closed queue keeps the other workers, stopped with
                    # it, from announcing that they will start again).
                    queue.close()
                    raise
                announce(f"{worker.name} could not start again: {exc}")
                return
            if started:
                first = False
                if not await play_until_lost(worker):
                    return
            losses += 1
            await worker.close()
            if queue.closed:
                return
            if losses > MAX_LOSSES:
                announce(f"{worker.name} lost {losses} times: not started again")
                return
            if not started:
                announce(f"{worker.name} lost while starting ({why}); starting it again")

    async def play_until_lost(worker: Worker) -> bool:
        """Play batches on ``worker`` until none is left (False) or it is lost (True)."""
        while (batch := await queue.take()) is not None:
            rest: Batch | None = None
            lost = False
            try:
                async for outcome in worker.run(batch):
                    record(outcome)
                    settled.add(outcome.game_key)
            except WorkerLostError as exc:
                lost = True
                rest = batch.only(lambda order: order.game.key not in settled)
                if not queue.closed:
                    left = 0 if rest is None else len(rest)
                    announce(f"{worker.name} lost ({exc}); its {left} unfinished game(s) will be played again")
            finally:
                queue.done(rest)
            if lost:
                return True
        return False

    async def watch() -> None:
        await stopping.wait()
        queue.close()
        await asyncio.gather(*(w.interrupt() for w in workers))

    watcher = asyncio.create_task(watch())
    finished = False
    try:
        await asyncio.gather(*(drive(w) for w in workers))
        finished = True
    finally:
        if not finished:  # a failure or a cancel (the store cannot write): running games stop now
            await asyncio.gather(*(w.interrupt() for w in workers), return_exceptions=True)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        await asyncio.gather(*(w.close() for w in workers), return_exceptions=True)
    return list(queue.pending)
