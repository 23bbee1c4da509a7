"""A tournament run as a library call: ``Tournament.run(config, db, hooks)``.

It owns what every way of starting a run needs, whoever calls it (the
``tournament``, ``demo``, ``match`` and ``ladder`` commands, a script): one
process per results file (the lock beside it), the stored games checked
before a resume adds to them, the store and its secret, Ctrl-C and SIGTERM
turned into a clean stop, and every game recorded as it ends. It prints
nothing: what a person should read goes to ``hooks.say``, and the caller
shows the results from the store as it likes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import DomainError

from .. import interrupt
from ..games.game_record import GameRecord
from ..games.playing import ArenaHook
from ..games.private_files import RunLock, make_private_dir
from ..games.scheduler import Scheduler
from ..games.store import ResultsStore
from ..match.monitor import run_match
from ..replay.audit import Verified, verify_store
from ..tournament.config import TournamentConfig, stored_form
from ..tournament.runner import RunSummary, StopRequest, run_tournament
from ..tournament.scale import RunPlan

CONFIG_DIR_META = "config_dir"  # the config file's folder, where its relative paths start


def _quiet(line: str) -> None:
    """Says nothing."""


def _unheard(row: GameRecord) -> None:
    """Hears nothing."""


@dataclass(frozen=True)
class Hooks:
    """What a caller hears of a run, and what it adds to it."""

    say: Callable[[str], None] = _quiet
    """One line for the organizer (the CLI: stderr): notices, the match's live line, announcements."""
    progress: bool = False
    """Show the progress bar (on stderr)."""
    on_arena: ArenaHook | None = None
    """Called once the arena is up (the live page)."""
    on_start: Callable[[list[GameRecord]], None] | None = None
    """Called with the games the file holds once it is checked and open, before any is played."""
    on_record: Callable[[GameRecord], None] = _unheard
    """Called with each game as it is recorded (interim standings)."""
    check: Callable[[Verified, bool], None] | None = None
    """Judges the check of the stored games before a resume (the verification and
    whether the file predates signed rows); raises to refuse. None: any finding refuses."""
    scheduler: Scheduler | None = None
    """The games to play instead of the config's format (``truco-arena play``: one game at a time, on request)."""


class AlreadyPlayedError(DomainError):
    """A new run was asked for a results file that holds games already."""


class StoredRowsError(DomainError):
    """A stored row does not hold: the run does not add to the file."""


@dataclass(frozen=True)
class Finished:
    """What a run leaves: its summary and every game the file now holds."""

    summary: RunSummary
    """Games recorded by this run, and those lost by a failing bot."""
    rows: list[GameRecord]
    """Every stored game, this run's and the earlier ones'."""


class Tournament:
    """Runs tournaments into results files."""

    @staticmethod
    def run(config: TournamentConfig, db: Path, *, new: bool = False, hooks: Hooks = Hooks(),
            plan: RunPlan | None = None) -> Finished:
        """Play the missing games of ``config`` into ``db``. ``new``: start
        afresh (refused if ``db`` holds games); otherwise resume it, after
        every stored game is checked. ``plan``: where the games are played
        (default: as the config asks, on this machine's cores).
        ``TournamentInterruptedError`` when a signal stopped it (the finished
        games are kept)."""
        plan = plan or RunPlan.of(config.scale)
        log_dir = db.parent / f"{db.stem}-logs"
        with RunLock(db):
            if not new:  # under the lock and before anything is written: a forged row stops the resume
                _check(db, hooks)
            with ResultsStore.create_or_open(db) as store:
                for notice in store.notices:  # a migration: the secret moved out to the key file
                    hooks.say(notice)
                if new:
                    _start_afresh(store, config, db)
                make_private_dir(log_dir)
                if hooks.on_start is not None:
                    hooks.on_start(list(store.games()))
                summary = asyncio.run(_play(config, plan, store, log_dir, hooks))
                return Finished(summary, list(store.games()))


def _check(db: Path, hooks: Hooks) -> None:
    with ResultsStore.open_existing(db) as store:
        verified = verify_store(store)
        legacy = store.version < 7
    if hooks.check is not None:
        hooks.check(verified, legacy)
    elif verified.findings or (verified.unsigned is not None and not legacy):
        raise StoredRowsError(f"{db}: stored rows do not hold ({len(verified.findings)} found); refusing to resume")


def _start_afresh(store: ResultsStore, config: TournamentConfig, db: Path) -> None:
    if store.count():
        raise AlreadyPlayedError(f"{db} already holds {store.count()} games of a tournament: use "
                                 f"`truco-arena tournament resume {db}` or choose another --db")
    # A database left by a run that recorded nothing: this config and its
    # seed (or a fresh secret) replace what that run stored.
    store.set_meta("config", stored_form(config))
    store.set_meta(CONFIG_DIR_META, str(config.base_dir) if config.base_dir is not None else None)
    store.set_secret(None)


async def _play(config: TournamentConfig, plan: RunPlan, store: ResultsStore, log_dir: Path,
                hooks: Hooks) -> RunSummary:
    """The run, with SIGINT and SIGTERM turned into a clean stop (a second one ends the process at once)."""
    stop = StopRequest()
    with interrupt.clean_stop(asyncio.get_running_loop(), stop.request):
        if config.match is not None:  # until its SPRTs decide, with the live line and verdicts
            return await run_match(config, store, log_dir=log_dir, stop_request=stop, say=hooks.say,
                                   on_arena=hooks.on_arena, scale=plan.scale if plan.asked else None)
        return await run_tournament(config, store, log_dir=log_dir, progress=hooks.progress, stop_request=stop,
                                    announce=hooks.say, on_arena=hooks.on_arena, scale=plan.scale,
                                    on_record=hooks.on_record, scheduler=hooks.scheduler)
