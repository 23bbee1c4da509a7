"""The report's plots, as Plotly figures rendered to HTML fragments.

The fragments do not carry plotly.js: the report ships it once, next to the
pages, so they open from disk with no network. Plotly is optional (the
``report`` extra): without it every chart is an empty fragment and the pages
say once, in ``CHARTS_NOTICE``, how to get them.
"""

from __future__ import annotations

from typing import Any

from .summary import Summary

CHARTS_NOTICE = "charts need Plotly: pip install 'truco-arena[report]'"

_LAYOUT = {"margin": {"l": 60, "r": 20, "t": 40, "b": 50}, "height": 380, "template": "plotly_white"}


def _go() -> Any | None:
    """plotly.graph_objects, or None where Plotly is not installed."""
    try:
        import plotly.graph_objects as go  # type: ignore[import-untyped]
    except ImportError:
        return None
    return go


def plotly_js() -> str | None:
    """The plotly.js that plotly.py ships, or None without Plotly."""
    try:
        import plotly.offline  # type: ignore[import-untyped]
    except ImportError:
        return None
    return str(plotly.offline.get_plotlyjs())


def charts_available() -> bool:
    return _go() is not None


def _html(fig: Any, div_id: str) -> str:
    return str(fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                           config={"displaylogo": False, "responsive": True}))


def standings_chart(summary: Summary) -> str:
    go = _go()
    rows = summary.standings
    if go is None or not rows:
        return ""
    fig = go.Figure(go.Scatter(
        x=[r.bot for r in rows], y=[r.elo for r in rows], mode="markers",
        marker={"size": 12},
        error_y={"type": "data", "symmetric": False,
                 "array": [r.elo_high - r.elo for r in rows], "arrayminus": [r.elo - r.elo_low for r in rows]},
        hovertemplate="%{x}: Elo %{y:.0f}<extra></extra>",
    ))
    fig.update_layout(title="Elo with 95% interval", yaxis_title="Elo", **_LAYOUT)
    return _html(fig, "chart-standings")


def cross_chart(summary: Summary) -> str:
    go = _go()
    ct = summary.cross
    if go is None or not ct.bots:
        return ""
    cells = {(c.row, c.col): c for c in ct.cells}
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    for row in ct.bots:
        z.append([None if row == col or cells[(row, col)].score_pct is None else cells[(row, col)].score_pct
                  for col in ct.bots])
        text.append(["" if row == col else f"{cells[(row, col)].wins}/{cells[(row, col)].games}" for col in ct.bots])
    fig = go.Figure(go.Heatmap(
        z=z, x=list(ct.bots), y=list(ct.bots), text=text, texttemplate="%{text}", zmin=0, zmax=100,
        colorscale="RdBu", colorbar={"title": "row's win %"},
        hovertemplate="%{y} vs %{x}: %{text}<extra></extra>",
    ))
    fig.update_layout(title="Cross table: row's wins / games against column", **_LAYOUT)
    fig.update_yaxes(autorange="reversed")
    return _html(fig, "chart-cross")


def history_chart(summary: Summary) -> str:
    go = _go()
    h = summary.history
    if go is None or not h.games:
        return ""
    fig = go.Figure([go.Scatter(x=list(h.games), y=list(elo), mode="lines", name=bot) for bot, elo in h.elo])
    fig.update_layout(title="Elo refitted after each game, in the order played", xaxis_title="decided games",
                      yaxis_title="Elo", **_LAYOUT)
    return _html(fig, "chart-history")


def charts(summary: Summary) -> dict[str, str]:
    """Every chart of the front page by section; empty strings without Plotly."""
    return {"standings": standings_chart(summary), "cross": cross_chart(summary),
            "history": history_chart(summary)}
