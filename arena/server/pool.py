"""Connected streams, keyed by bot name, and the idle ones waiting for a game.

A game takes all its streams in one step (``acquire``), so two games that
need the same two bots in opposite seats never hold one each and deadlock.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass

from .connection import Connection


class ArenaClosed(Exception):
    """The arena is shutting down; no new game starts."""


class BotUnavailableError(Exception):
    """No idle stream of a bot within the deadline; the message says which."""


@dataclass(frozen=True, slots=True)
class BotStatus:
    name: str
    version: str
    streams: int  # connected streams
    idle: int  # of those, not playing now


class Pool:
    def __init__(self) -> None:
        self._all: dict[str, set[Connection]] = {}
        self._idle: dict[str, deque[Connection]] = {}
        self._changed = asyncio.Event()
        self.closed = False

    # -------------------------------------------------------------- membership

    def token_of(self, name: str) -> str | None:
        """The token hash of ``name``'s live streams (one owner per name), if any."""
        for c in self._all.get(name, ()):
            if c.alive:
                return c.token
        return None

    def add(self, conn: Connection) -> None:
        self._all.setdefault(conn.name, set()).add(conn)
        self._idle.setdefault(conn.name, deque()).append(conn)
        self._notify()

    def remove(self, conn: Connection) -> None:
        group = self._all.get(conn.name)
        if group is None:
            return
        group.discard(conn)
        idle = self._idle[conn.name]
        if conn in idle:
            idle.remove(conn)
        if not group:
            del self._all[conn.name], self._idle[conn.name]
        self._notify()

    def release(self, conn: Connection) -> None:
        """A game is over: the stream waits for the next one (if still open)."""
        if conn.alive and not self.closed and conn in self._all.get(conn.name, ()):
            self._idle[conn.name].append(conn)
            self._notify()

    def connections(self) -> list[Connection]:
        return [c for group in self._all.values() for c in group]

    def status(self) -> dict[str, BotStatus]:
        out = {}
        for name, group in sorted(self._all.items()):
            live = [c for c in group if c.alive]
            idle = sum(1 for c in self._idle[name] if c.alive)
            version = live[0].version if live else ""
            out[name] = BotStatus(name, version, len(live), idle)
        return out

    # --------------------------------------------------------------- acquiring

    async def acquire(self, names: Sequence[str], timeout: float) -> list[Connection]:
        """One idle stream per entry of ``names`` (a name twice needs two streams),
        in order; waits up to ``timeout`` seconds for all of them at once."""
        need = Counter(names)
        try:
            async with asyncio.timeout(timeout):
                while not self.closed and not self._ready(need):
                    await self._changed.wait()
        except TimeoutError:
            raise BotUnavailableError(self._why_unavailable(need, timeout)) from None
        if self.closed:
            raise ArenaClosed("the arena is shutting down")
        return [self._idle[n].popleft() for n in names]

    def close(self) -> None:
        self.closed = True
        self._notify()

    def _ready(self, need: Counter[str]) -> bool:
        for name, count in need.items():
            idle = self._idle.get(name)
            if idle is None:
                return False
            if not all(c.alive for c in idle):  # streams that died while idle
                idle = self._idle[name] = deque(c for c in idle if c.alive)
            if len(idle) < count:
                return False
        return True

    def _why_unavailable(self, need: Counter[str], timeout: float) -> str:
        parts = []
        for name, count in need.items():
            live = sum(1 for c in self._all.get(name, ()) if c.alive)
            if live == 0:
                parts.append(f"{name!r} is not connected")
            else:
                parts.append(f"{name!r} has {live} stream(s), {count} needed idle")
        return f"no idle streams within {timeout:g} s: {'; '.join(parts)}"

    def _notify(self) -> None:
        # Wake every waiter; each re-checks its own need.
        self._changed.set()
        self._changed = asyncio.Event()
