"""The live page's routes, served by its own process (``page_main.py``).

Routes (nothing else is served; no path reaches the file system):

- ``/``, ``/index.html``: the report of the results database with the games
  in progress and the latest results on top, which update in place.
- ``/games/NNNNN-KEY.html``: the replay viewer of a recorded game.
- ``/live/GAME_ID``: the public view of a running game, updated every second.
- ``/api/live.json``: games recorded, the latest results, games in progress,
  and whether the run has finished.
- ``/api/game/GAME_ID.json``: the public view of a running game.
- ``/style.css``, ``/viewer.js``, ``/plotly.min.js`` (with Plotly installed), ``/live.js``, ``/live-game.js``.

What the arena is doing comes from a ``LiveSource``: the latest state it
published, and a way to ask it for a game's view. The results database is
read through ``ReportPages`` (read-only, at most once every 2 s).
"""

from __future__ import annotations

import json
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from ..report.charts import plotly_js
from .http import Response, text_response
from .live_games import GAME_ID
from .pages import ReportPages
from .snapshot import LiveState


class LiveSource(Protocol):
    """What the page knows of the arena."""

    @property
    def state(self) -> LiveState: ...

    def want(self, game_id: str) -> None:
        """A page asked for the view of ``game_id``: publish it for a while."""


class NoArena:
    """The source of a page without an arena: nothing runs, nothing will."""

    state = LiveState(finished=True)

    def want(self, game_id: str) -> None:
        pass


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

    def __init__(self, source: LiveSource | None, db: Path | None) -> None:
        self.source: LiveSource = source or NoArena()
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
