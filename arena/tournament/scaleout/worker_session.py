"""What a worker runs: its own arena on loopback, its own copies of the
tournament's launched bots, and the games of the batches it is given.

The same class serves a local worker process (``worker.py``) and a Ray task
(``ray_backend.py``). It never holds the tournament secret: every game comes
with its seeds already derived (``GameOrder``)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

from ...games.dispatch import Dispatcher
from ...games.orders import GameOrder, GameResult, Unplayed
from ...games.playing import play_dispatched
from ...sandbox import Sandbox
from ...server import Arena
from ..config import TournamentConfig
from ..formats.round_robin import RoundRobin
from ..scale import ScaleOut
from ..supervisor import CrashGate, Supervisor, open_sandbox
from .batches import Batch

LOOPBACK = "127.0.0.1:0"


def worker_config(config: TournamentConfig) -> TournamentConfig:
    """The config a worker plays with: its launched bots only, on a plain
    loopback arena of its own (no TLS, no token file: nothing else dials in),
    without what only the coordinator uses (a match plan,
    how the games are spread)."""
    return dataclasses.replace(
        config, bots=tuple(b for b in config.bots if b.command is not None),
        address=LOOPBACK, tokens=None, tls_cert=None, tls_key=None, format=RoundRobin(), scale=ScaleOut(),
    )


class _Ranks:
    """The order of the batch's games, as the coordinator derived it from the secret."""

    def __init__(self, orders: dict[str, GameOrder]) -> None:
        self._orders = orders

    def order(self, game_key: str) -> int:
        return self._orders[game_key].rank


class WorkerSession:
    def __init__(self, config: TournamentConfig, log_dir: Path, concurrency: int,
                 crash_gate: CrashGate | None = None) -> None:
        self.config = worker_config(config)
        self.log_dir = log_dir
        self.concurrency = max(1, concurrency)
        self.crash_gate = crash_gate  # the coordinator's word on each crash; None: counted here
        self.arena = Arena(None)
        self.bots: Supervisor | None = None
        self.sandbox: Sandbox | None = None

    async def start(self) -> None:
        """Start the arena and launch the bots, each in its sandbox unless the
        config says ``sandbox = "none"``; every bot must say hello within
        ``start_seconds`` (BotStartFailedError otherwise)."""
        self.sandbox = open_sandbox(self.config)
        port = await self.arena.start(LOOPBACK, unix_socket=self.sandbox.socket if self.sandbox else None)
        if self.sandbox is not None:
            self.sandbox.socket_ready()
        self.bots = Supervisor(self.arena, self.config, f"127.0.0.1:{port}", self.concurrency, self.log_dir,
                               sandbox=self.sandbox, crash_gate=self.crash_gate)
        await self.bots.start()

    async def give_up(self, bot: str, why: str) -> None:
        """The coordinator gave ``bot`` up: it forfeits its games here too."""
        if self.bots is not None:
            await self.bots.give_up(bot, why)

    async def play(self, batch: Batch, emit: Callable[[GameResult], None]) -> None:
        """Play every game of ``batch``, ``concurrency`` at once, and ``emit``
        each outcome as its game ends. Games go out as on a single arena
        (``Dispatcher``): in the tournament's order, a pair's second half
        only after its first has ended, and not necessarily next. Returns
        early, without error, once the arena is stopping (``stop``): games
        cut short are emitted as ``Unplayed``, games not begun are not
        emitted at all."""
        assert self.bots is not None
        orders = {o.game.key: o for unit in batch.units for o in unit}
        # A second half sent without its first: the first is settled already.
        settled = {o.game.after for o in orders.values() if o.game.after is not None and o.game.after not in orders}
        dispatcher = Dispatcher(((o.seq, o.game) for o in orders.values()), settled, _Ranks(orders))

        def record(outcome: GameResult) -> bool:
            emit(outcome)
            return not isinstance(outcome, Unplayed)

        await asyncio.gather(*(
            play_dispatched(dispatcher, self.arena, self.bots, self.config.play_settings,
                            lambda seq, game: orders[game.key], record)
            for _ in range(min(self.concurrency, len(orders)))))

    def interrupt(self) -> None:
        """Stop from a signal handler: running games end as interrupted."""
        asyncio.ensure_future(self.arena.stop(grace=0))

    async def stop(self) -> None:
        await self.arena.stop(grace=0)
        if self.bots is not None:
            await self.bots.stop()
        if self.sandbox is not None:
            self.sandbox.close()
