"""What the live page knows of the arena: a snapshot the arena publishes.

The page runs in a thread of its own (``server.start_live``), never in the
arena's event loop, and it never touches the arena's objects: twice a second
a task on the arena's loop builds a ``LiveState`` (the games in progress, and
the public view of each game a page asked about recently) and swaps it in
with one assignment. A page request reads the latest state, however many
requests come: the arena's cost is the same at one reader as at a thousand.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..server import Arena
from .live import GAME_ID, game_view, running_games

PUBLISH_PERIOD = 0.5  # seconds between two snapshots
WATCH_SECONDS = 10.0  # a game's view is published this long after a page last asked for it
MAX_WATCHED = 16  # views published at once, at most


@dataclass(frozen=True)
class LiveState:
    games: list[dict[str, Any]] = field(default_factory=list)  # running_games()
    views: dict[str, dict[str, Any]] = field(default_factory=dict)  # game id -> game_view()
    finished: bool = False  # the arena has stopped: nothing more will change
    at: float = 0.0  # Unix time of the snapshot


class LivePublisher:
    """Publishes ``state`` from the arena's loop; read it from any thread."""

    def __init__(self, arena: Arena | None) -> None:
        self.arena = arena
        self.state = LiveState(finished=arena is None, at=time.time())
        self._wanted: dict[str, float] = {}  # game id -> monotonic time a page last asked
        self._lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start publishing (call on the arena's loop)."""
        self.publish()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="live-publisher")

    async def stop(self) -> None:
        """Publish a last, finished state and stop."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        self.state = LiveState(finished=True, at=time.time())

    def want(self, game_id: str) -> None:
        """A page asked for ``game_id``: publish its view for a while (any thread)."""
        if not GAME_ID.fullmatch(game_id):
            return
        with self._lock:
            if game_id in self._wanted or len(self._wanted) < MAX_WATCHED:
                self._wanted[game_id] = time.monotonic()

    def publish(self) -> None:
        arena = self.arena
        if arena is None:
            return
        now = time.monotonic()
        with self._lock:
            self._wanted = {g: t for g, t in self._wanted.items() if now - t <= WATCH_SECONDS}
            wanted = list(self._wanted)
        views = {g: v for g in wanted if (v := game_view(arena, g)) is not None}
        self.state = LiveState(running_games(arena), views, arena.closing, time.time())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PUBLISH_PERIOD)
            self.publish()
            if self.arena is not None and self.arena.closing:
                self.state = LiveState(self.state.games, self.state.views, True, time.time())
