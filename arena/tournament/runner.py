"""Run a tournament: start an arena, launch the bots, play the missing games
of the schedule with up to N at once, and record each game as it ends.

Reproducible: every game's deal seed and the seeds bots get for their own
randomness derive from the tournament secret (kept in the database's key file),
so the results are the same whether games run one at a time or many at once,
and on resume. Fair: bots see only opaque game ids and unrelated seeds, and
the second game of a duplicate pair starts only after the first has ended.

Team games (4 or 6 seats): a game is still between two bots, ``bot0`` for
team 0 (even seats) and ``bot1`` for team 1 (odd seats); each seat of a bot
is a stream from a different process of it.

A bot that fails stops nothing: one that is absent, or crashed more often
than it is restarted, loses each game it cannot play once the config's
``absent_wait_seconds`` have passed (``forfeit_row``), and the others play on.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from arena.errors import ArenaError, DomainError

from ..games.dispatch import Dispatcher, Ranking
from ..games.game_record import GameRecord
from ..games.orders import GameOrder, GameResult, Unplayed, order_of
from ..games.playing import ArenaHook, play_dispatched
from ..games.schedule import ScheduledGame
from ..games.scheduler import Item, Scheduler, Stages, Winners
from ..games.seeds import SECRET_BYTES, TournamentSecret
from ..games.settings import clear_text_warning
from ..games.store import ResultsStore
from ..sandbox import Sandbox, SandboxUnavailableError
from ..server import Arena, ListenError
from .config import TournamentConfig
from .launcher import BotStartError
from .scale import DEFAULT_RAY_BATCH_PAIRS, ScaleOut
from .scaleout.batches import Batch, batches_of, units_of
from .scaleout.coordinator import Worker, WorkerFailedError, play_on_workers
from .scaleout.local import CrashLedger, LocalWorker
from .scaleout.progress import LiveGames
from .scaleout.ray_backend import RayUnavailableError, RayWorker, connect, disconnect
from .supervisor import BotStartFailedError, Supervisor, open_sandbox

__all__ = ["RunSummary", "Supervisor", "TournamentError", "run_tournament", "schedule_of", "scheduler_of",
           "tournament_secret"]

log = logging.getLogger("arena.tournament")

# Games from workers are committed together this often: each commit waits for
# the disk (about 4 ms here), which one game at a time would cap at ~250 games/s.
GROUP_COMMIT_SECONDS = 0.05


class TournamentError(DomainError, RuntimeError):
    """The tournament cannot go on (a bot would not start, nobody connected...)."""


class TournamentInterruptedError(ArenaError):
    """A tournament stopped on a signal: no new game starts, running games end
    as interrupted and are recorded as such, and the process exits 128 + the
    signal number (130 for Ctrl-C, 143 for SIGTERM), the shell's convention."""

    def __init__(self, signum: int, played: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name} after {played} game(s) this run")
        self.signum = signum
        self.played = played
        self.exit_code = 128 + signum  # the shell's convention for a process a signal stopped


class StopRequest:
    """Set once by a signal handler (or a test); the runner waits on it."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._event: asyncio.Event | None = None

    def request(self, signum: int = signal.SIGINT) -> None:
        if self.signal is None:
            self.signal = signum
        self._get_event().set()

    async def wait(self) -> None:
        await self._get_event().wait()

    def _get_event(self) -> asyncio.Event:
        # Created on first use, inside the running loop.
        if self._event is None:
            self._event = asyncio.Event()
            if self.signal is not None:
                self._event.set()
        return self._event


@dataclass(frozen=True)
class RunSummary:
    played: int
    """Games recorded this run."""
    failures: dict[str, str] = field(default_factory=dict)
    """Games this run that a bot lost by failing, with the reason (key -> reason)."""


def scheduler_of(config: TournamentConfig, secret: Ranking) -> Scheduler:
    """The scheduler of ``config``'s format (``arena/tournament/formats``)."""
    return config.format.scheduler(config.field, secret)


# A Swiss system breaks ties with the secret; without it (a file that lost
# it) its rounds after the first cannot be told, and this stands in.
_NO_SECRET = TournamentSecret(bytes(SECRET_BYTES))


def schedule_of(config: TournamentConfig, secret: Ranking | None = None, winners: Winners | None = None
                ) -> list[ScheduledGame]:
    """The games of ``config`` that the results in ``winners`` fix, in seq
    order: all of a round robin, match or gauntlet; a Swiss system's rounds so far."""
    scheduler, games = scheduler_of(config, secret or _NO_SECRET), []
    while stage := scheduler.next(winners or {}):
        games += stage
    return games


def tournament_secret(store: ResultsStore, config: TournamentConfig) -> TournamentSecret:
    """The secret of the tournament in ``store``, chosen on its first run: from
    the config's seed if it has one, fresh otherwise. Resume reuses it."""
    if (stored := store.secret()) is not None:
        return stored
    if store.count():
        raise TournamentError(f"{store.path}: its games were recorded without a tournament secret "
                              f"(an older version); start a new tournament")
    secret = TournamentSecret.fresh() if config.seed is None else TournamentSecret.from_seed(config.seed)
    store.set_secret(secret)
    return secret


class Progress:
    """A progress line: games done, rate and time left, on stderr."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._t0 = time.monotonic()
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._enabled = enabled
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        # On a terminal redraw in place; in logs print at most every 5 s.
        if self._enabled and (self._tty or now - self._last >= 5 or self.done == self.total):
            self._last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.monotonic()) - self._t0
        played = self.done - self._start_done
        rate = played / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        eta = "--" if left == float("inf") else f"{left:.0f}s"
        return f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games  {rate:.2f} games/s  left {eta}"

    def _draw(self, now: float) -> None:
        end = "\r" if self._tty and self.done < self.total else "\n"
        self._stream.write(self.line(now) + end)
        self._stream.flush()


class _Recorder:
    """Writes each outcome to the store as it arrives, wherever it was played."""

    def __init__(self, store: ResultsStore, bar: Progress, on_record: Callable[[GameRecord], None],
                 stages: Stages) -> None:
        self.store, self.bar, self.on_record, self.stages = store, bar, on_record, stages
        self.played = 0
        self.failures: dict[str, str] = {}
        self.pending: list[GameRecord] = []

    def __call__(self, outcome: GameResult) -> bool:
        """True if ``outcome`` was a result; an ``Unplayed`` game is recorded as
        interrupted (not a result: played again on resume)."""
        self.later(outcome)
        self.flush()
        return not isinstance(outcome, Unplayed)

    def later(self, outcome: GameResult) -> None:
        """Record ``outcome`` with the next ``flush``: one transaction (one
        disk sync) for all the games that ended meanwhile. A game lost by a
        crash before its flush was never recorded, and is played on resume."""
        if isinstance(outcome, Unplayed):
            self.store.record_interrupted(outcome.game_key, outcome.reason)
        else:
            self.pending.append(outcome)

    def flush(self) -> None:
        if self.pending:
            rows = tuple(self.pending)
            self.pending.clear()  # tried once: a StoreError names them, and the run stops
            self.store.record_together(rows)
            for row in rows:
                self._recorded(row)

    def _recorded(self, row: GameRecord) -> None:
        if row.faulty_bot is not None:
            self.failures[row.game_key] = row.reason
        self.stages.won(row.game_key, row.winner)
        self.on_record(row)
        self.played += 1
        self.bar.advance()


async def run_tournament(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    progress: bool = True,
    announce: Callable[[str], None] = lambda line: None,
    stop_request: StopRequest | None = None,
    should_play: Callable[[ScheduledGame], bool] | None = None,
    on_record: Callable[[GameRecord], None] = lambda row: None,
    on_arena: ArenaHook | None = None,
    scale: ScaleOut | None = None,
    scheduler: Scheduler | None = None,
) -> RunSummary:
    """Play the games of ``config`` not yet in ``store``. When ``stop_request``
    fires, no new game starts, running games end as interrupted (recorded in
    the store's ``interrupted`` table, played again on resume) and
    ``TournamentInterruptedError`` is raised.

    With ``scale`` (several workers, or a Ray cluster), the games between
    launched bots are played by workers, each with its own arena and bots;
    games with a bot that connects by itself stay on this process's arena.

    A match stops early through the two hooks: ``should_play`` is asked
    before each game starts here, or as the batch that holds it goes out to
    a worker (False: the game is left unplayed, not recorded); ``on_record``
    hears of each game once it is in the store.

    ``scheduler`` replaces the config's format (``truco-arena play``: the
    games a person asks for, one at a time, in the seat they chose)."""
    secret = tournament_secret(store, config)
    if (warning := clear_text_warning(config.address, config.tls_cert is not None)) is not None:
        announce(f"warning: {warning}")
    stopper = stop_request or StopRequest()
    stages = Stages(scheduler or scheduler_of(config, secret), store.winners())
    todo = stages.todo()
    if not todo:
        return RunSummary(0)
    launched = {b.name for b in config.bots if b.command is not None}
    spreads = scale is not None and scale.spreads
    # Workers play the games between launched bots. A format with stages (a
    # Swiss system) goes to them stage by stage when every bot is launched;
    # with a bot that connects by itself it stays here, where that bot plays.
    staged = spreads and not stages.all_known and len(launched) == len(config.bots)
    farmed: list[Item] = []
    if staged:
        farmed = todo
    elif spreads and stages.all_known:
        farmed = [(seq, g) for seq, g in todo if g.bot0 in launched and g.bot1 in launched]
    farmed_keys = {g.key for _, g in farmed}
    here = [item for item in todo if item[1].key not in farmed_keys]
    bar = Progress(stages.scheduler.total(), stages.given - len(todo), enabled=progress)
    record = _Recorder(store, bar, on_record, stages)
    stopping = asyncio.Event()
    # The tournament's own arena listens on the config's address even when
    # workers play every game: bots that connect by themselves and the live
    # page find it there, and a wrong address is told at once.
    arena = Arena(config.tokens)
    # Bots launched here live in a sandbox whose only way out is a Unix socket the arena listens on.
    try:
        sandbox = open_sandbox(config) if any(g.bot0 in launched or g.bot1 in launched for _, g in here) \
            or (bool(launched) and not stages.all_known and not staged) else None
    except SandboxUnavailableError as exc:
        raise TournamentError(str(exc)) from None
    try:
        await arena.start(config.address, tls_cert=config.tls_cert, tls_key=config.tls_key,
                          unix_socket=sandbox.socket if sandbox is not None else None)
    except ListenError as exc:  # cannot bind, or a TLS file cannot be read
        if sandbox is not None:
            sandbox.close()
        raise TournamentError(str(exc)) from None
    if sandbox is not None:
        sandbox.socket_ready()
    # A live page sees the games on workers too (local or Ray tasks), replayed here from their progress.
    live = LiveGames(arena, config.options) if on_arena is not None and farmed else None
    try:
        stop_hook = await on_arena(live or arena) if on_arena is not None else None
    except (OSError, ValueError) as exc:  # e.g. the live page cannot bind its address
        await arena.stop(grace=0)
        if sandbox is not None:
            sandbox.close()
        raise TournamentError(str(exc)) from None

    async def stop_on_request() -> None:
        await stopper.wait()
        stopping.set()
        await arena.stop(grace=0)

    parts = []
    if here:
        parts.append(_play_here(arena, config, here, stages, secret, record, stopping, log_dir=log_dir,
                                absent_wait=config.absent_wait, announce=announce,
                                should_play=should_play or (lambda game: True),
                                sandbox=sandbox))
    if farmed:
        assert scale is not None
        parts.append(_play_farmed(config, farmed, secret, scale, record, stopping, log_dir=log_dir,
                                  announce=announce, live=live, more=stages.todo if staged else None,
                                  should_play=should_play))
    watcher = asyncio.create_task(stop_on_request())
    try:
        await _all_or_none(parts)
    finally:
        if stopper.signal is None:
            watcher.cancel()
        # Once a stop began, let it finish: cut short, the arena's server would stay half open.
        await asyncio.gather(watcher, return_exceptions=True)
        await arena.stop(grace=0)
        if stop_hook is not None:
            await stop_hook()
        if sandbox is not None:
            sandbox.close()
    store.check_in_place()  # a file deleted after the last game: its games are not kept either
    if stopper.signal is not None:
        raise TournamentInterruptedError(stopper.signal, record.played)
    return RunSummary(record.played, record.failures)


async def _flush_every(record: _Recorder, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        record.flush()


async def _all_or_none(parts: list[Coroutine[Any, Any, None]]) -> None:
    """Run ``parts`` together; the first to fail cancels the others."""
    tasks = [asyncio.ensure_future(p) for p in parts]
    try:
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _play_here(
    arena: Arena, config: TournamentConfig, todo: list[tuple[int, ScheduledGame]], stages: Stages,
    secret: TournamentSecret, record: _Recorder, stopping: asyncio.Event, *, log_dir: Path, absent_wait: float,
    announce: Callable[[str], None], should_play: Callable[[ScheduledGame], bool], sandbox: Sandbox | None,
) -> None:
    """Play ``todo`` on this process's arena, up to ``concurrency`` at once,
    then the stages still to come (none unless ``stages`` has more)."""
    host = config.address.rsplit(":", 1)[0]
    address = f"{'127.0.0.1' if host in ('0.0.0.0', '[::]', '') else host}:{arena.port}"
    streams = min(config.concurrency, len(todo))
    bots = Supervisor(arena, config, address, streams, log_dir, absent_wait=absent_wait, sandbox=sandbox)
    dispatcher = Dispatcher(todo, set(stages.winners), secret, None if stages.all_known else stages.todo)
    seats = config.options.seats

    async def close_on_stop() -> None:
        await stopping.wait()
        dispatcher.close()

    external = [b.name for b in config.bots if b.command is None]
    if external:
        announce(f"arena listening on {address}; waiting up to {absent_wait:g} s for "
                 f"{', '.join(external)} to connect")
    closer = asyncio.create_task(close_on_stop())
    try:
        try:
            await bots.start()
        except (BotStartError, BotStartFailedError, OSError) as exc:
            raise TournamentError(str(exc)) from None
        await _wait_for_bots(config, bots, absent_wait, stopping)
        await _all_or_none([play_dispatched(
            dispatcher, arena, bots, config.play_settings, lambda seq, game: order_of(seq, game, secret, seats), record,
            should_play) for _ in range(streams)])
    finally:
        closer.cancel()
        await arena.stop(grace=0)
        await bots.stop()


async def _play_farmed(
    config: TournamentConfig, todo: list[tuple[int, ScheduledGame]], secret: TournamentSecret, scale: ScaleOut,
    record: _Recorder, stopping: asyncio.Event, *, log_dir: Path, announce: Callable[[str], None],
    live: LiveGames | None = None, more: Callable[[], list[Item]] | None = None,
    should_play: Callable[[ScheduledGame], bool] | None = None,
) -> None:
    """Play ``todo`` (games between launched bots) on workers, which report
    their games in progress to ``live``, if given; then, stage after stage,
    the games ``more`` gives once every game before has ended. Games that
    ``should_play`` refuses as their batch goes out are left unplayed."""
    seats = config.options.seats
    units = units_of(todo, secret, seats)
    workers: list[Worker]
    if scale.ray_address is not None:
        try:
            cpus = connect(scale.ray_address, scale.ray_runtime_env)
        except RayUnavailableError as exc:
            raise TournamentError(str(exc)) from None
        n = min(scale.workers or cpus, len(units))
        per_batch = scale.batch_pairs or DEFAULT_RAY_BATCH_PAIRS
        workers = [RayWorker(i, config, config.concurrency, live) for i in range(n)]
        where = f"{n} Ray task(s) at a time on the cluster at {scale.ray_address}"
    else:
        n = min(scale.workers or 1, len(units))
        per_batch = scale.batch_pairs or 2 * config.concurrency
        crashes = CrashLedger()  # a bot's restarts are counted for the whole run, whatever the workers
        workers = [LocalWorker(i, config, log_dir, config.concurrency, crashes, live) for i in range(n)]
        where = f"{n} worker processes"
    if scale.batch_pairs is None:
        if should_play is not None:
            # A match is asked as each batch goes out: a pair for each game a
            # worker plays at once keeps the games played past a decision few.
            per_batch = config.concurrency
        per_batch = min(per_batch, -(-len(units) // n))  # a stage too small to fill every batch is shared out
    batches = batches_of(units, per_batch)
    given = len(batches)

    def next_stage() -> list[Batch]:
        nonlocal given
        assert more is not None
        record.flush()  # the next stage is drawn from the results so far
        stage = batches_of(units_of(more(), secret, seats), per_batch, given)
        given += len(stage)
        return stage

    def wanted(order: GameOrder) -> bool:
        assert should_play is not None
        record.flush()  # asked of what is recorded so far, not 50 ms later
        return should_play(order.game)

    log.info("playing %d game(s) on %s, %d at once in each", len(todo), where, config.concurrency)
    flusher = asyncio.create_task(_flush_every(record, GROUP_COMMIT_SECONDS))
    playing = asyncio.create_task(play_on_workers(workers, batches, record.later, stopping=stopping,
                                                  announce=announce, more=next_stage if more else None,
                                                  wanted=wanted if should_play else None))
    try:
        # A write that fails (StoreError: the file is gone, or bad) stops the run at once.
        await asyncio.wait({flusher, playing}, return_when=asyncio.FIRST_COMPLETED)
        if flusher.done():
            flusher.result()
        left = playing.result()
    except WorkerFailedError as exc:
        raise TournamentError(f"a worker cannot start: {exc}") from None
    finally:
        for task in (playing, flusher):
            task.cancel()
        await asyncio.gather(playing, flusher, return_exceptions=True)
        record.flush()
        if scale.ray_address is not None:
            disconnect()
    if not stopping.is_set() and not left and more is not None:
        left = next_stage()  # every worker was lost between two stages: the next is not played
    if left and not stopping.is_set():
        games = sum(len(b) for b in left)
        raise TournamentError(f"every worker was lost; {games} game(s) are left to play: "
                              f"`truco-arena tournament resume` plays them")


async def _wait_for_bots(config: TournamentConfig, bots: Supervisor, timeout: float,
                         stopping: asyncio.Event) -> None:
    """Wait until every bot can play or ``timeout`` has passed; the absent
    then forfeit. Fewer than two bots able to play: nothing can be played."""
    deadline = time.monotonic() + timeout
    while not bots.all_present() and not stopping.is_set() and time.monotonic() < deadline:
        await bots.revive(tuple(b.name for b in config.bots))
        await asyncio.sleep(0.05)
    present = [b.name for b in config.bots if bots.can_play(b.name)]
    if len(present) < 2 and not stopping.is_set():
        missing = sorted(b.name for b in config.bots if b.name not in present)
        why = "; ".join(f"{n} {bots.given_up[n]}" for n in missing if n in bots.given_up)
        raise TournamentError(f"bots not connected after {timeout:g} s: {', '.join(missing)}"
                              + (f" ({why})" if why else ""))
