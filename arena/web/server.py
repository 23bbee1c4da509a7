"""The live page: routes, and starting it inside the arena's event loop.

Routes (nothing else is served; no path reaches the file system):

- ``/``, ``/index.html``: the report of the results database with the games
  in progress on top; it reloads itself when a game is recorded.
- ``/games/NNNNN-KEY.html``: the replay viewer of a recorded game.
- ``/live/GAME_ID``: the public view of a running game, updated every second.
- ``/api/live.json``: games recorded and games in progress.
- ``/api/game/GAME_ID.json``: the public view of a running game.
- ``/style.css``, ``/viewer.js``, ``/plotly.min.js`` (with Plotly installed), ``/live.js``, ``/live-game.js``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any

from ..report.charts import plotly_js
from ..server import Arena
from .http import HttpServer, Response, text_response
from .live import GAME_ID, game_view, running_games
from .option import split_address
from .pages import ReportPages

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
    """The routes over an arena (None: not started yet) and a results database (None: none)."""

    def __init__(self, arena: Arena | None, db: Path | None) -> None:
        self.arena = arena
        self.pages = ReportPages(db)
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
            return _json({"recorded": await self.pages.recorded_count(), "games": running_games(self.arena)})
        if path.startswith("/api/game/") and path.endswith(".json"):
            view = game_view(self.arena, path[len("/api/game/"):-len(".json")])
            return _json(view) if view is not None else _json({"error": "no such game in progress"},
                                                               HTTPStatus.NOT_FOUND)
        if path.startswith("/live/") and GAME_ID.fullmatch(path[len("/live/"):]):
            game_id = path[len("/live/"):]
            page = self.env.get_template("live_game.html.j2").render(game_id=game_id)
            return Response(HTTPStatus.OK, page.encode(), HTML)
        if path.startswith("/games/") and path.endswith(".html"):
            page_html = await self.pages.game(path[1:])
            if page_html is not None:
                return Response(HTTPStatus.OK, page_html.encode(), HTML)
        return text_response(HTTPStatus.NOT_FOUND)


@dataclass
class LiveServer:
    """A started live page; ``url`` to print, ``stop()`` to close it."""

    http: HttpServer
    url: str

    async def stop(self) -> None:
        await self.http.stop()


async def start_live(arena: Arena | None, db: Path | None, address: str) -> LiveServer:
    """Start the live page on ``address`` in the running loop. OSError if it cannot bind."""
    host, port = split_address(address)
    server = HttpServer(LiveSite(arena, db).handle)
    bound = await server.start(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
    return LiveServer(server, f"http://{shown}:{bound}/")


def live_hook(db: Path | None, address: str,
              announce: Callable[[str], None]) -> Callable[[Arena], Awaitable[Callable[[], Awaitable[None]]]]:
    """For ``run_tournament(on_arena=...)``: once the arena is up, start the
    live page, announce its URL, and hand back how to stop it."""
    async def start(arena: Arena) -> Callable[[], Awaitable[None]]:
        live = await start_live(arena, db, address)
        announce(f"live page on {live.url}")
        return live.stop
    return start


def live_main(db: Path | None, address: str,
              announce: Callable[[str], None]) -> Callable[[Arena], Awaitable[None]]:
    """For ``serve(main=...)``: the live page for as long as the arena runs."""
    async def main(arena: Arena) -> None:
        live = await start_live(arena, db, address)
        announce(f"live page on {live.url}")
        try:
            while not arena.closing:  # the arena's shutdown (a signal) ends the page too
                await asyncio.sleep(0.5)
        finally:
            await live.stop()
    return main
