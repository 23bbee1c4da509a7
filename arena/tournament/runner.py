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
        finished_at=time.time(),
    )


async def run_tournament(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    progress: bool = True,
    connect_timeout: float = 60.0,
) -> RunSummary:
    schedule = schedule_of(config)
    done = store.recorded_keys()
    todo = [(seq, g) for seq, g in enumerate(schedule) if g.key not in done]
    t0 = time.monotonic()
    if not todo:
        return RunSummary(len(schedule), len(done), 0, 0.0)
    arena = Arena(config.tokens)
    await arena.start(config.address)
    address = f"127.0.0.1:{arena.port}" if config.address.startswith(("127.", "localhost", "0.0.0.0", "[::]")) \
        else config.address.rsplit(":", 1)[0] + f":{arena.port}"
    launched: list[LaunchedBot] = []
    bar = Progress(len(schedule), len(schedule) - len(todo), enabled=progress)
    try:
        streams = min(config.concurrency, len(todo))
        for bot in config.bots:
            if bot.command is not None:
                token = arena.add_token(bot.name)
                launched.append(await launch(bot.name, bot.command, address, token, streams, log_dir))
        await _wait_for_bots(arena, config, launched, streams, connect_timeout)
        tc = TimeControl(config.time_control.move_seconds, config.time_control.bank_seconds)
        queue: asyncio.Queue[tuple[int, ScheduledGame]] = asyncio.Queue()
        for item in todo:
            queue.put_nowait(item)

        async def worker() -> None:
            while True:
                try:
                    seq, game = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                rec = await arena.play_game(
                    game.bot0, game.bot1, config.options, game.seed, tc, game_id=game.key,
                    acquire_timeout=connect_timeout,
                    rng_seeds=(derive(config.seed, game.key, 0), derive(config.seed, game.key, 1)),
                )
                if rec.winner_team is None:  # interrupted: not a result, played again on resume
                    store.record_interrupted(game.key, rec.reason)
                    continue
                store.record(_row(game, seq, rec))
                bar.advance()

        workers = [asyncio.create_task(worker()) for _ in range(config.concurrency)]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
    except BotUnavailableError as exc:
        raise TournamentError(str(exc)) from None
    finally:
        await arena.stop(grace=0)
        await asyncio.gather(*(stop(b) for b in launched))
    return RunSummary(len(schedule), len(done), len(todo), time.monotonic() - t0)


async def _wait_for_bots(arena: Arena, config: TournamentConfig, launched: list[LaunchedBot],
                         streams: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    need = {b.name for b in config.bots}
    while True:
        status = arena.bots()
        missing = [n for n in need if n not in status]
        if not missing:
            return
        for b in launched:
            if b.exited and b.name in missing:
                tail = b.log_path.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
                raise TournamentError(
                    f"bot {b.name} exited with code {b.process.returncode} before connecting: {tail[0]}"
                    f" (log: {b.log_path})")
        if time.monotonic() > deadline:
            raise TournamentError(f"bots not connected after {timeout:g} s: {', '.join(sorted(missing))}")
        await asyncio.sleep(0.05)
