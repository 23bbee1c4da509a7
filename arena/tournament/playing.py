"""Play one ordered game on an arena with the bots a ``Supervisor`` keeps:
the one place that turns a game (or a forfeit) into an ``Outcome``, used by
the tournament's own arena and by every worker process alike."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..engine.outcome import Termination
from ..server import Arena, ArenaClosedError, BotUnavailableError, PlayedGame
from .config import TournamentConfig
from .dispatch import Dispatcher
from .orders import GameOrder, Outcome, Unplayed
from .rows import played_row
from .schedule import ScheduledGame
from .store import GameRow
from .supervisor import Forfeit, Supervisor

# A game's streams are asked for in slices this long, so a bot that went
# missing meanwhile is noticed and forfeits once its wait is over.
ACQUIRE_SLICE = 0.5


def seats_of(game: ScheduledGame, seats: int) -> tuple[str, ...]:
    """The bot in each seat: team 0 (even seats) is ``bot0``, team 1 ``bot1``."""
    return tuple(game.bot0 if s % 2 == 0 else game.bot1 for s in range(seats))


def forfeit_row(game: ScheduledGame, seq: int, seed: int, forfeit: Forfeit, finished_at: float) -> GameRow:
    """The result of a game ``forfeit.bot`` could not play: a loss, 0 to 0, no
    hand dealt. Stored with termination ``absent`` or ``crash`` (the
    forfeit's cause), the bot as ``faulty_bot`` and a reason starting
    ``forfeit (absent)`` or ``forfeit (crash)``; it counts in the ratings as
    any loss and in the failures view as a disconnect."""
    winner_team = 1 if forfeit.bot == game.bot0 else 0
    return GameRow(
        game_key=game.key, seq=seq, pairing=game.pairing, pair_index=game.pair_index,
        bot0=game.bot0, bot1=game.bot1, mano=0, seed=seed, score0=0, score1=0,
        winner=game.bot1 if winner_team else game.bot0, winner_seat=winner_team,
        termination=Termination(forfeit.cause.value).value, faulty_bot=forfeit.bot, hands=0, duration=0.0,
        actions=(), reason=forfeit.reason, finished_at=finished_at,
    )


async def play_dispatched(
    dispatcher: Dispatcher, arena: Arena, bots: Supervisor, config: TournamentConfig,
    order_for: Callable[[int, ScheduledGame], GameOrder], record: Callable[[Outcome], bool],
    should_play: Callable[[ScheduledGame], bool] = lambda game: True,
) -> None:
    """One lane of play: take games from ``dispatcher`` until none is left or
    the arena stops, play each, and hand its outcome to ``record`` (True: a
    result). Run ``concurrency`` lanes to play that many games at once."""
    while (item := await dispatcher.next()) is not None:
        seq, game = item
        if not should_play(game):  # left for good this run; its twin, if waiting, is released and asked too
            dispatcher.finished(game, recorded=False)
            continue
        try:
            outcome = await play_order(arena, bots, order_for(seq, game), config)
        except ArenaClosedError:  # stopping: the game never started, and no other will
            dispatcher.finished(game, recorded=False)
            dispatcher.close()
            return
        dispatcher.finished(game, recorded=record(outcome))


async def play_order(arena: Arena, bots: Supervisor, order: GameOrder, config: TournamentConfig) -> Outcome:
    """Play ``order`` to its outcome. Raises ``ArenaClosedError`` if the arena
    is stopping before the game started."""
    game = order.game
    names = (game.bot0, game.bot1)
    ledgers = [bots.cpu.get(n) for n in names]
    tickets = [ledger.start() if ledger is not None else None for ledger in ledgers]
    try:
        result = await _play(arena, bots, order, config)
    finally:
        spent = tuple(ledger.end(t) if ledger is not None and t is not None else None
                      for ledger, t in zip(ledgers, tickets))
    if isinstance(result, str):  # neither bot can play
        return Unplayed(game.key, result)
    ended = time.time()
    if isinstance(result, Forfeit):
        return forfeit_row(game, order.seq, order.deal_seed, result, ended)
    if result.winner_team is None:  # interrupted
        return Unplayed(game.key, result.reason)
    reason = result.reason if result.faulty_bot is None else await bots.explain(result)
    return played_row(result, key=game.key, seq=order.seq, pairing=game.pairing, pair_index=game.pair_index,
                      bots=names, reason=reason, finished_at=ended, cpu=(spent[0], spent[1]))


async def _play(arena: Arena, bots: Supervisor, order: GameOrder, config: TournamentConfig
                ) -> PlayedGame | Forfeit | str:
    """Play one game, restarting a launched bot that crashed in the meantime.
    A bot that stays unable to play forfeits (``Forfeit``); when neither
    can play, the game is not played (a reason string)."""
    game = order.game
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
                seats, config.options, order.deal_seed, config.time_control,
                game_id=order.game_id,
                acquire_timeout=ACQUIRE_SLICE,
                rng_seeds=order.rng_seeds,
                distinct_peers=True,
            )
        except BotUnavailableError:
            continue
