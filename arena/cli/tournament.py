"""``truco-arena tournament run|resume|status``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import click

from ..results.tables import render, to_records, views
from ..tournament.config import ConfigError, TournamentConfig, load_config, parse_config
from ..tournament.runner import RunSummary, TournamentError, run_tournament, schedule_of
from ..tournament.store import ResultsStore, StoreError
from .errors import DOMAIN_ERROR, INTERRUPTED, USAGE_ERROR, fail
from .formatting import output_options, pick_format


@click.group()
def tournament() -> None:
    """Run round-robin tournaments between bots and keep every result."""


def default_db(config_path: Path) -> Path:
    return config_path.with_suffix(".sqlite")


def play(config: TournamentConfig, db: Path, progress: bool, fmt: str) -> RunSummary:
    """Run the missing games of ``config`` into ``db`` and print the standings."""
    try:
        with ResultsStore.create_or_open(db) as store:
            stored = store.get_meta("config")
            if stored is None:
                store.set_meta("config", config.raw)
            log_dir = db.parent / f"{db.stem}-logs"
            summary = asyncio.run(run_tournament(config, store, log_dir=log_dir, progress=progress,
                                                 announce=lambda line: click.echo(line, err=True)))
            records = to_records(list(store.games()))
    except (TournamentError, StoreError) as exc:
        raise fail(str(exc), DOMAIN_ERROR) from None
    except KeyboardInterrupt:
        raise fail(f"interrupted: finished games are kept in {db}; continue with "
                   f"`truco-arena tournament resume {db}`", INTERRUPTED) from None
    click.echo(render(views(records, ("standings",)), fmt))
    return summary


@tournament.command("run")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Results database. Default: CONFIG with the suffix .sqlite, next to it.")
@click.option("--concurrency", type=click.IntRange(1), help="Games at once (overrides the config).")
@click.option("--seed", type=int, help="Master seed (overrides the config).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar on stderr.")
@output_options
def run(config_path: Path, db: Path | None, concurrency: int | None, seed: int | None, progress: bool,
        fmt: str, as_json: bool, as_csv: bool) -> None:
    """Run the tournament described by the TOML file CONFIG and print the standings.

    Every game is written to the results database as it ends. If the run is
    interrupted (Ctrl-C, a crash, a power cut), `tournament resume` plays
    exactly the missing games.

    \b
    Example:
      truco-arena tournament run weekly.toml --concurrency 4
    """
    try:
        config = load_config(config_path)
        raw = dict(config.raw)
        if concurrency is not None:
            raw["concurrency"] = concurrency
        if seed is not None:
            raw["seed"] = seed
        config = parse_config(raw, default_name=config.name)
    except ConfigError as exc:
        raise fail(f"{config_path}: {exc}", USAGE_ERROR) from None
    db = db or default_db(config_path)
    if db.exists():
        try:
            with ResultsStore.open_existing(db) as store:
                if store.count():
                    raise fail(f"{db} already holds {store.count()} games of a tournament: use "
                               f"`truco-arena tournament resume {db}` or choose another --db", DOMAIN_ERROR)
        except StoreError:
            pass
    play(config, db, progress, pick_format(fmt, as_json, as_csv))


def _stored_config(db: Path) -> TournamentConfig:
    try:
        with ResultsStore.open_existing(db) as store:
            raw = store.get_meta("config")
    except StoreError as exc:
        raise fail(str(exc), DOMAIN_ERROR) from None
    try:
        return parse_config(raw, default_name=db.stem)
    except ConfigError as exc:
        raise fail(f"{db}: stored config is invalid: {exc}", DOMAIN_ERROR) from None


@tournament.command("resume")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar on stderr.")
@output_options
def resume(db: Path, progress: bool, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Continue the tournament recorded in DB: play exactly the games that are
    not recorded yet (none lost, none twice), then print the standings.

    \b
    Example:
      truco-arena tournament resume weekly.sqlite
    """
    config = _stored_config(db)
    play(config, db, progress, pick_format(fmt, as_json, as_csv))


@tournament.command("status")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Write JSON.")
def status(db: Path, as_json: bool) -> None:
    """Show how far the tournament in DB has got.

    \b
    Example:
      truco-arena tournament status weekly.sqlite
    """
    config = _stored_config(db)
    schedule = schedule_of(config)
    with ResultsStore.open_existing(db) as store:
        done = store.recorded_keys()
        rows = list(store.games())
    failures = sum(1 for r in rows if r.termination != "target_reached")
    info = {
        "name": config.name,
        "variant": config.variant,
        "bots": [b.name for b in config.bots],
        "scheduled": len(schedule),
        "recorded": len(done),
        "missing": len(schedule) - len(done & {g.key for g in schedule}),
        "ended_by_a_failure": failures,
        "complete": len(schedule) == len(done & {g.key for g in schedule}),
    }
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    for key, value in info.items():
        click.echo(f"{key.replace('_', ' ')}: {', '.join(value) if isinstance(value, list) else value}")
