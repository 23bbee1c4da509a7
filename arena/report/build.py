"""Write the static HTML report: a directory that opens from disk with no network.

Layout: ``index.html`` (standings, cross table, Elo history, failures, every
game), ``games/*.html`` (one replay viewer per game, its JSON embedded),
``plotly.min.js`` (the copy plotly.py ships, once for every page; absent
without Plotly, whose charts are then left out with one line saying how to
get them), ``viewer.js`` and ``style.css``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader
from markupsafe import Markup

from ..replay import ReplayError, options_of, replay_row, to_json
from ..tournament.store import GameRow
from .charts import CHARTS_NOTICE, charts, plotly_js
from .summary import summarize

STATIC_FILES = ("viewer.js", "style.css")


def _environment() -> Environment:
    # Autoescape: bot names and failure reasons come from untrusted bots and configs.
    return Environment(loader=PackageLoader("arena.report", "templates"), autoescape=True,
                       trim_blocks=True, lstrip_blocks=True)


def embedded_json(value: Any) -> Markup:
    """JSON safe inside a <script> element: no '<', '>' or '&' can close it early."""
    text = json.dumps(value, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def build_report(rows: Sequence[GameRow], raw_config: dict[str, Any], out: Path) -> Path:
    """Write the report of ``rows`` into the directory ``out``; return its index.html.
    A game whose log does not replay gets a page saying why, the rest are unaffected."""
    options = options_of(raw_config)
    title = str(raw_config.get("name") or "tournament")
    summary = summarize(rows, title, options.variant)
    env = _environment()
    (out / "games").mkdir(parents=True, exist_ok=True)
    js = plotly_js()
    if js is not None:
        (out / "plotly.min.js").write_text(js, encoding="utf-8")
    static = resources.files("arena.report").joinpath("static")
    for name in STATIC_FILES:
        (out / name).write_text(static.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    index = out / "index.html"
    index.write_text(env.get_template("index.html.j2").render(
        s=summary, charts={k: Markup(v) for k, v in charts(summary).items()},
        charts_notice=None if js is not None else CHARTS_NOTICE,
    ), encoding="utf-8")
    game_page = env.get_template("game.html.j2")
    for link in summary.games:
        try:
            data: Markup | None = embedded_json(to_json(replay_row(link.row, options)))
            error = ""
        except ReplayError as exc:
            data, error = None, str(exc)
        (out / link.page).write_text(game_page.render(title=title, row=link.row, data=data, error=error),
                                     encoding="utf-8")
    return index
