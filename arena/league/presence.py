"""Which bots of a league game can play: the league's ``Presence`` for the
games layer's one play path (``arena.games.playing``).

A league launches no bot, so nothing is revived and no CPU is counted. A
bot can play a game when it has a free stream for each seat of its team;
one that has none (not connected, or every stream busy elsewhere) for the
game's whole ``forfeit_seconds`` wait, counted from the game's start,
forfeits it."""

from __future__ import annotations

import time

from ..games.cpu import CpuLedger
from ..games.forfeits import Forfeit, ForfeitCause
from ..server import Arena, PlayedGame


class ConnectedBots:
    """The presence of the bots of one league game; make one per game."""

    def __init__(self, arena: Arena, streams: int, wait: float) -> None:
        self.arena, self.streams, self.wait = arena, streams, wait
        self._since = time.monotonic()

    async def revive(self, names: tuple[str, ...]) -> None:
        return None

    def forfeit(self, name: str) -> Forfeit | None:
        status = self.arena.bots().get(name)
        if status is not None and status.idle >= self.streams:
            return None
        if time.monotonic() - self._since < self.wait:
            return None
        what = "was not connected" if status is None else "kept no stream free for the game"
        return Forfeit(name, ForfeitCause.ABSENT, f"{what} within {self.wait:g} s")

    async def explain(self, rec: PlayedGame) -> str:
        return rec.reason

    def ledger(self, name: str) -> CpuLedger | None:
        return None

    def exit_status(self, name: str) -> int | None:
        return None  # a league's bots connect by themselves: no process of theirs is the arena's to see

    def version(self, name: str) -> str:
        status = self.arena.bots().get(name)
        return "" if status is None else status.version
