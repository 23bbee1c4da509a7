"""Run a tournament: start an arena, launch the bots, play the missing games
of the schedule with up to N at once, and record each game as it ends.

Reproducible: every game's deal seed comes from the schedule, and each bot is
given a per-game seed for its own randomness (``rng_seed``), so the results
are the same whether games run one at a time or many at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..server import Arena, BotUnavailableError, TimeControl
from ..server import GameRecord as ArenaRecord
from .config import TournamentConfig
from .launcher import LaunchedBot, launch, stop
from .progress import Progress
from .schedule import ScheduledGame, round_robin
from .seeds import derive
from .store import GameRow, ResultsStore

log = logging.getLogger("arena.tournament")


class TournamentError(RuntimeError):
    """The tournament cannot go on (a bot would not start, nobody connected...)."""


@dataclass(frozen=True)
class RunSummary:
    scheduled: int
    already_recorded: int
    played: int
    seconds: float


def schedule_of(config: TournamentConfig) -> list[ScheduledGame]:
    return round_robin([b.name for b in config.bots], config.games_per_pairing, config.seed)


def _row(game: ScheduledGame, seq: int, rec: ArenaRecord) -> GameRow:
    return GameRow(
        game_key=game.key,
        seq=seq,
        pairing=game.pairing,
        pair_index=game.pair_index,
        bot0=game.bot0,
        bot1=game.bot1,
        mano=0,
        seed=game.seed,
        score0=rec.scores[0],
        score1=rec.scores[1],
        winner=rec.winner_bot,
        winner_seat=rec.winner_seat,
        termination=rec.termination.value,
        faulty_bot=rec.faulty_bot,
        hands=rec.hands,
        duration=rec.duration,
        actions=rec.actions,
        reason=rec.reason,
        finished_at=time.time(),
    )


async def run_tournament(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    progress: bool = True,
    connect_timeout: float = 60.0,
    announce: Callable[[str], None] = lambda line: None,
) -> RunSummary:
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
    host = config.address.rsplit(":", 1)[0]
    address = f"{'127.0.0.1' if host in ('0.0.0.0', '[::]', '') else host}:{arena.port}"
    streams = min(config.concurrency, len(todo))
    bots = Supervisor(arena, config, address, streams, log_dir)
    bar = Progress(len(schedule), len(schedule) - len(todo), enabled=progress)
    tc = TimeControl(config.time_control.move_seconds, config.time_control.bank_seconds)
    queue: asyncio.Queue[tuple[int, ScheduledGame]] = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)

    async def worker() -> None:
        while not queue.empty():
            seq, game = queue.get_nowait()
            rec = await _play(arena, bots, game, config, tc, connect_timeout)
            if rec.winner_team is None:  # interrupted: not a result, played again on resume
                store.record_interrupted(game.key, rec.reason)
                continue
            store.record(_row(game, seq, rec))
            bar.advance()

    external = [b.name for b in config.bots if b.command is None]
    if external:
        announce(f"arena listening on {address}; waiting up to {connect_timeout:g} s for "
                 f"{', '.join(external)} to connect")
    try:
        await bots.start()
        await _wait_for_bots(arena, config, bots, connect_timeout)
        workers = [asyncio.create_task(worker()) for _ in range(streams)]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
    finally:
        await arena.stop(grace=0)
        await bots.stop()
    return RunSummary(len(schedule), len(done), len(todo), time.monotonic() - t0)


async def _play(arena: Arena, bots: "Supervisor", game: ScheduledGame, config: TournamentConfig,
                tc: TimeControl, timeout: float) -> ArenaRecord:
    """Play one game, restarting a launched bot that crashed in the meantime."""
    deadline = time.monotonic() + timeout
    while True:
        await bots.revive((game.bot0, game.bot1))
        try:
            return await arena.play_game(
                game.bot0, game.bot1, config.options, game.seed, tc, game_id=game.key,
                acquire_timeout=min(2.0, max(0.1, deadline - time.monotonic())),
                rng_seeds=(derive(config.seed, game.key, 0), derive(config.seed, game.key, 1)),
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

    async def revive(self, names: tuple[str, ...]) -> None:
        async with self._lock:
            for name in names:
                bot = self.running.get(name)
                if bot is None or not bot.exited:
                    continue
                n = self.restarts.get(name, 0)
                if n >= self.max_restarts:
                    raise TournamentError(
                        f"bot {name} exited {n + 1} times (last exit code {bot.process.returncode}); "
                        f"see {bot.log_path}")
                self.restarts[name] = n + 1
                log.warning("bot %s exited with code %s; starting it again", name, bot.process.returncode)
                await stop(bot)
                spec = next(b for b in self.config.bots if b.name == name)
                assert spec.command is not None
                await self._launch(name, spec.command)

    async def stop(self) -> None:
        await asyncio.gather(*(stop(b) for b in self.running.values()))


async def _wait_for_bots(arena: Arena, config: TournamentConfig, bots: Supervisor, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    need = {b.name for b in config.bots}
    while True:
        status = arena.bots()
        missing = [n for n in need if n not in status]
        if not missing:
            return
        for b in bots.exited():
            if b.name in missing:
                tail = b.log_path.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
                raise TournamentError(
                    f"bot {b.name} exited with code {b.process.returncode} before connecting: {tail[0]}"
                    f" (log: {b.log_path})")
        if time.monotonic() > deadline:
            raise TournamentError(f"bots not connected after {timeout:g} s: {', '.join(sorted(missing))}")
        await asyncio.sleep(0.05)
