"""``truco-arena league status``: what a running league is doing, read from its database."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..games.store import ResultsStore
from ..league.config import is_league
from ..league.database import STATUS_META
from ..league.status import LeagueStatus, StatusError
from ..results.league_status import status_tables
from ..results.tables import render
from .errors import DOMAIN_ERROR, fail
from .formatting import output_options, pick_format


@click.group()
def league() -> None:
    """Look at a league that `truco-arena serve` runs."""


@league.command("status")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@output_options
def status(db: Path, fmt: str, as_json: bool, as_csv: bool) -> None:
    """List the bots (connected now or not) with their version, streams,
    games now and games played, and the games running, from the league's
    results database DB. The database is opened read-only; the league
    refreshes what it is doing about once a second.

    \b
    Example:
      truco-arena league status league.sqlite
    """
    with ResultsStore.open_existing(db) as store:
        config = store.get_meta("config")
        if not is_league(config):
            raise fail(f"{db}: is a tournament's results database, not a league's", DOMAIN_ERROR)
        raw = store.get_meta(STATUS_META)
        try:
            current = None if raw is None else LeagueStatus.from_json(raw)
        except StatusError as exc:
            raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
        rows = list(store.games())
    click.echo(render(status_tables(current, rows, time.time()), pick_format(fmt, as_json, as_csv)))
