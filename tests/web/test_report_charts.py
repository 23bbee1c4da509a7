"""The report's chart fragments: the figures plotly.py itself would build
from the same summary (data, layout and template), written without its
figure objects, and safe inside the page's ``<script>``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import plotly.graph_objects as go  # type: ignore[import-untyped]

from arena.games.store import ResultsStore
from arena.report import charts
from arena.report.summary import Summary, summarize


def _summary(db: Path) -> Summary:
    with ResultsStore.open_existing(db) as store:
        rows = tuple(store.games())
    return summarize(rows, "web", "uruguayo")


def _new_plot(fragment: str) -> tuple[str, list[Any], dict[str, Any], dict[str, Any]]:
    """The div id and the three JSON arguments of the fragment's Plotly.newPlot call."""
    match = re.search(r'Plotly\.newPlot\("([\w-]+)", ', fragment)
    assert match is not None, fragment[:300]
    decoder, at, values = json.JSONDecoder(), match.end(), []
    for _ in range(3):
        value, at = decoder.raw_decode(fragment, at)
        values.append(value)
        at += len(", ")
    assert f'<div id="{match.group(1)}" class="plotly-graph-div"' in fragment
    return match.group(1), *values


def _plotly_figure(summary: Summary, name: str) -> dict[str, Any]:
    """What plotly.py's figure objects give for the chart ``name``."""
    layout = {"margin": {"l": 60, "r": 20, "t": 40, "b": 50}, "height": 380, "template": "plotly_white"}
    if name == "standings":
        rows = summary.standings
        fig = go.Figure(go.Scatter(
            x=[r.bot for r in rows], y=[r.elo for r in rows], mode="markers", marker={"size": 12},
            error_y={"type": "data", "symmetric": False, "array": [r.elo_high - r.elo for r in rows],
                     "arrayminus": [r.elo - r.elo_low for r in rows]},
            hovertemplate="%{x}: Elo %{y:.0f}<extra></extra>"))
        fig.update_layout(title="Elo with 95% interval", yaxis_title="Elo", **layout)
    elif name == "cross":
        ct = summary.cross
        cells = {(c.row, c.col): c for c in ct.cells}
        fig = go.Figure(go.Heatmap(
            z=[[None if r == c or cells[(r, c)].score_pct is None else cells[(r, c)].score_pct for c in ct.bots]
               for r in ct.bots],
            x=list(ct.bots), y=list(ct.bots),
            text=[["" if r == c else f"{cells[(r, c)].wins}/{cells[(r, c)].games}" for c in ct.bots]
                  for r in ct.bots],
            texttemplate="%{text}", zmin=0, zmax=100, colorscale="RdBu", colorbar={"title": "row's win %"},
            hovertemplate="%{y} vs %{x}: %{text}<extra></extra>"))
        fig.update_layout(title="Cross table: row's wins / games against column", **layout)
        fig.update_yaxes(autorange="reversed")
    else:
        h = summary.history
        fig = go.Figure([go.Scatter(x=list(h.games), y=list(elo), mode="lines", name=bot) for bot, elo in h.elo])
        fig.update_layout(title="Elo refitted after each game, in the order played", xaxis_title="decided games",
                          yaxis_title="Elo", **layout)
    built: dict[str, Any] = json.loads(fig.to_json())
    return built


def _canonical(value: Any) -> Any:
    """``value`` with every number a float: plotly.py writes 0.0 where the fragment writes 0."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def test_each_chart_is_the_figure_plotly_py_builds(report_db: Path) -> None:
    summary = _summary(report_db)
    fragments = charts.charts(summary)
    assert set(fragments) == {"standings", "cross", "history"}
    for name, fragment in fragments.items():
        div_id, data, layout, config = _new_plot(fragment)
        assert div_id == f"chart-{name}"
        assert config == {"displaylogo": False, "responsive": True}
        want = _plotly_figure(summary, name)
        assert _canonical(data) == _canonical(want["data"]), name
        assert _canonical(layout) == _canonical(want["layout"]), name


def test_an_untrusted_name_cannot_close_the_script() -> None:
    hostile = '</script><script>alert(1)</script><!--&'
    fragment = charts._html("chart-x", [{"type": "scatter", "x": [hostile], "y": [1]}], {"title": {"text": hostile}})
    script = fragment[fragment.index("<script>") + len("<script>"):fragment.rindex("</script>")]
    assert "<" not in script and ">" not in script and "&" not in script
    _div, data, layout, _config = _new_plot(fragment)
    assert data[0]["x"] == [hostile] and layout["title"]["text"] == hostile  # the text itself is unchanged


def test_a_value_that_is_not_finite_is_a_gap_as_plotly_py_writes_it() -> None:
    fragment = charts._html("chart-x", [{"type": "scatter", "x": ["a", "b"], "y": [float("nan"), float("inf")]}], {})
    _div, data, _layout, _config = _new_plot(fragment)
    fig = go.Figure(go.Scatter(x=["a", "b"], y=[float("nan"), float("inf")]))
    assert data[0]["y"] == json.loads(fig.to_json())["data"][0]["y"] == [None, None]
