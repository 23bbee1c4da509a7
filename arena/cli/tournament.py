"""``truco-arena tournament run|resume|status``."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import interrupt
from ..engine.outcome import Termination
from ..games.game_record import GameRecord, checked
from ..games.gameids import id_of_key
from ..games.keyfile import key_path
from ..games.scheduler import Scheduler
from ..games.seeds import TournamentSecret
from ..games.settings import ConfigError
from ..games.store import ResultsStore
from ..league.config import is_league
from ..match.monitor import MatchMonitor, summary_line
from ..replay.audit import Verified
from ..replay.replayer import ReplayError
from ..replay.stored import stored_config
from ..results.tables import Table, render, views
from ..results.verdicts import verdict_table
from ..run import CONFIG_DIR_META, Hooks, Tournament
from ..sandbox import SandboxUnavailableError
from ..tournament.config import (
    TournamentConfig,
    check_environment,
    check_reachable,
    load_config,
    with_overrides,
)
from ..tournament.runner import RunSummary, TournamentInterruptedError, schedule_of, scheduler_of
from ..tournament.scale import MAX_WORKERS, RunPlan
from ..tournament.supervisor import containment_line
from ..web.option import missing_extra, split_address
from .errors import DOMAIN_ERROR, INTERRUPTED, USAGE_ERROR, fail
from .formatting import output_options, pick_format
from .interim import DEFAULT_EVERY, InterimStandings
from .verify import judge

if TYPE_CHECKING:  # the live page needs the report extra; imported only when asked for
    from ..web.server import LiveHook


@click.group()
def tournament() -> None:
    """Run round-robin tournaments between bots and keep every result."""


def default_db(config_path: Path) -> Path:
    return config_path.with_suffix(".sqlite")


def play(config: TournamentConfig, db: Path, progress: bool, fmt: str, *, new: bool = False,
         http: str | None = None, kept: bool = True, standings_every: int = 0,
         http_linger: float | None = None,
         tables: Callable[[Sequence[GameRecord]], list[Table]] | None = None,
         scheduler: Scheduler | None = None, workers: int | None = None,
         ray_address: str | None = None) -> RunSummary:
    """Run the missing games of ``config`` into ``db`` and print the standings.

    One process per database (a lock next to it); Ctrl-C or SIGTERM stop the
    run cleanly: running games are recorded as interrupted and the exit code
    is 130 or 143. ``new``: start the tournament afresh (``run``), refused
    if ``db`` already holds games; otherwise continue it (``resume``).
    ``kept``: False when ``db`` is a temporary file that is deleted afterwards
    (``match`` without ``--db``), so an interruption offers no resume.
    ``standings_every``: print interim standings every N recorded games (0: never).
    ``tables``: what to print from the stored rows instead of the standings (``ladder``).
    ``scheduler``: the games to play instead of the config's format (``play``).
    ``workers``, ``ray_address``: where this run plays, over what the config asks."""
    log_dir = db.parent / f"{db.stem}-logs"
    check_environment(config)
    check_reachable(config, {"results database": db, "key file": key_path(db), "logs folder": log_dir})
    live = _live_hook(http, db)  # a bad --http is refused before anything is said or started
    containment = _containment(config)
    # The level in one line: always where guarantees do not hold; with the
    # progress display otherwise (a run's quiet stderr keeps only its errors).
    if containment is not None and (progress or "does not hold" in containment):
        click.echo(containment, err=True)
    plan = RunPlan.of(config.scale, workers=workers, ray_address=ray_address)
    interim = InterimStandings(standings_every, (), _say)
    hooks = Hooks(say=_say, progress=progress, on_arena=live, on_start=interim.start, on_record=interim,
                  check=lambda verified, legacy: _judge(db, verified, legacy), scheduler=scheduler)
    try:
        finished = Tournament.run(config, db, new=new, hooks=hooks, plan=plan)
        summary, rows = finished.summary, finished.rows
        records = checked(rows)
    except TournamentInterruptedError as exc:
        raise fail(f"{exc}: {_kept_or_not(db, kept, running=True)}", exc.exit_code) from None
    except KeyboardInterrupt:  # a Ctrl-C before the run's own handler was in place
        code = interrupt.exit_code(INTERRUPTED)
        raise fail(f"interrupted: {_kept_or_not(db, kept, running=False)}", code) from None
    for key, reason in summary.failures.items():
        click.echo(f"game {id_of_key(key)}: {reason}", err=True)
    if containment is not None and "does not hold" in containment:
        click.echo(containment, err=True)  # the weaker guarantees, again beside the results
    if tables is not None:
        click.echo(render(tables(rows), fmt))
    else:
        shown = views(records, ("standings", "pairs") if config.match else ("standings",))
        if config.match is not None:  # the verdicts, in the same output and format as the tables
            shown.append(verdict_table(config.match, rows))
        click.echo(render(shown, fmt))
    if live is not None:  # the finished page stays up until Ctrl-C (or --http-linger)
        live.wait_and_close(http_linger)
    return summary


def play_new(config: TournamentConfig, db: Path | None, stem: str, progress: bool, fmt: str,
             tables: Callable[[Sequence[GameRecord]], list[Table]] | None = None,
             workers: int | None = None) -> None:
    """``play`` a new run into ``db``, or into a temporary ``stem``.sqlite
    deleted at the end (an interruption then offers no resume)."""
    if db is not None:
        play(config, db, progress, fmt, new=True, tables=tables, workers=workers)
        return
    with tempfile.TemporaryDirectory(prefix=f"truco-{stem}-") as tmp:
        play(config, Path(tmp) / f"{stem}.sqlite", progress, fmt, new=True, kept=False, tables=tables,
             workers=workers)


def _containment(config: TournamentConfig) -> str | None:
    try:
        return containment_line(config)
    except SandboxUnavailableError as exc:
        raise fail(f"sandbox: {exc}", USAGE_ERROR) from None


def _kept_or_not(db: Path, kept: bool, running: bool) -> str:
    """What became of the results after an interruption, and how to go on."""
    if not kept:
        return ("the results were in a temporary file, now deleted; to keep a match you can resume, "
                "run it with --db FILE")
    games = "finished games are kept in " + str(db) + (" and running ones were recorded as interrupted"
                                                        if running else "")
    return f"{games}; continue with `truco-arena tournament resume {db}`"


def _live_hook(http: str | None, db: Path) -> LiveHook | None:
    """The hook that starts the live page on ``http`` (HOST:PORT), if asked for."""
    if http is None:
        return None
    split_address(http)
    if (missing := missing_extra()) is not None:
        raise fail(missing, DOMAIN_ERROR)
    from ..web.server import live_hook
    return live_hook(db, http, lambda line: click.echo(line, err=True))


def _say(line: str) -> None:
    click.echo(line, err=True)


def _judge(db: Path, verified: Verified, legacy: bool) -> None:
    judge(db, verified, legacy, "refusing to resume", quiet=True, unsigned_ok=True)


@tournament.command("run")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Results database. Default: CONFIG with the suffix .sqlite, next to it.")
@click.option("--concurrency", type=click.IntRange(1), help="Games at once, in each worker (overrides the config).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help="Worker processes, each with its own arena and copies of the launched bots (overrides the "
                   "config). Default: one per core (a match or gauntlet: none unless asked). 1 plays every "
                   "game in this process.")
@click.option("--ray", "ray_address", metavar="ADDRESS",
              help="Play on the Ray cluster at ADDRESS (HOST:PORT, or auto) instead of local workers; "
                   "needs the ray extra. See docs/scaling.md.")
@click.option("--seed", type=int,
              help="Seed the deals derive from (overrides the config). Reproducible, but anyone who knows "
                   "or guesses it can predict every deal: see docs/fair-play.md. Default: a fresh secret.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar on stderr.")
@click.option("--http", metavar="HOST:PORT",
              help="Serve the live page (report, games in progress, on every local worker) here. When the "
                   "run ends the page says so and stays up until Ctrl-C (or --http-linger).")
@click.option("--http-linger", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --http: keep the finished page up this long (default: until Ctrl-C).")
@click.option("--standings-every", type=click.IntRange(0), default=DEFAULT_EVERY, show_default=True, metavar="N",
              help="Print the standings so far on stderr every N recorded games (0: only at the end; a match "
                   "shows its live line instead).")
@output_options
def run(config_path: Path, db: Path | None, concurrency: int | None, workers: int | None, ray_address: str | None,
        seed: int | None, progress: bool, http: str | None, http_linger: float | None, standings_every: int,
        fmt: str, as_json: bool,
        as_csv: bool) -> None:
    """Run the tournament described by the TOML file CONFIG and print the standings.

    Every game is written to the results database as it ends. If the run is
    interrupted (Ctrl-C, a crash, a power cut), `tournament resume` plays
    exactly the missing games. Ctrl-C and SIGTERM stop it cleanly: games
    being played are recorded as interrupted, and the exit code is 130
    (Ctrl-C) or 143 (SIGTERM). One process at a time per database.

    Without a seed the deals come from a fresh secret that no bot can
    predict; see docs/fair-play.md.

    Games between bots the arena launches are spread over worker processes
    (--workers, default one per core) or a Ray cluster (--ray); the results
    are the same whatever the number of workers.

    \b
    Example:
      truco-arena tournament run weekly.toml --concurrency 4 --workers 2
    """
    try:
        config = with_overrides(load_config(config_path), concurrency=concurrency, seed=seed)
    except ConfigError as exc:
        raise fail(f"{config_path}: {exc}", USAGE_ERROR) from None
    play(config, db or default_db(config_path), progress, pick_format(fmt, as_json, as_csv), new=True, http=http,
         standings_every=standings_every, http_linger=http_linger, workers=workers, ray_address=ray_address)


def _stored_config(db: Path) -> TournamentConfig:
    with ResultsStore.open_existing(db) as store:
        raw = store.get_meta("config")
        base = store.get_meta(CONFIG_DIR_META)
    if is_league(raw):
        raise fail(f"{db}: a league's database, not a tournament's: use `truco-arena league status {db}`",
                   USAGE_ERROR)
    try:
        config = stored_config(raw, default_name=db.stem, base=Path(base) if isinstance(base, str) else None)
    except ReplayError as exc:
        raise fail(f"{db}: {exc}", DOMAIN_ERROR) from None
    assert config.tournament is not None  # not a league's: a tournament's or a ReplayError
    return config.tournament


@tournament.command("resume")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help="Worker processes for this run (default: as its config says). The results do "
                   "not depend on it.")
@click.option("--ray", "ray_address", metavar="ADDRESS", help="Play on the Ray cluster at ADDRESS for this run.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar on stderr.")
@click.option("--http", metavar="HOST:PORT", help="Serve the live page (report, games in progress) here.")
@click.option("--http-linger", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --http: keep the finished page up this long (default: until Ctrl-C).")
@click.option("--standings-every", type=click.IntRange(0), default=DEFAULT_EVERY, show_default=True, metavar="N",
              help="Print the standings so far on stderr every N recorded games (0: only at the end; a match "
                   "shows its live line instead).")
@output_options
def resume(db: Path, workers: int | None, ray_address: str | None, progress: bool, http: str | None,
           http_linger: float | None, standings_every: int, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Continue the tournament recorded in DB: play exactly the games that are
    not recorded yet (none lost, none twice), then print the standings.

    First every stored game is replayed from its seed and action log: a row
    whose replay does not give its stored result stops the resume (exit 1,
    naming the game) before anything is written.

    \b
    Example:
      truco-arena tournament resume weekly.sqlite --workers 4
    """
    play(_stored_config(db), db, progress, pick_format(fmt, as_json, as_csv), http=http,
         standings_every=standings_every, http_linger=http_linger, workers=workers, ray_address=ray_address)


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
    with ResultsStore.open_existing(db) as store:
        winners = store.winners()
        done = set(winners)
        rows = list(store.games())
        interrupted = {key for key, _at, _reason in store.interrupted()} - done
        secret = store.secret()
    scheduler = scheduler_of(config, secret or TournamentSecret.fresh())
    known = {g.key for g in schedule_of(config, secret, winners)}  # a Swiss system's later rounds are not known yet
    failures = sum(1 for r in rows if r.termination is not Termination.TARGET_REACHED)
    info: dict[str, Any] = {
        "name": config.name,
        "variant": config.variant,
        "pairing": config.pairing.value,
        "bots": [b.name for b in config.bots],
        "scheduled": scheduler.total(),
        "recorded": len(done),
        "missing": scheduler.total() - len(done & known),
        "interrupted": len(interrupted),
        "ended_by_a_failure": failures,
        "complete": scheduler.total() == len(done & known),
    }
    if config.match is not None:
        # A match plays until its SPRTs decide: the schedule is only its cap, so
        # "scheduled" and "missing" would tell another story than the verdicts.
        monitor = MatchMonitor(config.match, rows, lambda line: None)
        statuses = monitor.statuses()
        del info["scheduled"], info["missing"]
        info = {"format": config.format.name(), **info, "max_games": config.match.games,
                "complete": monitor.all_decided,
                "verdicts": [summary_line(s) for s in statuses],
                "match": verdict_table(config.match, rows, run_over=False).as_dicts()}
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    for key, value in info.items():
        if key == "match":
            continue  # the verdicts line says it for people
        click.echo(f"{key.replace('_', ' ')}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
