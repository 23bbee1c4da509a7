"""``truco-arena standings`` and ``truco-arena compare``: tables from stored results."""

from __future__ import annotations

from pathlib import Path

import click

from ..results.tables import VIEWS, compare_table, render, to_records, views
from ..tournament.store import ResultsStore, StoreError
from .errors import DOMAIN_ERROR, fail
from .formatting import output_options, pick_format


def load_records(db: Path) -> list:  # type: ignore[type-arg]
    try:
        with ResultsStore.open_existing(db) as store:
            return to_records(list(store.games()))
    except StoreError as exc:
        raise fail(str(exc), DOMAIN_ERROR) from None


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--view", "view_names", multiple=True, type=click.Choice(VIEWS + ("all",)),
              help="Which tables (repeatable). Default: standings. 'all' prints every view.")
@click.option("--anchor", metavar="BOT", help="Fix this bot at Elo 1500 instead of the mean.")
@click.option("--bootstrap", type=click.IntRange(0), default=0, show_default=True,
              help="Intervals from N bootstrap resamples of duplicate pairs instead of the fit.")
@output_options
def standings(db: Path, view_names: tuple[str, ...], anchor: str | None, bootstrap: int,
              fmt: str, as_json: bool, as_csv: bool) -> None:
    """Print ratings and tables computed from the results database DB.

    Views: standings (rank, Elo from a joint Bradley-Terry fit with 95%
    interval, likelihood of superiority over the next bot), cross (each
    pair's score), pairs (duplicate-pair statistics), failures (timeouts,
    disconnects, illegal actions per bot), ladder (+30/-20 points).

    \b
    Example:
      truco-arena standings weekly.sqlite --view all --format github
      truco-arena standings weekly.sqlite --json
    """
    records = load_records(db)
    if not any(r.winner for r in records):
        raise fail(f"{db}: no finished games yet", DOMAIN_ERROR)
    names = VIEWS if "all" in view_names else (view_names or ("standings",))
    if anchor is not None and anchor not in {r.bot_a for r in records} | {r.bot_b for r in records}:
        raise click.BadParameter(f"no bot named {anchor!r} in {db}", param_hint="--anchor")
    click.echo(render(views(records, names, anchor=anchor, bootstrap=bootstrap), pick_format(fmt, as_json, as_csv)))


@click.command()
@click.argument("a", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("b", type=click.Path(dir_okay=False, path_type=Path))
@output_options
def compare(a: Path, b: Path, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Show how the ranking changed from results database A to B: rank moves,
    Elo deltas with 95% intervals, Spearman and Kendall rank correlation.

    \b
    Example:
      truco-arena compare last-week.sqlite this-week.sqlite --format github
    """
    old, new = load_records(a), load_records(b)
    click.echo(render([compare_table(old, new)], pick_format(fmt, as_json, as_csv)))
