"""``truco-arena games``: list the stored games, filtered by bot, result and ending."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.outcome import Termination
from ..games.game_record import GameRecord
from ..games.gameids import id_of_key
from ..games.store import ResultsStore
from ..results.tables import Table, render
from .formatting import output_options, pick_format


def _keep(row: GameRecord, bot: str | None, result: str | None, termination: str | None) -> bool:
    if bot is not None and bot not in (row.bot0, row.bot1):
        return False
    if result == "win" and row.winner != bot:
        return False
    if result == "loss" and (row.winner is None or row.winner == bot):
        return False
    return termination is None or row.termination == termination


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--bot", metavar="NAME", help="Only games this bot played.")
@click.option("--result", type=click.Choice(["win", "loss"]), help="Only the games --bot won (or lost).")
@click.option("--termination", type=click.Choice([t.value for t in Termination]), help="Only games that ended this way.")
@output_options
def games(db: Path, bot: str | None, result: str | None, termination: str | None,
          fmt: str, as_json: bool, as_csv: bool) -> None:
    """List the games stored in the results database DB, in schedule order.

    The game id in the first column is what `truco-arena replay` takes
    (shell-safe: no quotes needed).

    \b
    Example:
      truco-arena games weekly.sqlite --bot mybot --result loss
      truco-arena games weekly.sqlite --termination timeout --json
    """
    fmt = pick_format(fmt, as_json, as_csv)
    if result is not None and bot is None:
        raise click.UsageError("--result needs --bot (whose win or loss)")
    with ResultsStore.open_existing(db) as store:
        rows = list(store.games())
        interrupted = store.interrupted()
    if bot is not None and not any(bot in (r.bot0, r.bot1) for r in rows):
        raise click.BadParameter(f"no bot named {bot!r} in this database", param_hint="--bot")
    if termination == Termination.INTERRUPTED:
        click.echo(render([_interrupted_table(interrupted, rows, bot)], fmt))
        return
    kept = [r for r in rows if _keep(r, bot, result, termination)]
    table = Table(
        "games", "Games",
        ("game", "seat 0", "seat 1", "score 0", "score 1", "winner", "termination", "hands", "reason"),
        tuple((r.game_id, r.bot0, r.bot1, r.score0, r.score1, r.winner, r.termination, r.hands, r.reason or None)
              for r in kept),
        (f"{len(kept)} of {len(rows)} games",),
    )
    click.echo(render([table], fmt))


def _interrupted_table(interrupted: list[tuple[str, float, str]], rows: list[GameRecord], bot: str | None) -> Table:
    """The interruptions, kept apart from the results (they never count): a
    resume plays the game again, under the same id, once it is recorded."""
    recorded = {r.game_key: r for r in rows}
    # A key names its matchup first: "a|b#3a" (a tournament), "a|b#m12a" (a league).
    kept = [(key, reason) for key, _at, reason in interrupted
            if bot is None or bot in key.split("#", 1)[0].split("|")]
    table_rows = tuple((id_of_key(key), reason, "yes" if key in recorded else "no") for key, reason in kept)
    return Table("games", "Interrupted games (not results; a resume plays them again)",
                 ("game", "reason", "recorded since"), table_rows,
                 (f"{len(kept)} interruption(s); {sum(1 for r in table_rows if r[2] == 'no')} still to play",))
