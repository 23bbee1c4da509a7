"""Run a tournament: start an arena, launch the bots, play the missing games
of the schedule with up to N at once, and record each game as it ends.

Reproducible: every game's deal seed and the seeds bots get for their own
randomness derive from the tournament secret (kept in the results database),
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
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.outcome import Termination
from ..match.schedule import match_schedule
from ..server import Arena, ArenaClosedError, BotUnavailableError, PlayedGame
from .config import TournamentConfig
from .dispatch import Dispatcher
from .progress import Progress
from .rows import played_row
from .schedule import ScheduledGame, round_robin
from .seeds import TournamentSecret
from .stopping import StopRequest, TournamentInterruptedError
from .store import GameRow, ResultsStore
from .supervisor import Forfeit, Supervisor

__all__ = ["RunSummary", "Supervisor", "TournamentError", "run_tournament", "schedule_of", "tournament_secret"]

log = logging.getLogger("arena.tournament")

SECRET_META = "secret"  # hex of the tournament secret, in the store's meta table
# A game's streams are asked for in slices this long, so a bot that went
# missing meanwhile is noticed and forfeits once its wait is over.
ACQUIRE_SLICE = 0.5


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
    if config.match is not None:
        return match_schedule(config.match, [b.name for b in config.bots], config.concurrency)
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


def seats_of(game: ScheduledGame, seats: int) -> tuple[str, ...]:
    """The bot in each seat: team 0 (even seats) is ``bot0``, team 1 ``bot1``."""
    return tuple(game.bot0 if s % 2 == 0 else game.bot1 for s in range(seats))


def forfeit_row(game: ScheduledGame, seq: int, seed: int, forfeit: Forfeit, finished_at: float) -> GameRow:
    """The result of a game ``forfeit.bot`` could not play: a loss, 0 to 0, no
    hand dealt. Stored with termination ``disconnect`` (the bot was not
    connected to play it), the bot as ``faulty_bot`` and a reason starting
    ``forfeit (absent)`` or ``forfeit (crash)``; it counts in the ratings as
    any loss and in the failures view as a disconnect."""
    winner_team = 1 if forfeit.bot == game.bot0 else 0
    return GameRow(
        game_key=game.key, seq=seq, pairing=game.pairing, pair_index=game.pair_index,
        bot0=game.bot0, bot1=game.bot1, mano=0, seed=seed, score0=0, score1=0,
        winner=game.bot1 if winner_team else game.bot0, winner_seat=winner_team,
        termination=Termination.DISCONNECT.value, faulty_bot=forfeit.bot, hands=0, duration=0.0,
        actions=(), reason=forfeit.reason, finished_at=finished_at,
    )


async def run_tournament(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    progress: bool = True,
    connect_timeout: float | None = None,
    announce: Callable[[str], None] = lambda line: None,
    stop_request: StopRequest | None = None,
    should_play: Callable[[ScheduledGame], bool] = lambda game: True,
    on_record: Callable[[GameRow], None] = lambda row: None,
    on_arena: ArenaHook | None = None,
) -> RunSummary:
    """Play the games of ``config`` not yet in ``store``. When ``stop_request``
    fires, no new game starts, running games end as interrupted (recorded in
    the store's ``interrupted`` table, played again on resume) and
    ``TournamentInterruptedError`` is raised. ``connect_timeout``, if given,
    replaces the config's ``absent_wait_seconds``.

    A match stops early through the two hooks: ``should_play`` is asked
    before each game starts (False: the game is left unplayed, not recorded),
    ``on_record`` hears of each game once it is in the store."""
    secret = tournament_secret(store, config)
    stopper = stop_request or StopRequest()
    absent_wait = config.absent_wait if connect_timeout is None else connect_timeout
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
    bots = Supervisor(arena, config, address, streams, log_dir, absent_wait=absent_wait)
    bar = Progress(len(schedule), len(schedule) - len(todo), enabled=progress)
    dispatcher = Dispatcher(todo, done, secret)
    failures: dict[str, str] = {}
    played = 0

    async def worker() -> None:
        nonlocal played
        while (item := await dispatcher.next()) is not None:
            seq, game = item
            if not should_play(game):  # left for good this run; its twin, if waiting, is released and asked too
                dispatcher.finished(game, recorded=False)
                continue
            try:
                result = await _play(arena, bots, game, config, secret)
            except ArenaClosedError:  # stopping: the game never started
                dispatcher.finished(game, recorded=False)
                return
            if isinstance(result, str):  # neither bot can play: not a result, played again on resume
                store.record_interrupted(game.key, result)
                dispatcher.finished(game, recorded=False)
                continue
            ended = time.time()
            if isinstance(result, Forfeit):
                row = forfeit_row(game, seq, secret.deal_seed(game.deal), result, ended)
                failures[game.key] = row.reason
            else:
                if result.winner_team is None:  # interrupted: not a result, played again on resume
                    store.record_interrupted(game.key, result.reason)
                    dispatcher.finished(game, recorded=False)
                    continue
                reason = result.reason
                if result.faulty_bot is not None:
                    reason = failures[game.key] = await bots.explain(result)
                row = played_row(result, key=game.key, seq=seq, pairing=game.pairing, pair_index=game.pair_index,
                                 bots=(game.bot0, game.bot1), reason=reason, finished_at=ended)
            store.record(row)
            on_record(row)
            dispatcher.finished(game, recorded=True)
            played += 1
            bar.advance()

    async def stop_on_request() -> None:
        await stopper.wait()
        dispatcher.close()
        await arena.stop(grace=0)

    external = [b.name for b in config.bots if b.command is None]
    if external:
        announce(f"arena listening on {address}; waiting up to {absent_wait:g} s for "
                 f"{', '.join(external)} to connect")
    watcher = asyncio.create_task(stop_on_request())
    try:
        await bots.start()
        await _wait_for_bots(config, bots, absent_wait, stopper)
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
        raise TournamentInterruptedError(stopper.signal, played)
    return RunSummary(len(schedule), len(done), played, time.monotonic() - t0, failures)


async def _play(arena: Arena, bots: Supervisor, game: ScheduledGame, config: TournamentConfig,
                secret: TournamentSecret) -> PlayedGame | Forfeit | str:
    """Play one game, restarting a launched bot that crashed in the meantime.
    A bot that stays unable to play forfeits (``Forfeit``); when neither
    can play, the game is not played (a reason string)."""
    seats = seats_of(game, config.options.seats)
    names = (game.bot0, game.bot1)
    while True:
        if arena.closing:  # stopping: bots leave now, which is no forfeit
            raise ArenaClosedError("the arena is shutting down")
        await bots.revive(names)
        owed = [f for f in (bots.forfeit(n) for n in names) if f is not None]
        if len(owed) == 2:
            return f"neither bot could play: {owed[0].reason}; {owed[1].reason}"
        if owed:
            return owed[0]
        try:
            return await arena.play_seats(
                seats, config.options, secret.deal_seed(game.deal), config.time_control,
                game_id=secret.game_id(game.key),
                acquire_timeout=ACQUIRE_SLICE,
                rng_seeds=tuple(secret.rng_seed(game.key, s) for s in range(len(seats))),
                distinct_peers=True,
            )
        except BotUnavailableError:
            continue


async def _wait_for_bots(config: TournamentConfig, bots: Supervisor, timeout: float,
                         stopper: StopRequest) -> None:
    """Wait until every bot can play or ``timeout`` has passed; the absent
    then forfeit. Fewer than two bots able to play: nothing can be played."""
    deadline = time.monotonic() + timeout
    while not bots.all_present() and stopper.signal is None and time.monotonic() < deadline:
        await bots.revive(tuple(b.name for b in config.bots))
        await asyncio.sleep(0.05)
    present = [b.name for b in config.bots if bots.can_play(b.name)]
    if len(present) < 2 and stopper.signal is None:
        missing = sorted(b.name for b in config.bots if b.name not in present)
        why = "; ".join(f"{n} {bots.given_up[n]}" for n in missing if n in bots.given_up)
        raise TournamentError(f"bots not connected after {timeout:g} s: {', '.join(missing)}"
                              + (f" ({why})" if why else ""))
