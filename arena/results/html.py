"""``--format html``: a whole page (doctype, charset, title), not a fragment,
so the output can be saved and opened in a browser as it is."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from tabulate import tabulate

if TYPE_CHECKING:
    from .tables import Table

_STYLE = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "th,td{border:1px solid #ccc;padding:.2em .6em}")


def html_page(tables: Sequence[Table], title: str = "Truco Arena results") -> str:
    body = []
    for t in tables:
        # tabulate's "html" format escapes every cell, so a bot name cannot inject markup.
        table = tabulate(t.rows, headers=t.headers, tablefmt="html", floatfmt=".1f", missingval="-")
        notes = "".join(f"\n<p>{escape(n)}</p>" for n in t.notes)
        body.append(f'<section id="{escape(t.name)}">\n<h2>{escape(t.title)}</h2>\n{table}{notes}\n</section>')
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        *body,
        "</body>",
        "</html>",
    ])
