"""CPU seconds a launched bot spent on each game, from its sandbox's control
groups.

A bot process may play several games at once, and the kernel counts its CPU
time only as a whole. So the time is handed out as it is spent: at every
start and end of one of the bot's games, the CPU used since the last such
moment is split equally among the games it had running meanwhile. With one
game at a time this is exact; with several, each game's figure is its fair
share, and the figures add up to the bot's whole CPU time."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..sandbox import Box


class CpuLedger:
    """The CPU of one bot's processes (``boxes()``), charged to its running games."""

    def __init__(self, boxes: Callable[[], list[Box]]) -> None:
        self._boxes = boxes
        self._seen: dict[int, float] = {}  # box id -> its CPU seconds at the last charge
        self._games: dict[int, float] = {}  # ticket -> CPU seconds charged so far
        self._tickets = itertools.count()
        self.measured = True

    def _charge(self) -> None:
        spent = 0.0
        seen: dict[int, float] = {}
        for box in self._boxes():
            now = box.cpu_seconds()
            if now is None:
                self.measured = False
                continue
            # A box first seen now (a restarted process) is charged from zero:
            # everything it ever ran was during this bot's games.
            spent += max(0.0, now - self._seen.get(id(box), 0.0))
            seen[id(box)] = now
        self._seen = seen
        if self._games:
            share = spent / len(self._games)
            for ticket in self._games:
                self._games[ticket] += share

    def start(self) -> int:
        """A game of this bot begins; the ticket ends it."""
        self._charge()
        ticket = next(self._tickets)
        self._games[ticket] = 0.0
        return ticket

    def end(self, ticket: int) -> float | None:
        """The CPU seconds charged to the game of ``ticket``; None if unmeasured."""
        self._charge()
        charged = self._games.pop(ticket, 0.0)
        return charged if self.measured and self._seen else None
