"""``truco-arena replay``: one stored game, hand by hand, or its JSON export."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..games.gameids import GameIdError, find_by_id
from ..games.store import ResultsStore
from ..replay import ReplayError, options_of, render_text, replay_row, restrict_to_seat, to_json
from .errors import DOMAIN_ERROR, fail


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Write the game's JSON export (docs/replay-json.md).")
@click.option("--seat", type=click.IntRange(min=0), help="Only what this seat saw: other hands stay hidden.")
def replay(db: Path, game_id: str, as_json: bool, seat: int | None) -> None:
    """Replay game GAME_ID of the results database DB from its deal seed and
    action log: the deal, the calls and answers, the tricks, the points per
    category and the score of every hand.

    Game ids are listed by `truco-arena games DB`. GAME_ID may be the start
    of an id that only one game has, or the id in its old form
    ('mybot|random#3a', quoted for the shell).

    \b
    Example:
      truco-arena replay weekly.sqlite mybot:random:3a
      truco-arena replay weekly.sqlite mybot:random:3a --seat 1 --json
    """
    with ResultsStore.open_existing(db) as store:
        stored = store.get_meta("config")
        rows = list(store.games())
    try:
        row = rows[find_by_id([r.game_id for r in rows], game_id)]
    except GameIdError as exc:
        raise fail(f"{db}: {exc} (see `truco-arena games {db}`)", DOMAIN_ERROR) from None
    try:
        # The organizer's view: with what each bot wrote to stderr (not in --seat's).
        record = replay_row(row, options_of(stored), with_stderr=True)
    except ReplayError as exc:
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
    if seat is not None:
        try:
            record = restrict_to_seat(record, seat)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--seat") from None
    click.echo(json.dumps(to_json(record), indent=1) if as_json else render_text(record))
