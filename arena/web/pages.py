"""The report's pages, rendered on demand from the results database.

The database is opened read-only (``ResultsStore.open_existing``), in a
worker thread of the page's own loop, and read at most once every
``SNAPSHOT_MAX_AGE`` seconds however many requests come; the front page is
rendered again at most every ``INDEX_MAX_AGE`` seconds (its live section
updates in place meanwhile, from ``latest``); a replay viewer page is
rendered when asked for. A game's replay shows every card of
its deal, which its duplicate twin shares, so it is held back until the twin
is recorded too: a bot that reads the page learns nothing of a deal it has
still to play.
"""

from __future__ import annotations

import asyncio
import heapq
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader
from markupsafe import Markup

from ..games.store import GameRow, ResultsStore, StoreError
from ..replay import ReplayError, options_of, replay_row, to_json
from ..report.build import embedded_json
from ..report.charts import CHARTS_NOTICE, charts, charts_available
from ..report.summary import page_name, summarize


def environment() -> Environment:
    # The live templates extend the report's; autoescape: bot names come from untrusted configs.
    loader = ChoiceLoader([PackageLoader("arena.web", "templates"), PackageLoader("arena.report", "templates")])
    return Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)


@dataclass(frozen=True)
class Snapshot:
    rows: tuple[GameRow, ...]
    config: dict[str, Any]


def twin_recorded(row: GameRow, rows: tuple[GameRow, ...]) -> bool:
    """Whether ``row``'s replay may be shown while the tournament runs: the
    two games of a duplicate pair share their deal, so one game's cards stay
    hidden until the other (its twin) is recorded too."""
    pair = row.pair_id
    return pair is None or sum(1 for r in rows if r.pair_id == pair) >= 2


SNAPSHOT_MAX_AGE = 2.0  # seconds a read of the database serves every request
INDEX_MAX_AGE = 10.0  # seconds before the front page is rendered again for new games
LATEST = 10  # results listed in the live section


def result_line(row: GameRow) -> dict[str, Any]:
    return {"key": row.game_id, "bots": [row.bot0, row.bot1], "winner": row.winner,
            "scores": [row.score0, row.score1], "termination": row.termination, "page": page_name(row)}


class ReportPages:
    """Pages of the database at ``db`` (None: no database, live games only)."""

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self.env = environment()
        self._lock = threading.Lock()  # one rendering at a time: a burst of requests costs one
        self._index: tuple[int, float, str] | None = None  # (recorded games, monotonic time, page)
        self._read_lock = threading.Lock()
        self._read: tuple[float, Snapshot | None] | None = None  # (monotonic time, snapshot)
        self._latest_of: tuple[Snapshot, list[dict[str, Any]]] | None = None

    def _snapshot(self) -> Snapshot | None:
        with self._read_lock:
            now = time.monotonic()
            if self._read is None or now - self._read[0] >= SNAPSHOT_MAX_AGE:
                self._read = (now, self._read_db())
            return self._read[1]

    async def latest(self) -> tuple[int | None, list[dict[str, Any]]]:
        """Games recorded (None without a database) and the latest results, newest first."""
        return await asyncio.to_thread(self._latest)

    def _latest(self) -> tuple[int | None, list[dict[str, Any]]]:
        snapshot = self._snapshot()
        if snapshot is None:
            return (None if self.db is None or not self.db.exists() else 0), []
        cached = self._latest_of
        if cached is None or cached[0] is not snapshot:  # once per read of the database, not per request
            newest = heapq.nlargest(LATEST, snapshot.rows, key=lambda r: r.finished_at)
            cached = self._latest_of = (snapshot, [result_line(r) for r in newest])
        return len(snapshot.rows), cached[1]

    def _read_db(self) -> Snapshot | None:
        if self.db is None or not self.db.exists():
            return None
        try:
            with ResultsStore.open_existing(self.db) as store:
                config = store.get_meta("config")
                rows = tuple(store.games())
        except StoreError:
            return None  # being created by the run: shown once it holds a tournament
        return Snapshot(rows, config if isinstance(config, dict) else {})

    def recorded(self) -> int | None:
        """Games recorded so far; None without a database."""
        if self.db is None or not self.db.exists():
            return None
        try:
            with ResultsStore.open_existing(self.db) as store:
                return store.count()
        except StoreError:
            return None

    async def index(self) -> str:
        return await asyncio.to_thread(self._render_index)

    async def game(self, page: str) -> str | None:
        return await asyncio.to_thread(self._render_game, page)

    async def recorded_count(self) -> int | None:
        return await asyncio.to_thread(self.recorded)

    def _render_index(self) -> str:
        with self._lock:
            snapshot = self._snapshot()
            if snapshot is None:
                return self.env.get_template("live_only.html.j2").render(recorded=-1)
            if self._index is not None and (self._index[0] == len(snapshot.rows)
                                            or time.monotonic() - self._index[1] < INDEX_MAX_AGE):
                return self._index[2]
            raw = snapshot.config
            summary = summarize(snapshot.rows, str(raw.get("name") or "tournament"), options_of(raw).variant)
            page = self.env.get_template("live.html.j2").render(
                s=summary, charts={k: Markup(v) for k, v in charts(summary).items()},
                charts_notice=None if charts_available() else CHARTS_NOTICE, recorded=len(snapshot.rows))
            self._index = (len(snapshot.rows), time.monotonic(), page)
            return page

    def _render_game(self, page: str) -> str | None:
        snapshot = self._snapshot()
        if snapshot is None:
            return None
        raw = snapshot.config
        options = options_of(raw)
        row = next((r for r in snapshot.rows if page_name(r) == page), None)
        if row is None:
            return None
        title = str(raw.get("name") or "tournament")
        if not twin_recorded(row, snapshot.rows):
            return self.env.get_template("held_back.html.j2").render(title=title, row=row)
        try:
            data: Markup | None = embedded_json(to_json(replay_row(row, options)))
            error = ""
        except ReplayError as exc:
            data, error = None, str(exc)
        return self.env.get_template("game.html.j2").render(title=title, row=row, data=data, error=error)
