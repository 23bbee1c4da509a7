"""The shared output options: ``--format`` (any tabulate format), ``--json``, ``--csv``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

TABLE_FORMATS = ("plain", "simple", "github", "grid", "simple_grid", "rounded_grid", "pipe", "orgtbl",
                 "rst", "mediawiki", "html", "latex", "latex_booktabs", "tsv", "psql", "outline")


def output_options(func: F) -> F:
    """Add ``--format/--json/--csv`` and pass one ``fmt`` argument to ``func``."""

    func = click.option("--csv", "as_csv", is_flag=True, help="Write CSV (same as --format csv).")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Write JSON (same as --format json).")(func)
    func = click.option(
        "--format", "fmt", default="simple", show_default=True,
        type=click.Choice(TABLE_FORMATS + ("json", "csv")),
        help="Table format: any of tabulate's, or json / csv.",
    )(func)
    return func


def pick_format(fmt: str, as_json: bool, as_csv: bool) -> str:
    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    return "json" if as_json else "csv" if as_csv else fmt
