"""The report's pages, rendered from the results database, with a state of
the page's process that stays the same size however many games the league
records.

What changes every second (games recorded, the latest results) comes from
two bounded queries (``count``, the newest ``LATEST`` rows), read-only, at
most once every ``SNAPSHOT_MAX_AGE`` seconds however many requests come.
The pages that need every row (the front page's standings, cross table and
Elo history, a replay viewer page and its twin check) are rendered by a
short-lived process of their own (``python -m arena.web.pages``), so the
rows it reads never stay in the page's process (a Python process does not
give the memory of a big read back): the page keeps the rendered front page
(at most every ``INDEX_MAX_AGE`` seconds; it lists the latest ``LISTED``
games) and nothing else. A request waits ``INDEX_WAIT`` seconds for a front
page being rendered, then gets the one it will replace, or the games in
progress alone. A game's replay shows every card of its deal,
which its duplicate twin shares, so it is held back until the twin is
recorded too: a bot that reads the page learns nothing of a deal it has
still to play.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader
from markupsafe import Markup

from ..games.game_record import GameRecord
from ..games.store import ResultsStore, StoreError
from ..replay import ReplayError, replay_row, to_json
from ..replay.stored import stored_config
from ..report.build import embedded_json
from ..report.charts import CHARTS_NOTICE, charts, charts_available
from ..report.summary import page_name, summarize

log = logging.getLogger("arena.web")


def environment() -> Environment:
    # The live templates extend the report's; autoescape: bot names come from untrusted configs.
    loader = ChoiceLoader([PackageLoader("arena.web", "templates"), PackageLoader("arena.report", "templates")])
    return Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)


def twin_recorded(row: GameRecord, rows: tuple[GameRecord, ...]) -> bool:
    """Whether ``row``'s replay may be shown while the tournament runs: the
    two games of a duplicate pair share their deal, so one game's cards stay
    hidden until the other (its twin) is recorded too."""
    pair = row.pair_id
    return pair is None or sum(1 for r in rows if r.pair_id == pair) >= 2


SNAPSHOT_MAX_AGE = 2.0  # seconds a read of the database serves every request
INDEX_MAX_AGE = 10.0  # seconds before the front page is rendered again for new games
INDEX_WAIT = 5.0  # seconds a request waits for the front page being rendered, then gets the one before
LATEST = 10  # results listed in the live section
LISTED = 500  # games listed on the front page, the latest ones
RENDER_DEADLINE = 60.0  # seconds for a rendering process (a large database, a loaded machine)
MAX_PAGE = 64 << 20  # bytes of a rendered page, at most
NO_SUCH_GAME = 3  # the rendering process's exit code for a page of no recorded game
GAME_PAGE = re.compile(r"games/[0-9]{5,}-[A-Za-z0-9_.-]{1,200}\.html")


def result_line(row: GameRecord) -> dict[str, Any]:
    return {"key": row.game_id, "bots": [row.bot0, row.bot1], "winner": row.winner,
            "scores": [row.score0, row.score1], "termination": row.termination, "page": page_name(row)}


class ReportPages:
    """Pages of the database at ``db`` (None: no database, live games only)."""

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self.env = environment()
        self._read_lock = threading.Lock()
        self._latest: tuple[float, int | None, list[dict[str, Any]]] | None = None  # (monotonic time, ...)
        self._index: tuple[int, float, str] | None = None  # (recorded games, monotonic time, page)
        self._rendering: asyncio.Task[str] | None = None  # the front page being rendered
        self._game_lock = asyncio.Lock()  # one game page rendered at a time: a flood costs one process

    async def latest(self) -> tuple[int | None, list[dict[str, Any]]]:
        """Games recorded (None without a database) and the latest results, newest first."""
        return await asyncio.to_thread(self._latest_now)

    def _latest_now(self) -> tuple[int | None, list[dict[str, Any]]]:
        with self._read_lock:
            now = time.monotonic()
            if self._latest is None or now - self._latest[0] >= SNAPSHOT_MAX_AGE:
                self._latest = (now, *self._read_latest())
            return self._latest[1], self._latest[2]

    def _read_latest(self) -> tuple[int | None, list[dict[str, Any]]]:
        if self.db is None or not self.db.exists():
            return None, []
        try:
            with ResultsStore.open_existing(self.db) as store:
                return store.count(), [result_line(r) for r in store.games(newest=LATEST)]
        except StoreError:
            return 0, []  # being created by the run: shown once it holds a tournament

    async def index(self) -> str:
        recorded, _ = await self.latest()
        if recorded is None:
            return self._live_only()
        cached = self._index
        if cached is not None and (cached[0] == recorded or time.monotonic() - cached[1] < INDEX_MAX_AGE):
            return cached[2]
        if self._rendering is None or self._rendering.done():
            self._rendering = asyncio.ensure_future(self._render_index(recorded))
        try:
            # Shielded: a client that goes away, or stops waiting, does not cut
            # the rendering short for the others.
            return await asyncio.wait_for(asyncio.shield(self._rendering), INDEX_WAIT)
        except TimeoutError:
            # The rendering runs at the page's low priority, which a busy machine
            # can hold back for long: the page it will replace, or the games in
            # progress alone (that page loads the report once it is made).
            return cached[2] if cached is not None else self._live_only(making=True)

    async def _render_index(self, recorded: int) -> str:
        page = await self._render("index")
        if page is None:  # failed (logged): the previous page, or the live games alone
            cached = self._index
            return cached[2] if cached is not None else self._live_only()
        self._index = (recorded, time.monotonic(), page)
        return page

    def _live_only(self, making: bool = False) -> str:
        """The games in progress alone; ``making``: the report is being made."""
        return self.env.get_template("live_only.html.j2").render(recorded=-1, making=making)

    async def game(self, page: str) -> str | None:
        if self.db is None or not GAME_PAGE.fullmatch(page):
            return None
        async with self._game_lock:
            return await self._render("game", page)

    async def _render(self, *what: str) -> str | None:
        """A page rendered by a process of its own; None if there is no such game, or it failed."""
        assert self.db is not None
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena.web.pages", "--db", str(self.db), *what,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            async with asyncio.timeout(RENDER_DEADLINE):
                out, err = await _read_bounded(proc)
        except TimeoutError:
            log.warning("rendering the live page's %s took over %g s", what[0], RENDER_DEADLINE)
            return None
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        if proc.returncode == 0:
            return out.decode()
        if proc.returncode != NO_SUCH_GAME:
            log.warning("rendering the live page's %s failed (exit code %s): %s", what[0], proc.returncode,
                        err.decode(errors="replace").strip()[-300:])
        return None


async def _read_bounded(proc: asyncio.subprocess.Process) -> tuple[bytes, bytes]:
    """The process's output (at most ``MAX_PAGE`` bytes, then it is killed) and the end of its stderr."""
    assert proc.stdout is not None and proc.stderr is not None
    chunks, size = [], 0
    errors = asyncio.ensure_future(proc.stderr.read(1 << 16))
    while chunk := await proc.stdout.read(1 << 16):
        size += len(chunk)
        if size > MAX_PAGE:
            proc.kill()
            break
        chunks.append(chunk)
    await proc.wait()
    return b"".join(chunks), await errors


# ------------------------------------------------------- the rendering process


def _read_all(db: Path) -> tuple[tuple[GameRecord, ...], dict[str, Any]] | None:
    try:
        with ResultsStore.open_existing(db) as store:
            config = store.get_meta("config")
            rows = tuple(store.games())
    except StoreError:
        return None  # being created by the run: shown once it holds a tournament
    return rows, config if isinstance(config, dict) else {}


def _digest(db: Path) -> str:
    """The results file's published digest (docs/results-store.md)."""
    try:
        with ResultsStore.open_existing(db) as store:
            return store.digest()[1]
    except StoreError:
        return ""


def render_index(db: Path, env: Environment) -> str:
    read = _read_all(db)
    if read is None:
        return env.get_template("live_only.html.j2").render(recorded=-1)
    rows, config = read
    stored = stored_config(config)
    summary = summarize(rows, stored.name, stored.options.variant)
    return env.get_template("live.html.j2").render(
        s=summary, charts={k: Markup(v) for k, v in charts(summary).items()},
        charts_notice=None if charts_available() else CHARTS_NOTICE, recorded=len(rows), listed=LISTED,
        digest=_digest(db))


def render_game(db: Path, env: Environment, page: str) -> str | None:
    read = _read_all(db)
    if read is None:
        return None
    rows, config = read
    stored = stored_config(config)
    options, title = stored.options, stored.name
    row = next((r for r in rows if page_name(r) == page), None)
    if row is None:
        return None
    if not twin_recorded(row, rows):
        return env.get_template("held_back.html.j2").render(title=title, row=row)
    try:
        data: Markup | None = embedded_json(to_json(replay_row(row, options)))
        error = ""
    except ReplayError as exc:
        data, error = None, str(exc)
    return env.get_template("game.html.j2").render(title=title, row=row, data=data, error=error)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m arena.web.pages",
                                description="Render one page of the live page (started by it, never by hand).")
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("kind", choices=("index", "game"))
    p.add_argument("page", nargs="?", default="")
    args = p.parse_args(argv)
    env = environment()
    html = render_index(args.db, env) if args.kind == "index" else render_game(args.db, env, args.page)
    if html is None:
        sys.exit(NO_SUCH_GAME)
    sys.stdout.buffer.write(html.encode())
    sys.stdout.flush()


if __name__ == "__main__":
    main()
