"""The report's plots, as HTML fragments that plotly.js draws.

Each fragment is a ``<div>`` and a ``Plotly.newPlot`` call with the figure's
data and layout written here as JSON, in the ``plotly_white`` template that
plotly.py ships. Building them through plotly.py's figure objects gives the
same fragment but validates every property: 0.25 s of CPU for the three
charts, more than the rest of a live page's front page, which is made again
while games run (at a low priority: the games come first). The fragments do
not carry plotly.js: the report ships it once, next to the pages, so they
open from disk with no network. Plotly is optional (the ``report`` extra):
without it every chart is an empty fragment and the pages say once, in
``CHARTS_NOTICE``, how to get them.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from pathlib import Path
from typing import Any

from .summary import Summary

CHARTS_NOTICE = "charts need Plotly: pip install 'truco-arena[report]'"

_LAYOUT = {"margin": {"l": 60, "r": 20, "t": 40, "b": 50}, "height": 380}
_CONFIG = {"displaylogo": False, "responsive": True}
# ColorBrewer's RdBu, as plotly.py writes its "RdBu" out (plotly.js has a
# different scale of that name): a low win rate red, a high one blue.
_RED_BLUE = [[i / 10, f"rgb({c})"] for i, c in enumerate((
    "103,0,31", "178,24,43", "214,96,77", "244,165,130", "253,219,199", "247,247,247", "209,229,240",
    "146,197,222", "67,147,195", "33,102,172", "5,48,97"))]


def _template_file() -> Path | None:
    """plotly.py's ``plotly_white`` template, found without importing plotly; None without Plotly."""
    try:
        spec = importlib.util.find_spec("plotly")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "package_data" / "templates" / "plotly_white.json"
    return path if path.is_file() else None


@functools.cache
def _template() -> Any:
    """That template, as plotly.py writes it into a figure."""
    path = _template_file()
    assert path is not None
    return json.loads(path.read_text())


def plotly_js() -> str | None:
    """The plotly.js that plotly.py ships, or None without Plotly."""
    try:
        import plotly.offline  # type: ignore[import-untyped]
    except ImportError:
        return None
    return str(plotly.offline.get_plotlyjs())


def charts_available() -> bool:
    return _template_file() is not None


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity as null (a gap), as plotly.py writes them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def _script_json(value: Any) -> str:
    # Inside <script>: bot names come from untrusted configs, so no "<", ">"
    # or "&" may close the element or open a comment; JSON's escapes keep them.
    return json.dumps(_finite(value), separators=(",", ":"), allow_nan=False) \
        .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _html(div_id: str, data: list[dict[str, Any]], layout: dict[str, Any]) -> str:
    layout = {"template": _template(), **_LAYOUT, **layout}
    return (f'<div style="height:{_LAYOUT["height"]}px; width:100%;">'
            f'<div id="{div_id}" class="plotly-graph-div" style="height:100%; width:100%;"></div>'
            f'<script>if (document.getElementById("{div_id}")) {{ Plotly.newPlot("{div_id}", '
            f"{_script_json(data)}, {_script_json(layout)}, {_script_json(_CONFIG)}); }}</script></div>")


def standings_chart(summary: Summary) -> str:
    rows = summary.standings
    if not rows or not charts_available():
        return ""
    return _html("chart-standings", [{
        "type": "scatter", "mode": "markers", "x": [r.bot for r in rows], "y": [r.elo for r in rows],
        "marker": {"size": 12},
        "error_y": {"type": "data", "symmetric": False,
                    "array": [r.elo_high - r.elo for r in rows], "arrayminus": [r.elo - r.elo_low for r in rows]},
        "hovertemplate": "%{x}: Elo %{y:.0f}<extra></extra>",
    }], {"title": {"text": "Elo with 95% interval"}, "yaxis": {"title": {"text": "Elo"}}})


def cross_chart(summary: Summary) -> str:
    ct = summary.cross
    if not ct.bots or not charts_available():
        return ""
    cells = {(c.row, c.col): c for c in ct.cells}
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    for row in ct.bots:
        z.append([None if row == col or cells[(row, col)].score_pct is None else cells[(row, col)].score_pct
                  for col in ct.bots])
        text.append(["" if row == col else f"{cells[(row, col)].wins}/{cells[(row, col)].games}" for col in ct.bots])
    return _html("chart-cross", [{
        "type": "heatmap", "z": z, "x": list(ct.bots), "y": list(ct.bots), "text": text, "texttemplate": "%{text}",
        "zmin": 0, "zmax": 100, "colorscale": _RED_BLUE, "colorbar": {"title": {"text": "row's win %"}},
        "hovertemplate": "%{y} vs %{x}: %{text}<extra></extra>",
    }], {"title": {"text": "Cross table: row's wins / games against column"}, "yaxis": {"autorange": "reversed"}})


def history_chart(summary: Summary) -> str:
    h = summary.history
    if not h.games or not charts_available():
        return ""
    return _html("chart-history", [
        {"type": "scatter", "mode": "lines", "name": bot, "x": list(h.games), "y": list(elo)} for bot, elo in h.elo
    ], {"title": {"text": "Elo refitted after each game, in the order played"},
        "xaxis": {"title": {"text": "decided games"}}, "yaxis": {"title": {"text": "Elo"}}})


def charts(summary: Summary) -> dict[str, str]:
    """Every chart of the front page by section; empty strings without Plotly."""
    return {"standings": standings_chart(summary), "cross": cross_chart(summary),
            "history": history_chart(summary)}
