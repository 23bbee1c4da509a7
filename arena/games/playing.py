"""Play one game to its outcome: the one play path of tournaments, matches,
workers and the league.

Whoever plays says, through a ``Presence``, which bots can play: a
tournament's ``Supervisor`` (it launches and restarts bots, and lets a
missing one forfeit after ``absent_wait``), or the league's connected bots
(a game waits ``forfeit_seconds`` for each). The path asks for the game's
streams in short slices, so a bot that went missing meanwhile is noticed and
forfeits once its wait is over; it returns the row to record or why there
is none (``Unplayed``)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..engine.options import Options
from ..referee import Referee
from ..sandbox import Box
from ..server import Arena, ArenaClosedError, BotUnavailableError, PlayedGame, TimeControl
from .dispatch import Dispatcher
from .game_record import Forfeit, GameRecord
from .orders import GameOrder, GameResult, Unplayed
from .schedule import ScheduledGame

# A game's streams are asked for in slices this long, so a bot that went
# missing meanwhile is noticed and forfeits once its wait is over.
ACQUIRE_SLICE = 0.5


class Presence(Protocol):
    """Which bots can play now, and what the arena knows about them."""

    async def revive(self, names: tuple[str, ...]) -> None:
        """Start again what of ``names`` died since (launched bots)."""

    def forfeit(self, name: str) -> Forfeit | None:
        """The forfeit ``name`` owes now; None while it plays or is waited for."""

    async def explain(self, rec: PlayedGame) -> str:
        """Why the faulty bot of ``rec`` lost, in one line."""

    def ledger(self, name: str) -> CpuLedger | None:
        """Where the CPU of ``name``'s games is counted (None: not measured)."""

    def version(self, name: str) -> str:
        """The version ``name`` announced, to record ('' for none)."""

    def exit_status(self, name: str) -> int | None:
        """How the process of ``name`` whose end ``explain`` just saw ended
        (its exit code; negative: killed by that signal), kept as the row's
        evidence; None if none was seen or the bot is not launched here."""


@dataclass(frozen=True)
class PlaySettings:
    options: Options
    time_control: TimeControl
    distinct_peers: bool = True
    """Seat a team's partners from different processes."""


def seats_of(game: ScheduledGame, seats: int) -> tuple[str, ...]:
    """The bot in each seat: team 0 (even seats) is ``bot0``, team 1 ``bot1``."""
    return tuple(game.bot0 if s % 2 == 0 else game.bot1 for s in range(seats))


async def play_dispatched(
    dispatcher: Dispatcher, arena: Arena, bots: Presence, settings: PlaySettings,
    order_for: Callable[[int, ScheduledGame], GameOrder], record: Callable[[GameResult], bool],
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
            outcome = await play_order(arena, bots, order_for(seq, game), settings)
        except ArenaClosedError:  # stopping: the game never started, and no other will
            dispatcher.finished(game, recorded=False)
            dispatcher.close()
            return
        dispatcher.finished(game, recorded=record(outcome))


async def play_order(arena: Arena, bots: Presence, order: GameOrder, settings: PlaySettings,
                     on_played: Callable[[PlayedGame], None] = lambda rec: None) -> GameResult:
    """Play ``order`` to its outcome; ``on_played`` sees the arena's record of
    a game that was played. Raises ``ArenaClosedError`` if the arena is
    stopping before the game started."""
    game = order.game
    names = (game.bot0, game.bot1)
    versions = (bots.version(game.bot0), bots.version(game.bot1))
    ledgers = [bots.ledger(n) for n in names]
    tickets = [ledger.start() if ledger is not None else None for ledger in ledgers]
    try:
        result = await _play(arena, bots, order, settings)
    finally:
        spent = tuple(ledger.end(t) if ledger is not None and t is not None else None
                      for ledger, t in zip(ledgers, tickets))
    if isinstance(result, Unplayed):  # neither bot can play
        return result
    ended = time.time()
    if isinstance(result, Forfeit):
        return GameRecord.forfeited(game, order.seq, order.deal_seed, result, ended, versions)
    on_played(result)
    if result.winner_seat is None:  # interrupted
        return Unplayed(game.key, result.reason)
    if result.faulty_bot is None:
        return GameRecord.played(result, game, order.seq, result.reason, ended, versions, (spent[0], spent[1]))
    reason = await bots.explain(result)
    return GameRecord.played(result, game, order.seq, reason, ended, versions, (spent[0], spent[1]),
                      bots.exit_status(result.faulty_bot))


async def _play(arena: Arena, bots: Presence, order: GameOrder, settings: PlaySettings
                ) -> PlayedGame | Forfeit | Unplayed:
    """Play one game, restarting a launched bot that crashed in the meantime.
    A bot that stays unable to play forfeits (``Forfeit``); when neither
    can play, the game is not played (``Unplayed``)."""
    game = order.game
    seats = seats_of(game, settings.options.seats)
    names = (game.bot0, game.bot1)
    while True:
        if arena.closing:  # stopping: bots leave now, which is no forfeit
            raise ArenaClosedError("the arena is shutting down")
        await bots.revive(names)
        owed = [f for f in (bots.forfeit(n) for n in names) if f is not None]
        if len(owed) == 2:
            return Unplayed(game.key, f"neither bot could play: {owed[0].reason}; {owed[1].reason}")
        if owed:
            return owed[0]
        try:
            return await arena.play_seats(
                seats, settings.options, order.deal_seed, settings.time_control,
                game_id=order.game_id,
                acquire_timeout=ACQUIRE_SLICE,
                rng_seeds=order.rng_seeds,
                distinct_peers=settings.distinct_peers,
            )
        except BotUnavailableError:
            continue


class CpuLedger:
    """The CPU of one bot's processes (``boxes()``), charged to its running
    games: CPU seconds a launched bot spent on each game, from its sandbox's
    control groups.

    A bot process may play several games at once, and the kernel counts its CPU
    time only as a whole. So the time is handed out as it is spent: at every
    start and end of one of the bot's games, the CPU used since the last such
    moment is split equally among the games it had running meanwhile. With one
    game at a time this is exact; with several, each game's figure is its fair
    share, and the figures add up to the bot's whole CPU time."""

    def __init__(self, boxes: Callable[[], list[Box]]) -> None:
        self._boxes = boxes
        self._seen: dict[int, float] = {}  # box id -> its CPU seconds at the last charge
        self._games: dict[int, float] = {}  # ticket -> CPU seconds charged so far
        self._tickets = itertools.count()
        self.measured = True

    def _charge(self) -> None:
        spent = 0.0
        seen: dict[int, float] = {}
        for box in self._boxes():
            now = box.cpu_seconds()
            if now is None:
                self.measured = False
                continue
            # A box first seen now (a restarted process) is charged from zero:
            # everything it ever ran was during this bot's games.
            spent += max(0.0, now - self._seen.get(id(box), 0.0))
            seen[id(box)] = now
        self._seen = seen
        if self._games:
            share = spent / len(self._games)
            for ticket in self._games:
                self._games[ticket] += share

    def start(self) -> int:
        """A game of this bot begins; the ticket ends it."""
        self._charge()
        ticket = next(self._tickets)
        self._games[ticket] = 0.0
        return ticket

    def end(self, ticket: int) -> float | None:
        """The CPU seconds charged to the game of ``ticket``; None if unmeasured."""
        self._charge()
        charged = self._games.pop(ticket, 0.0)
        return charged if self.measured and self._seen else None


class RunningGame(Protocol):
    """A game in progress as the live page reads it (never changes): an
    arena's ``GameRun``, or a worker's game replayed on the coordinator."""

    @property
    def game_id(self) -> str: ...
    @property
    def bots(self) -> tuple[str, ...]:
        """The bot in each seat."""
    @property
    def options(self) -> Options: ...
    @property
    def referee(self) -> Referee | None:
        """The game's state and action log; None before its first deal."""


class GamesInProgress(Protocol):
    """Where the live page finds the games of a run: an ``Arena``, or a
    coordinator's arena with the games its workers report."""

    @property
    def closing(self) -> bool:
        """The run is stopping: no game will start."""

    def running_games(self) -> Sequence[RunningGame]: ...


# What a runner (tournament, match, league) lets the layers above plug in
# without importing them (the live page is one): called once the arena is up; returns what to call when the run ends (after
# the arena has stopped): the live page says "finished" or closes then.
ArenaHook = Callable[[GamesInProgress], Awaitable[Callable[[], Awaitable[None]]]]
