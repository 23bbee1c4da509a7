"""The live page: started beside the arena, served by a process of its own.

The page never runs in the arena's process: the arena publishes a snapshot
of its running games twice a second (``publisher.py``) and sends it down a
pipe to the page's process (``page_process.py``, ``page_main.py``), which
serves the routes of ``site.py`` from the latest snapshot and the results
database (read-only, at most one read every 2 s however many requests
come). Connections are capped and every read, page and write has a
deadline (``http.py``). The arena never waits for the page: a snapshot the
page has not taken yet is replaced by the next one.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..games.playing import GamesInProgress
from .option import split_address
from .page_process import PageProcess
from .publisher import LivePublisher
from .site import LiveSite

__all__ = ["LiveHook", "LiveServer", "LiveSite", "live_hook", "start_live"]


class LiveServer:
    """A live page served by a process of its own; ``url`` to print,
    ``finish()`` once the arena has stopped (the page stays, saying so),
    ``stop()`` or ``close()`` to end it."""

    def __init__(self, publisher: LivePublisher, db: Path | None, login: str | None = None) -> None:
        self.publisher = publisher
        self.page = PageProcess(db, publisher.want, login)
        publisher.sink = self.page.offer
        self.url = ""

    def start(self, address: str) -> None:
        """Bind ``address`` and start the page's process (blocking). OSError if it cannot bind."""
        host, port = split_address(address)
        bound = self.page.start(host, port)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
        self.url = f"http://{shown}:{bound}/"

    async def finish(self) -> None:
        """The arena has stopped: publish that, keep serving."""
        await self.publisher.stop()

    async def stop(self) -> None:
        await self.finish()
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Stop serving: the page's process ends (blocking)."""
        self.page.close()


async def start_live(arena: GamesInProgress | None, db: Path | None, address: str, login: str | None = None) -> LiveServer:
    """Start publishing ``arena``'s games (on the running loop) and the live
    page on ``address`` (its own process); with ``login`` (``http.login_digest``)
    only that user sees it. OSError if it cannot bind or the page does not start."""
    publisher = LivePublisher(arena)
    live = LiveServer(publisher, db, login)
    await asyncio.to_thread(live.start, address)
    publisher.start()
    return live


class LiveHook:
    """For ``run_tournament(on_arena=...)``: once the arena is up, start the
    live page and announce its URL; when the run ends the page says
    "finished" and stays up until ``linger`` (see ``wait_and_close``)."""

    def __init__(self, db: Path | None, address: str, announce: Callable[[str], None]) -> None:
        self.db, self.address, self.announce = db, address, announce
        self.live: LiveServer | None = None

    async def __call__(self, arena: GamesInProgress) -> Callable[[], Awaitable[None]]:
        self.live = await start_live(arena, self.db, self.address)
        self.announce(f"live page on {self.live.url}")
        return self.live.finish

    def wait_and_close(self, linger: float | None) -> None:
        """Keep the finished page up for ``linger`` seconds (None: until
        Ctrl-C or SIGTERM), then close it."""
        live = self.live
        if live is None:
            return
        try:
            if linger is None or linger > 0:
                how = "until Ctrl-C" if linger is None else f"for {linger:g} s (or until Ctrl-C)"
                _wait(linger, lambda: self.announce(f"live page on {live.url}: finished; still serving it {how}"))
        finally:
            live.close()


def _wait(seconds: float | None, started: Callable[[], None]) -> None:
    """Call ``started``, then sleep ``seconds`` (None: forever) or until
    SIGINT/SIGTERM. The handlers are in place before ``started`` announces
    the wait: a Ctrl-C right after the announcement ends the wait, not the
    run (which would exit non-zero though everything was recorded)."""
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        started()
        stop.wait(seconds)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def live_hook(db: Path | None, address: str, announce: Callable[[str], None]) -> LiveHook:
    return LiveHook(db, address, announce)
