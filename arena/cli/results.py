"""``truco-arena standings`` and ``truco-arena compare``: tables from stored results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..games.game_record import GameRecord, RecordError, checked
from ..games.store import ResultsStore
from ..league.config import stored_persons
from ..ratings.collusion import suspicious_pairs, without_pairs
from ..replay import ReplayError, options_of
from ..replay.stored import stored_config
from ..results.tables import VIEWS, bot_versions, compare_table, render, views
from ..results.verdicts import verdict_table
from ..tournament.formats.match_plan import MatchPlan
from .errors import DOMAIN_ERROR, fail
from .formatting import output_options, pick_format
from .verify import verify_or_fail


def load_results(db: Path) -> tuple[list[GameRecord], Any, dict[str, str]]:
    """The records, the stored config and each bot's latest version of ``db``, opened read-only."""
    try:
        with ResultsStore.open_existing(db) as store:
            rows = list(store.games())
            return checked(rows), store.get_meta("config"), bot_versions(rows)
    except RecordError as exc:  # a row edited by hand into nonsense
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None


def load_owners(db: Path) -> dict[str, str]:
    """Each bot's owner as a league recorded it (``meta.league_owners``); none for a tournament."""
    with ResultsStore.open_existing(db) as store:
        owners = store.get_meta("league_owners")
    return {str(k): str(v) for k, v in owners.items()} if isinstance(owners, dict) else {}


def rules_played(stored: Any) -> dict[str, Any] | None:
    """The variant and options a stored config (tournament or league) was played with, or None if it cannot be read."""
    try:
        return options_of(stored).to_dict()
    except ReplayError:
        return None


def match_plan_of(stored: Any) -> MatchPlan | None:
    """The plan of a stored match or gauntlet config; None for anything else, or a config that cannot be read."""
    try:
        config = stored_config(stored).tournament
    except ReplayError:
        return None
    return None if config is None else config.match


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--view", "view_names", multiple=True, type=click.Choice((*VIEWS, "all")),
              help="Which tables (repeatable). Default: standings. 'all' prints every view.")
@click.option("--anchor", metavar="BOT", help="Fix this bot at Elo 1500 instead of the mean.")
@click.option("--bootstrap", type=click.IntRange(0, 100_000), default=0, show_default=True,
              help="Intervals from N bootstrap resamples of duplicate pairs instead of the fit.")
@click.option("--verify", is_flag=True,
              help="First check every stored game: its signature and link (with the key file DB.key), its replay "
                   "from its seed and the evidence of its fault; refuse (exit 1, naming each bad row and what is "
                   "wrong) if any does not hold, or if the signatures could not be checked.")
@click.option("--digest", is_flag=True,
              help="Print the digest of the whole results file and nothing else: announce it, and anyone holding "
                   "the published file recomputes it (docs/results-store.md).")
@click.option("--without-suspicious", is_flag=True,
              help="Rate without the games between the suspicious pairs of --view pairs (a sybil folding to its "
                   "partner); the database keeps them.")
@output_options
def standings(db: Path, view_names: tuple[str, ...], anchor: str | None, bootstrap: int, verify: bool,
              digest: bool, without_suspicious: bool, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Print ratings and tables computed from the results database DB.

    Views: standings (rank, Elo from a joint Bradley-Terry fit with 95%
    interval, likelihood of superiority over the next bot), cross (each
    pair's score), pairs (duplicate-pair statistics), failures (timeouts,
    disconnects, illegal actions per bot, then each such game with its id
    and reason), ladder (+30/-20 points), cpu (CPU seconds per game of each launched bot).

    The database is opened read-only: looking never changes it. With
    --verify every game is first replayed and checked against its row and
    the tournament's schedule (see docs/results-store.md). The pairs view
    also flags pairs whose results against each other are far from what
    their ratings predict; --without-suspicious rates without their games.

    \b
    Example:
      truco-arena standings weekly.sqlite --view all --format github
      truco-arena standings weekly.sqlite --json
      truco-arena standings weekly.sqlite --verify
      truco-arena standings weekly.sqlite --digest
    """
    if verify:
        verify_or_fail(db, "its standings are not shown")
    if digest:
        with ResultsStore.open_existing(db) as store:
            games, text = store.digest()
        click.echo(text)
        click.echo(f"the digest of {db}'s {games} stored games and its config", err=True)
        return
    records, stored, versions = load_results(db)
    if not any(r.winner for r in records):
        raise fail(f"{db}: no finished games yet", DOMAIN_ERROR)
    names = VIEWS if "all" in view_names else (view_names or ("standings",))
    if anchor is not None and anchor not in {r.bot0 for r in records} | {r.bot1 for r in records}:
        raise click.BadParameter(f"no bot named {anchor!r} in this database", param_hint="--anchor")
    if without_suspicious:
        flagged = suspicious_pairs(records)
        records = without_pairs(records, flagged)
        click.echo(f"rated without the {sum(s.games for s in flagged)} game(s) of {len(flagged)} suspicious "
                   f"pair(s){': ' if flagged else ''}{', '.join(f'{s.winner}-{s.loser}' for s in flagged)}", err=True)
    try:
        tables = views(records, names, anchor=anchor, bootstrap=bootstrap, versions=versions, owners=load_owners(db),
                       persons=stored_persons(stored))
    except RecordError as exc:  # rows that contradict each other, e.g. a duplicate pair without swapped seats
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
    plan = match_plan_of(stored)
    if plan is not None and "standings" in names:  # a match's database: its verdicts beside its standings
        with ResultsStore.open_existing(db) as store:
            tables.append(verdict_table(plan, list(store.games()), run_over=False))
    click.echo(render(tables, pick_format(fmt, as_json, as_csv)))



@click.command()
@click.argument("a", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("b", type=click.Path(dir_okay=False, path_type=Path))
@output_options
def compare(a: Path, b: Path, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Show how the ranking changed from results database A to B: rank moves,
    Elo deltas with 95% intervals, Spearman and Kendall rank correlation.

    Warns on stderr when A and B were played with a different variant or
    options, since their ratings then measure different games.

    \b
    Example:
      truco-arena compare last-week.sqlite this-week.sqlite --format github
    """
    (old, old_config, _), (new, new_config, _) = load_results(a), load_results(b)
    old_rules, new_rules = rules_played(old_config), rules_played(new_config)
    if old_rules is None or new_rules is None:
        click.echo("warning: cannot tell which rules A or B was played with", err=True)
    elif old_rules != new_rules:
        differences = ", ".join(f"{key} {old_rules.get(key)} vs {new_rules.get(key)}"
                                for key in sorted(old_rules.keys() | new_rules.keys())
                                if old_rules.get(key) != new_rules.get(key))
        click.echo(f"warning: A and B were played with different rules ({differences})", err=True)
    table = compare_table(old, new)
    click.echo(render([table], pick_format(fmt, as_json, as_csv)))

