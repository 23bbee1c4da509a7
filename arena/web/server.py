"""The live page: routes, and running it in a thread of its own.

The page never runs in the arena's event loop and never touches the arena's
objects: it reads the snapshot the arena publishes twice a second
(``publisher.py``) and the results database (read-only, at most one read
per second however many requests come, ``pages.py``). Connections are
capped and every read and write has a deadline (``http.py``).

Routes (nothing else is served; no path reaches the file system):

- ``/``, ``/index.html``: the report of the results database with the games
  in progress and the latest results on top, which update in place.
- ``/games/NNNNN-KEY.html``: the replay viewer of a recorded game.
- ``/live/GAME_ID``: the public view of a running game, updated every second.
- ``/api/live.json``: games recorded, the latest results, games in progress,
  and whether the run has finished.
- ``/api/game/GAME_ID.json``: the public view of a running game.
- ``/style.css``, ``/viewer.js``, ``/plotly.min.js`` (with Plotly installed), ``/live.js``, ``/live-game.js``.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any

from ..report.charts import plotly_js
from ..server import Arena
from .http import HttpServer, Response, text_response
from .live import GAME_ID
from .option import split_address
from .pages import ReportPages
from .publisher import LivePublisher, LiveState

HTML = "text/html; charset=utf-8"
JS = "text/javascript; charset=utf-8"
STATIC_CACHE = "max-age=3600"


def _static() -> dict[str, Response]:
    report = resources.files("arena.report").joinpath("static")
    web = resources.files("arena.web").joinpath("static")
    static = {
        "/style.css": Response(HTTPStatus.OK, report.joinpath("style.css").read_bytes(),
                               "text/css; charset=utf-8", STATIC_CACHE),
        "/viewer.js": Response(HTTPStatus.OK, report.joinpath("viewer.js").read_bytes(), JS, STATIC_CACHE),
        "/live.js": Response(HTTPStatus.OK, web.joinpath("live.js").read_bytes(), JS, STATIC_CACHE),
        "/live-game.js": Response(HTTPStatus.OK, web.joinpath("live-game.js").read_bytes(), JS, STATIC_CACHE),
    }
    js = plotly_js()
    if js is not None:  # without Plotly the pages carry no charts and do not ask for it
        static["/plotly.min.js"] = Response(HTTPStatus.OK, js.encode(), JS, STATIC_CACHE)
    return static


def _json(value: Any, status: HTTPStatus = HTTPStatus.OK) -> Response:
    return Response(status, json.dumps(value, separators=(",", ":")).encode(), "application/json")


class LiveSite:
    """The routes over an arena's published snapshot (None: no arena) and a
    results database (None: none)."""

    def __init__(self, source: LivePublisher | None, db: Path | None) -> None:
        self.source = source or LivePublisher(None)
        self.pages = ReportPages(db)
        self._live_json: tuple[LiveState, list[dict[str, Any]], int | None, Response] | None = None
        self.static = _static()
        self.env = self.pages.env

    async def handle(self, path: str) -> Response:
        if path in ("/", "/index.html"):
            return Response(HTTPStatus.OK, (await self.pages.index()).encode(), HTML)
        if path in self.static:
            return self.static[path]
        if path == "/favicon.ico":  # browsers ask for it; there is none
            return Response(HTTPStatus.NO_CONTENT, b"")
        if path == "/api/live.json":
            state = self.source.state
            recorded, latest = await self.pages.latest()
            cached = self._live_json
            if cached is None or cached[0] is not state or cached[1] is not latest or cached[2] != recorded:
                # Encoded once per snapshot, however many clients poll.
                cached = self._live_json = (state, latest, recorded, _json(
                    {"recorded": recorded, "latest": latest, "games": state.games, "finished": state.finished}))
            return cached[3]
        if path.startswith("/api/game/") and path.endswith(".json"):
            game_id = path[len("/api/game/"):-len(".json")]
            state = self.source.state
            self.source.want(game_id)
            view = state.views.get(game_id)
            if view is not None:
                return _json(view)
            if any(g["id"] == game_id for g in state.games):  # running: its view comes with the next snapshot
                return _json({"id": game_id, "pending": True})
            return _json({"error": "no such game in progress"}, HTTPStatus.NOT_FOUND)
        if path.startswith("/live/") and GAME_ID.fullmatch(path[len("/live/"):]):
            game_id = path[len("/live/"):]
            page = self.env.get_template("live_game.html.j2").render(game_id=game_id)
            return Response(HTTPStatus.OK, page.encode(), HTML)
        if path.startswith("/games/") and path.endswith(".html"):
            page_html = await self.pages.game(path[1:])
            if page_html is not None:
                return Response(HTTPStatus.OK, page_html.encode(), HTML)
        return text_response(HTTPStatus.NOT_FOUND)


class LiveServer:
    """A live page served from its own thread and event loop; ``url`` to
    print, ``finish()`` once the arena has stopped (the page stays, saying
    so), ``stop()`` to close it."""

    def __init__(self, publisher: LivePublisher, db: Path | None) -> None:
        self.publisher = publisher
        self.site = LiveSite(publisher, db)
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._http = HttpServer(self.site.handle)
        self._thread = threading.Thread(target=self._loop.run_forever, name="live-page", daemon=True)

    def start(self, address: str) -> None:
        """Listen on ``address`` in the page's thread. OSError if it cannot bind."""
        host, port = split_address(address)
        self._thread.start()
        try:
            bound = asyncio.run_coroutine_threadsafe(self._http.start(host, port), self._loop).result(30)
        except BaseException:
            self._close_loop()
            raise
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
        self.url = f"http://{shown}:{bound}/"

    async def finish(self) -> None:
        """The arena has stopped: publish that, keep serving."""
        await self.publisher.stop()

    async def stop(self) -> None:
        await self.finish()
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Stop serving (blocking; any thread but the page's)."""
        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(self._http.stop(), self._loop).result(30)
            except (TimeoutError, RuntimeError):
                pass
        self._close_loop()

    def _close_loop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(30)
        if not self._loop.is_running():
            self._loop.close()


async def start_live(arena: Arena | None, db: Path | None, address: str) -> LiveServer:
    """Start publishing ``arena``'s games (on the running loop) and the live
    page on ``address`` (its own thread). OSError if it cannot bind."""
    publisher = LivePublisher(arena)
    live = LiveServer(publisher, db)
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

    async def __call__(self, arena: Arena) -> Callable[[], Awaitable[None]]:
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
                self.announce(f"live page on {live.url}: finished; still serving it {how}")
                _wait(linger)
        finally:
            live.close()


def _wait(seconds: float | None) -> None:
    """Sleep ``seconds`` (None: forever) or until SIGINT/SIGTERM."""
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        stop.wait(seconds)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def live_hook(db: Path | None, address: str, announce: Callable[[str], None]) -> LiveHook:
    return LiveHook(db, address, announce)
