"""``truco-arena report``: the static HTML report of a results database."""

from __future__ import annotations

from pathlib import Path

import click

from ..games.game_record import RecordError
from ..games.store import ResultsStore
from ..replay import ReplayError
from .errors import DOMAIN_ERROR, USAGE_ERROR, fail

# Replays carried by default: a game's export is most of the report's size
# (tens of KB), so a league of thousands of games stays a report of tens of MB.
DEFAULT_MAX_GAMES = 1000


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", "out", required=True, type=click.Path(path_type=Path),
              help="Directory to write the report into (created if missing).")
@click.option("--max-games", type=click.IntRange(0), metavar="N", default=DEFAULT_MAX_GAMES, show_default=True,
              help="Carry the replay of at most N games: those a failure ended first, then the latest; "
                   "0: every game. Every game stays in the list.")
@click.option("--stderr", "with_stderr", is_flag=True,
              help="Show in the viewer, beside each move, what its bot wrote to stderr while deciding: "
                   "for the organizer's own copy, not a report the bots' authors see.")
def report(db: Path, out: Path, max_games: int, with_stderr: bool) -> None:
    """Write a static HTML report of the results database DB into the
    directory OUTPUT: OUTPUT/index.html with the standings (Elo and its 95%
    interval), the cross table, Elo over the games, the failures and every
    game, each linked to the replay viewer (OUTPUT/viewer.html), which loads
    a game's data when it is opened. It opens from disk, with no network.

    The charts need Plotly (pip install 'truco-arena[report]'); without it
    the report has everything else and says so in one line.

    \b
    Example:
      truco-arena report weekly.sqlite -o weekly-report
      truco-arena report league.sqlite -o league-report --max-games 500
      truco-arena report weekly.sqlite -o weekly-private --stderr
    """
    # Imported here, not above: the other commands start without the templates.
    from ..report import build_report
    from ..report.charts import CHARTS_NOTICE, charts_available

    if out.exists() and not out.is_dir():
        raise fail(f"{out}: exists and is not a directory", USAGE_ERROR)
    with ResultsStore.open_existing(db) as store:
        stored = store.get_meta("config")
        rows = list(store.games())
        _, digest = store.digest()
    try:
        index = build_report(rows, stored, out, max_games or None, digest, with_stderr=with_stderr)
    except ReplayError as exc:  # the stored config cannot be read, so no game can be replayed
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
    except RecordError as exc:  # rows edited by hand into nonsense (a winner who did not play ...)
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
    except OSError as exc:  # the output cannot be written
        raise fail(f"{out}: {exc.strerror or exc}", DOMAIN_ERROR) from None
    if not charts_available():
        click.echo(f"note: {CHARTS_NOTICE}", err=True)
    click.echo(index)
