"""Crashes of launched bots counted by the coordinator for the whole run.

Each worker runs its own copies of the bots, so a restart limit counted in
each worker would grow with the number of workers (and so would the games
a crashing bot plays before it forfeits). Instead a worker asks here before
it starts a crashed bot again (a ``Crash`` frame, answered by a
``CrashAnswer``): the bot may be restarted ``max_restarts`` times in the whole
run, as on a single arena, and once it is given up every worker is told,
so it forfeits its remaining games everywhere."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from .frames import printable

log = logging.getLogger("arena.tournament")

MAX_RESTARTS = 3  # the same limit as on a single arena (Supervisor)


class CrashLedger:
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
