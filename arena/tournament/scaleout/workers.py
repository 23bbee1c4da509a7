"""What the coordinator needs of a worker, local process or Ray task."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol

from arena.errors import DomainError

from ...games.game_record import GameRecord
from ...games.orders import GameOrder, GameResult, Unplayed
from .batches import Batch


class WorkerLostError(DomainError):
    """The worker died or its node was lost; the games it had not reported
    are played again elsewhere."""


class WorkerFailedError(DomainError):
    """The worker cannot play at all (e.g. a bot command cannot start); one line."""


class Worker(Protocol):
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
