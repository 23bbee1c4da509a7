"""Connected streams, keyed by bot name, and the idle ones waiting for a game.

A game takes all its streams in one step (``acquire``), so two games that
need the same two bots in opposite seats never hold one each and deadlock.

With ``distinct_peers`` the streams a game takes for one bot name all come
from different gRPC connections (``Connection.peer``, one per channel: the
SDK opens one channel per process). Partners of a team game are then never two
streams of one process, which could share their hands (docs/protocol.md,
"Team games").
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import DomainError

from .connection import Connection


class ArenaClosedError(DomainError):
    """The arena is shutting down; no new game starts."""


class BotUnavailableError(DomainError):
    """No idle stream of a bot within the deadline; the message says which."""


@dataclass(frozen=True, slots=True)
class BotStatus:
    name: str
    version: str
    streams: int
    """Connected streams."""
    idle: int
    """Of those, not playing now."""


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

    async def acquire(self, names: Sequence[str], timeout: float, *, distinct_peers: bool = False) -> list[Connection]:
        """One idle stream per entry of ``names`` (a name twice needs two streams),
        in order; waits up to ``timeout`` seconds for all of them at once. With
        ``distinct_peers`` the streams of one name come from different peers."""
        need = Counter(names)
        try:
            async with asyncio.timeout(timeout):
                while not self.closed and not self._ready(need, distinct_peers):
                    await self._changed.wait()
        except TimeoutError:
            raise BotUnavailableError(self._why_unavailable(need, timeout, distinct_peers)) from None
        if self.closed:
            raise ArenaClosedError("the arena is shutting down")
        if not distinct_peers:
            return [self._idle[n].popleft() for n in names]
        picked = {name: self._take_distinct(name, count) for name, count in need.items()}
        return [picked[n].pop(0) for n in names]

    def _take_distinct(self, name: str, count: int) -> list[Connection]:
        """Take ``count`` idle streams of ``name`` from different peers, oldest idle first."""
        idle = self._idle[name]
        taken: list[Connection] = []
        peers: set[str] = set()
        for conn in list(idle):
            if len(taken) == count:
                break
            if conn.peer not in peers:
                peers.add(conn.peer)
                taken.append(conn)
                idle.remove(conn)
        return taken

    def peers_of(self, name: str) -> int:
        """How many different peers hold a live stream of ``name``."""
        return len({c.peer for c in self._all.get(name, ()) if c.alive})

    def close(self) -> None:
        self.closed = True
        self._notify()

    def _ready(self, need: Counter[str], distinct_peers: bool) -> bool:
        for name, count in need.items():
            idle = self._idle.get(name)
            if idle is None:
                return False
            if not all(c.alive for c in idle):  # streams that died while idle
                idle = self._idle[name] = deque(c for c in idle if c.alive)
            available = len({c.peer for c in idle}) if distinct_peers else len(idle)
            if available < count:
                return False
        return True

    def _why_unavailable(self, need: Counter[str], timeout: float, distinct_peers: bool) -> str:
        parts = []
        for name, count in need.items():
            live = sum(1 for c in self._all.get(name, ()) if c.alive)
            if live == 0:
                parts.append(f"{name!r} is not connected")
            elif distinct_peers:
                parts.append(f"{name!r} has {live} stream(s) from {self.peers_of(name)} peer(s), "
                             f"{count} needed idle from different peers")
            else:
                parts.append(f"{name!r} has {live} stream(s), {count} needed idle")
        return f"no idle streams within {timeout:g} s: {'; '.join(parts)}"

    def _notify(self) -> None:
        # Wake every waiter; each re-checks its own need.
        self._changed.set()
        self._changed = asyncio.Event()
