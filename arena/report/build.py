"""Write the static HTML report: a directory that opens from disk with no network.

Layout: ``index.html`` (standings, cross table, Elo history, failures, every
game), ``viewer.html`` (the one replay viewer: ``viewer.html#GAME`` loads
``games/GAME.js``, that game's JSON export, when it is opened), ``games/*.js``,
``plotly.min.js`` (the copy plotly.py ships, once for every page; absent
without Plotly, whose charts are then left out with one line saying how to
get them), ``viewer.js`` and ``style.css``.

The report's size grows with the games only by their JSON exports and one
row each in the list of games; ``max_games`` bounds the exports: the games
that ended by a failure first, then the latest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader
from markupsafe import Markup

from ..games.game_record import GameRecord
from ..replay import ReplayError, replay_row, to_json
from ..replay.stored import stored_config
from ..results.verdicts import verdict_table
from .charts import CHARTS_NOTICE, charts, plotly_js
from .summary import data_name, summarize, viewer_link

STATIC_FILES = ("viewer.js", "style.css")


def _environment() -> Environment:
    # Autoescape: bot names and failure reasons come from untrusted bots and configs.
    return Environment(loader=PackageLoader("arena.report", "templates"), autoescape=True,
                       trim_blocks=True, lstrip_blocks=True)


def embedded_json(value: Any) -> Markup:
    """JSON safe inside a <script> element: no '<', '>' or '&' can close it early."""
    text = json.dumps(value, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def included(rows: Sequence[GameRecord], max_games: int | None) -> set[str]:
    """The keys of the games the report carries a replay of: all of them, or at
    most ``max_games``: the games a failure ended first (what an organizer
    looks at), then the latest."""
    if max_games is None or max_games >= len(rows):
        return {r.game_key for r in rows}
    failed = [r for r in rows if r.faulty_bot is not None]
    rest = [r for r in reversed(rows) if r.faulty_bot is None]
    return {r.game_key for r in (failed + rest)[:max_games]}


def build_report(rows: Sequence[GameRecord], config: dict[str, Any], out: Path,
                 max_games: int | None = None, digest: str | None = None, *, with_stderr: bool = False) -> Path:
    """Write the report of ``rows`` into the directory ``out``; return its index.html.
    A game whose log does not replay gets a viewer saying why, the rest are unaffected.
    ``digest``: the results file's published digest, shown on the front page.
    ``with_stderr``: the viewer shows what each bot wrote to stderr beside its moves."""
    stored = stored_config(config)  # ``config``: the database's meta.config
    options, title = stored.options, stored.name
    kept = included(rows, max_games)
    summary = summarize(rows, title, options.variant,
                        link=lambda row: viewer_link(row) if row.game_key in kept else None)
    env = _environment()
    (out / "games").mkdir(parents=True, exist_ok=True)
    js = plotly_js()
    if js is not None:
        (out / "plotly.min.js").write_text(js, encoding="utf-8")
    static = resources.files("arena.report").joinpath("static")
    for name in STATIC_FILES:
        (out / name).write_text(static.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    index = out / "index.html"
    # a match's verdicts, as `match` and `standings` print them
    plan = None if stored.tournament is None else stored.tournament.match
    index.write_text(env.get_template("index.html.j2").render(
        s=summary, charts={k: Markup(v) for k, v in charts(summary).items()},
        charts_notice=None if js is not None else CHARTS_NOTICE, left_out=len(rows) - len(kept),
        verdicts=verdict_table(plan, list(rows), run_over=False) if plan is not None else None, digest=digest,
    ), encoding="utf-8")
    (out / "viewer.html").write_text(env.get_template("viewer.html.j2").render(title=title), encoding="utf-8")
    for row in rows:
        if row.game_key not in kept:
            continue
        try:
            data: Any = to_json(replay_row(row, options, with_stderr=with_stderr))
        except ReplayError as exc:
            data = {"error": str(exc)}
        (out / data_name(row)).write_text(f"trucoGame({embedded_json(data)});\n", encoding="utf-8")
    return index
