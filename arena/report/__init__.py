"""The static HTML report of a tournament (``truco-arena report``): Jinja2
templates and Plotly charts, with plotly.js shipped beside the pages so the
report opens from disk with no network."""

from .build import build_report

__all__ = ["build_report"]
