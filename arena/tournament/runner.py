"""Run a tournament: start an arena, launch the bots, play the missing games
of the schedule with up to N at once, and record each game as it ends.

Reproducible: every game's deal seed and the seeds bots get for their own
randomness derive from the tournament secret (kept in the results database),
so the results are the same whether games run one at a time or many at once,
and on resume. Fair: bots see only opaque game ids and unrelated seeds, and
the second game of a duplicate pair starts only after the first has ended.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.outcome import Termination
from ..server import Arena, ArenaClosed, BotUnavailableError
from ..server import GameRecord as ArenaRecord
from .config import TournamentConfig
from .dispatch import Dispatcher
from .launcher import LaunchedBot, launch, stop
from .progress import Progress
from .schedule import ScheduledGame, round_robin
from .seeds import TournamentSecret
from .stopping import StopRequest, TournamentInterrupted
from .store import GameRow, ResultsStore

log = logging.getLogger("arena.tournament")

SECRET_META = "secret"  # hex of the tournament secret, in the store's meta table
CRASH_WAIT = 1.0  # seconds to let a disconnected launched bot's process be seen exiting


# Called once the arena is up (e.g. to start the live page); returns how to stop what it started.
ArenaHook = Callable[[Arena], Awaitable[Callable[[], Awaitable[None]]]]


class TournamentError(RuntimeError):
    """The tournament cannot go on (a bot would not start, nobody connected...)."""


@dataclass(frozen=True)
class RunSummary:
    scheduled: int
    already_recorded: int
    played: int
    seconds: float
    # Games this run that a bot lost by failing, with the reason (key -> reason).
    failures: dict[str, str] = field(default_factory=dict)


def schedule_of(config: TournamentConfig) -> list[ScheduledGame]:
    return round_robin([b.name for b in config.bots], config.games_per_pairing, config.pairing)


def tournament_secret(store: ResultsStore, config: TournamentConfig) -> TournamentSecret:
    """The secret of the tournament in ``store``, chosen on its first run: from
    the config's seed if it has one, fresh otherwise. Resume reuses it."""
    stored = store.get_meta(SECRET_META)
    if isinstance(stored, str):
        try:
            return TournamentSecret.from_hex(stored)
        except ValueError:
            raise TournamentError(f"{store.path}: the stored tournament secret is damaged") from None
    if store.count():
        raise TournamentError(f"{store.path}: its games were recorded without a tournament secret "
                              f"(an older version); start a new tournament")
    secret = TournamentSecret.fresh() if config.seed is None else TournamentSecret.from_seed(config.seed)
    store.set_meta(SECRET_META, secret.hex)
    return secret


def _row(game: ScheduledGame, seq: int, rec: ArenaRecord, reason: str, finished_at: float) -> GameRow:
    return GameRow(
        game_key=game.key,
        seq=seq,
        pairing=game.pairing,
        pair_index=game.pair_index,
        bot0=game.bot0,
        bot1=game.bot1,
        mano=0,
        seed=rec.seed,
        score0=rec.scores[0],
        score1=rec.scores[1],
        winner=rec.winner_bot,
        winner_seat=rec.winner_seat,
        termination=rec.termination.value,
        faulty_bot=rec.faulty_bot,
        hands=rec.hands,
        duration=rec.duration,
        actions=rec.actions,
        reason=reason,
        finished_at=finished_at,
    )


async def run_tournament(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    progress: bool = True,
    connect_timeout: float = 60.0,
    announce: Callable[[str], None] = lambda line: None,
    stop_request: StopRequest | None = None,
    on_arena: ArenaHook | None = None,
) -> RunSummary:
    """Play the games of ``config`` not yet in ``store``. When ``stop_request``
    fires, no new game starts, running games end as interrupted (recorded in
    the store's ``interrupted`` table, played again on resume) and
    ``TournamentInterrupted`` is raised."""
    secret = tournament_secret(store, config)
    stopper = stop_request or StopRequest()
    schedule = schedule_of(config)
    done = store.recorded_keys()
    todo = [(seq, g) for seq, g in enumerate(schedule) if g.key not in done]
    t0 = time.monotonic()
    if not todo:
        return RunSummary(len(schedule), len(done), 0, 0.0)
    arena = Arena(config.tokens)
    try:
        await arena.start(config.address, tls_cert=config.tls_cert, tls_key=config.tls_key)
    except (OSError, ValueError) as exc:  # cannot bind, or a TLS file cannot be read
        raise TournamentError(str(exc)) from None
    try:
        stop_hook = await on_arena(arena) if on_arena is not None else None
    except (OSError, ValueError) as exc:  # e.g. the live page cannot bind its address
        await arena.stop(grace=0)
        raise TournamentError(str(exc)) from None
    host = config.address.rsplit(":", 1)[0]
    address = f"{'127.0.0.1' if host in ('0.0.0.0', '[::]', '') else host}:{arena.port}"
    streams = min(config.concurrency, len(todo))
    bots = Supervisor(arena, config, address, streams, log_dir)
    bar = Progress(len(schedule), len(schedule) - len(todo), enabled=progress)
    dispatcher = Dispatcher(todo, done, secret)
    failures: dict[str, str] = {}
    played = 0

    async def worker() -> None:
        nonlocal played
        while (item := await dispatcher.next()) is not None:
            seq, game = item
            try:
                rec = await _play(arena, bots, game, config, secret, connect_timeout)
            except ArenaClosed:  # stopping: the game never started
                dispatcher.finished(game, recorded=False)
                return
            if rec.winner_team is None:  # interrupted: not a result, played again on resume
                store.record_interrupted(game.key, rec.reason)
                dispatcher.finished(game, recorded=False)
                continue
            ended = time.time()
            reason = rec.reason
            if rec.faulty_bot is not None:
                reason = failures[game.key] = await bots.explain(rec)
            store.record(_row(game, seq, rec, reason, ended))
            dispatcher.finished(game, recorded=True)
            played += 1
            bar.advance()

    async def stop_on_request() -> None:
        await stopper.wait()
        dispatcher.close()
        await arena.stop(grace=0)

    external = [b.name for b in config.bots if b.command is None]
    if external:
        announce(f"arena listening on {address}; waiting up to {connect_timeout:g} s for "
                 f"{', '.join(external)} to connect")
    watcher = asyncio.create_task(stop_on_request())
    try:
        await bots.start()
        await _wait_for_bots(arena, config, bots, connect_timeout, stopper)
        workers = [asyncio.create_task(worker()) for _ in range(streams)]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
    finally:
        if stopper.signal is None:
            watcher.cancel()
        # Once a stop began, let it finish: cut short, the arena's server would stay half open.
        await asyncio.gather(watcher, return_exceptions=True)
        await arena.stop(grace=0)
        await bots.stop()
        if stop_hook is not None:
            await stop_hook()
    if stopper.signal is not None:
        raise TournamentInterrupted(stopper.signal, played)
    return RunSummary(len(schedule), len(done), played, time.monotonic() - t0, failures)


async def _play(arena: Arena, bots: Supervisor, game: ScheduledGame, config: TournamentConfig,
                secret: TournamentSecret, timeout: float) -> ArenaRecord:
    """Play one game, restarting a launched bot that crashed in the meantime."""
    deadline = time.monotonic() + timeout
    while True:
        await bots.revive((game.bot0, game.bot1))
        try:
            return await arena.play_game(
                game.bot0, game.bot1, config.options, secret.deal_seed(game.deal), config.time_control,
                game_id=secret.game_id(game.key),
                acquire_timeout=min(2.0, max(0.1, deadline - time.monotonic())),
                rng_seeds=(secret.rng_seed(game.key, 0), secret.rng_seed(game.key, 1)),
            )
        except BotUnavailableError:
            if time.monotonic() >= deadline:
                raise TournamentError(
                    f"game {game.key}: {game.bot0} and {game.bot1} were not both available within {timeout:g} s"
                ) from None


class Supervisor:
    """The bot processes of a tournament. A launched bot that dies (and so
    loses the game it was in) is started again, at most ``max_restarts``
    times, so one crash costs one game rather than the tournament."""

    def __init__(self, arena: Arena, config: TournamentConfig, address: str, streams: int, log_dir: Path,
                 max_restarts: int = 3) -> None:
        self.arena, self.config, self.address = arena, config, address
        self.streams, self.log_dir, self.max_restarts = streams, log_dir, max_restarts
        self.running: dict[str, LaunchedBot] = {}
        self.restarts: dict[str, int] = {}
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        for bot in self.config.bots:
            if bot.command is not None:
                await self._launch(bot.name, bot.command)

    async def _launch(self, name: str, command: tuple[str, ...]) -> None:
        token = self.arena.add_token(name)
        ca = Path(self.config.tls_cert) if self.config.tls_cert is not None else None
        self.running[name] = await launch(name, command, self.address, token, self.streams, self.log_dir, tls_ca=ca)

    def exited(self) -> list[LaunchedBot]:
        return [b for b in self.running.values() if b.exited]

    async def explain(self, rec: ArenaRecord) -> str:
        """Why the faulty bot of ``rec`` lost. A launched bot whose stream
        closed because its process died "crashed with exit code N": the
        process is given a moment to be reaped, as the stream usually closes
        a little before the exit is seen."""
        seat, name = rec.faulty_seat, rec.faulty_bot
        bot = self.running.get(name) if name is not None else None
        if bot is None or seat is None or rec.termination is not Termination.DISCONNECT:
            return rec.reason
        try:
            code = await asyncio.wait_for(asyncio.shield(bot.process.wait()), CRASH_WAIT)
        except TimeoutError:
            return rec.reason  # still running: it only closed its stream
        return f"seat {seat} ({name}) crashed with exit code {code}"

    async def revive(self, names: tuple[str, ...]) -> None:
        async with self._lock:
            for name in names:
                bot = self.running.get(name)
                if bot is None or not bot.exited:
                    continue
                n = self.restarts.get(name, 0)
                if n >= self.max_restarts:
                    raise TournamentError(
                        f"bot {name} crashed {n + 1} times (last exit code {bot.process.returncode}); "
                        f"see {bot.log_path}")
                self.restarts[name] = n + 1
                log.info("bot %s crashed with exit code %s; starting it again", name, bot.process.returncode)
                await stop(bot)
                spec = next(b for b in self.config.bots if b.name == name)
                assert spec.command is not None
                await self._launch(name, spec.command)

    async def stop(self) -> None:
        await asyncio.gather(*(stop(b) for b in self.running.values()))


async def _wait_for_bots(arena: Arena, config: TournamentConfig, bots: Supervisor, timeout: float,
                         stopper: StopRequest) -> None:
    deadline = time.monotonic() + timeout
    need = {b.name for b in config.bots}
    while True:
        status = arena.bots()
        missing = [n for n in need if n not in status]
        if not missing or stopper.signal is not None:
            return
        for b in bots.exited():
            if b.name in missing:
                tail = b.log_path.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
                raise TournamentError(
                    f"bot {b.name} crashed with exit code {b.process.returncode} before connecting: {tail[0]}"
                    f" (log: {b.log_path})")
        if time.monotonic() > deadline:
            raise TournamentError(f"bots not connected after {timeout:g} s: {', '.join(sorted(missing))}")
        await asyncio.sleep(0.05)
