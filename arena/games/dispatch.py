"""Which game a free worker plays next.

Games go out in an order derived from the tournament secret, so when a game
runs says nothing about which deal it has. The second game of a duplicate
pair waits until the first has ended: a bot never plays both seats of one
deal at the same moment, where it could read its twin's cards.

A format with stages (``scheduler.Stages``, e.g. a Swiss round after round)
gives ``more``: asked once every game handed out has ended, for the games
of the next stage; none left ends the dispatch.
"""

from __future__ import annotations

import asyncio
import heapq
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol

from .schedule import ScheduledGame
from .scheduler import Item


class Ranking(Protocol):
    """Where a game comes in the order games go out: the tournament secret
    itself, or (in a worker, which never holds it) the ranks it derived."""

    def order(self, game_key: str) -> int: ...


class Dispatcher:
    def __init__(self, todo: Iterable[Item], recorded: set[str], secret: Ranking,
                 more: Callable[[], list[Item]] | None = None) -> None:
        self._secret, self._recorded, self._more = secret, recorded, more
        self._ready: list[tuple[int, int, ScheduledGame]] = []  # heap of second halves whose first has ended
        self._blocked: dict[str, Item] = {}  # first half's key -> its second half
        self._free: deque[Item] = deque()
        self._add(todo)
        self._running = 0
        self._changed = asyncio.Event()
        self._closed = False

    def _add(self, todo: Iterable[Item]) -> bool:
        """Take in ``todo``; whether it held any game."""
        free: list[Item] = []
        todo = list(todo)
        for seq, game in todo:
            if game.after is None:
                free.append((seq, game))
            elif game.after in self._recorded:
                heapq.heappush(self._ready, (self._secret.order(game.key), seq, game))
            else:
                self._blocked[game.after] = (seq, game)
        free.sort(key=lambda item: self._secret.order(item[1].key))
        self._free.extend(free)
        return bool(todo)

    async def next(self) -> Item | None:
        """The next game to play; None when there is none left or after ``close``."""
        while True:
            if self._closed:
                return None
            if self._free or self._ready:
                self._running += 1
                return self._free.popleft() if self._free else heapq.heappop(self._ready)[1:]
            if not self._blocked and self._more is not None and not self._running:
                if not self._add(self._more()):
                    self._more = None  # the format is over
                continue
            if not self._blocked and self._more is None:
                return None
            # Left: second halves whose first halves are running, or a next stage once they have ended.
            self._changed.clear()
            await self._changed.wait()

    def finished(self, game: ScheduledGame, recorded: bool) -> None:
        """``game`` has ended (recorded or not): its second half may start."""
        self._running -= 1
        second = self._blocked.pop(game.key, None)
        if second is not None:
            seq, twin = second
            heapq.heappush(self._ready, (self._secret.order(twin.key), seq, twin))
        self._changed.set()

    def close(self) -> None:
        """Hand out nothing more (the tournament is stopping)."""
        self._closed = True
        self._changed.set()
