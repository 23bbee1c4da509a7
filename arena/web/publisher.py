"""What the live page knows of the arena: a snapshot the arena publishes.

The page runs in a process of its own (``page_process.py``), and it never
touches the arena's objects: twice a second a task on the arena's loop
builds a ``LiveState`` (the games in progress, and the public view of up to
``MAX_WATCHED`` of them, those a page asked about recently first), swaps it
in with one assignment and hands it to ``sink`` (which sends it to the
page's process without waiting). A page request reads the latest state,
however many requests come: the arena's cost is the same at one reader as
at a thousand.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..games.playing import GamesInProgress
from .live_games import GAME_ID, game_view, running_games
from .snapshot import LiveState

__all__ = ["LivePublisher", "LiveState"]

log = logging.getLogger("arena.web")
PUBLISH_PERIOD = 0.5  # seconds between two snapshots
WATCH_SECONDS = 10.0  # a game's view is published this long after a page last asked for it
MAX_WATCHED = 16  # views published at once, at most


class LivePublisher:
    """Publishes ``state`` from the arena's loop; read it from any thread."""

    def __init__(self, arena: GamesInProgress | None, sink: Callable[[LiveState], None] | None = None) -> None:
        self.arena = arena
        self.sink = sink  # called with every new state, on the thread that made it; must not block
        self._state = LiveState(finished=arena is None, at=time.time())
        self._wanted: dict[str, float] = {}  # game id -> monotonic time a page last asked
        self._lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def state(self) -> LiveState:
        return self._state

    @state.setter
    def state(self, state: LiveState) -> None:
        self._state = state
        if self.sink is not None:
            self.sink(state)

    def start(self) -> None:
        """Start publishing (call on the arena's loop)."""
        self._loop = asyncio.get_running_loop()
        self.publish()
        self._task = self._loop.create_task(self._run(), name="live-publisher")

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
        state = self.state
        with self._lock:
            new = game_id not in self._wanted
            if not new or len(self._wanted) < MAX_WATCHED:
                self._wanted[game_id] = time.monotonic()
        running = any(g["id"] == game_id for g in state.games)
        if new and running and game_id not in state.views and self._loop is not None and not state.finished:
            # A running game without a view yet: publish now rather than in up to half a second.
            # (Only for games that run, so requests for made-up ids cost the arena nothing.)
            try:
                self._loop.call_soon_threadsafe(self.publish)
            except RuntimeError:  # the arena's loop is closed: nothing more to publish
                pass

    def publish(self) -> None:
        arena = self.arena
        if arena is None:
            return
        now = time.monotonic()
        with self._lock:
            self._wanted = {g: t for g, t in self._wanted.items() if now - t <= WATCH_SECONDS}
            wanted = list(self._wanted)
        games = running_games(arena)
        # The games pages asked about first, then the others, up to the cap.
        watched = [*wanted, *(g["id"] for g in games if g["id"] not in self._wanted)][:MAX_WATCHED]
        views: dict[str, dict[str, Any]] = {}
        for game_id in watched:
            try:
                view = game_view(arena, game_id)
            except Exception:  # a bug in one view must not freeze the page: the others go on
                log.exception("live view of game %s failed", game_id)
                continue
            if view is not None:
                views[game_id] = view
        self.state = LiveState(games, views, arena.closing, time.time())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PUBLISH_PERIOD)
            try:
                self.publish()
            except Exception:  # the page shows the last snapshot; the next one may work
                log.exception("publishing the live page's snapshot failed")
            if self.arena is not None and self.arena.closing:
                self.state = LiveState(self.state.games, self.state.views, True, time.time())
