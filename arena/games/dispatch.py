"""Which game a free worker plays next.

Games go out in an order derived from the tournament secret, so when a game
runs says nothing about which deal it has. The second game of a duplicate
pair waits until the first has ended: a bot never plays both seats of one
deal at the same moment, where it could read its twin's cards.
"""

from __future__ import annotations

import asyncio
import heapq
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from .schedule import ScheduledGame

Item = tuple[int, ScheduledGame]  # (position in the schedule, game)


class Ranking(Protocol):
    """Where a game comes in the order games go out: the tournament secret
    itself, or (in a worker, which never holds it) the ranks it derived."""

    def order(self, game_key: str) -> int: ...


class Dispatcher:
    def __init__(self, todo: Iterable[Item], recorded: set[str], secret: Ranking) -> None:
        self._secret = secret
        free: list[Item] = []
        self._ready: list[tuple[int, int, ScheduledGame]] = []  # heap of second halves whose first has ended
        self._blocked: dict[str, Item] = {}  # first half's key -> its second half
        for seq, game in todo:
            if game.after is None:
                free.append((seq, game))
            elif game.after in recorded:
                heapq.heappush(self._ready, (secret.order(game.key), seq, game))
            else:
                self._blocked[game.after] = (seq, game)
        free.sort(key=lambda item: secret.order(item[1].key))
        self._free = deque(free)
        self._changed = asyncio.Event()
        self._closed = False

    async def next(self) -> Item | None:
        """The next game to play; None when there is none left or after ``close``."""
        while True:
            if self._closed:
                return None
            if self._free:
                return self._free.popleft()
            if self._ready:
                _, seq, game = heapq.heappop(self._ready)
                return seq, game
            if not self._blocked:
                return None
            # Only second halves are left, and their first halves are running.
            self._changed.clear()
            await self._changed.wait()

    def finished(self, game: ScheduledGame, recorded: bool) -> None:
        """``game`` has ended (recorded or not): its second half may start."""
        second = self._blocked.pop(game.key, None)
        if second is not None:
            seq, twin = second
            heapq.heappush(self._ready, (self._secret.order(twin.key), seq, twin))
        self._changed.set()

    def close(self) -> None:
        """Hand out nothing more (the tournament is stopping)."""
        self._closed = True
        self._changed.set()
