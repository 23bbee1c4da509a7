"""Stopping a tournament on a signal: no new game starts, running games end
as interrupted and are recorded as such, and the process exits 128 + the
signal number (130 for Ctrl-C, 143 for SIGTERM), the shell's convention."""

from __future__ import annotations

import asyncio
import signal

from arena.errors import ArenaError


class TournamentInterruptedError(ArenaError):
    def __init__(self, signum: int, played: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name} after {played} game(s) this run")
        self.signum = signum
        self.played = played
        self.exit_code = 128 + signum  # the shell's convention for a process a signal stopped


class StopRequest:
    """Set once by a signal handler (or a test); the runner waits on it."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._event: asyncio.Event | None = None

    def request(self, signum: int = signal.SIGINT) -> None:
        if self.signal is None:
            self.signal = signum
        self._get_event().set()

    async def wait(self) -> None:
        await self._get_event().wait()

    def _get_event(self) -> asyncio.Event:
        # Created on first use, inside the running loop.
        if self._event is None:
            self._event = asyncio.Event()
            if self.signal is not None:
                self._event.set()
        return self._event
