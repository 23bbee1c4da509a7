"""Play one league match (one game, or a duplicate pair) and say what to record.

Each game goes through the games layer's play path (``arena.games.playing``)
with the league's ``ConnectedBots`` presence. A duplicate pair is recorded
together: its second game starts only once the first has ended (a bot never
plays both seats of a deal at once) and both rows are written in one
transaction. A bot cannot make a first half it lost vanish by dodging the
second: a second half that cannot start because one bot is gone (or keeps
no stream free for it) is that bot's forfeit, and a bot that leaves during a
game loses it by disconnect. Only when nobody is to blame (both bots gone)
is the second half recorded as interrupted, the first half kept. A pair cut
by a shutdown goes to the ``interrupted`` table, both halves; a kill -9
between the two games leaves nothing of the pair: the counter has moved on,
and the pair is simply played anew, on a new deal."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..games.game_record import Forfeit, ForfeitCause, GameRecord
from ..games.orders import order_of
from ..games.playing import CpuLedger, PlaySettings, play_order
from ..games.schedule import ScheduledGame
from ..games.seeds import TournamentSecret
from ..server import Arena, ArenaClosedError, PlayedGame
from .keys import MatchGame


@dataclass(frozen=True, slots=True)
class MatchResult:
    rows: tuple[GameRecord, ...]
    """To record, all together."""
    interrupted: tuple[str, ...]
    """Keys to record as interrupted (none of them in ``rows``)"""
    reason: str
    """Why they were interrupted ('' if none was)"""


async def play_match(
    arena: Arena,
    games: tuple[MatchGame, ...],
    secret: TournamentSecret,
    settings: PlaySettings,
    forfeit_seconds: float,
    on_start: Callable[[ScheduledGame], None] = lambda game: None,
    on_played: Callable[[PlayedGame], None] = lambda rec: None,
) -> MatchResult:
    """Play ``games`` one after the other."""
    rows: list[GameRecord] = []
    streams = settings.options.seats // 2
    for seq, game in games:
        on_start(game)
        order = order_of(seq, game, secret, settings.options.seats)
        try:
            outcome = await play_order(arena, ConnectedBots(arena, streams, forfeit_seconds), order, settings,
                                       on_played)
        except ArenaClosedError:
            return _cut(games, "the arena shut down before the game started")
        if isinstance(outcome, GameRecord):
            rows.append(outcome)
            continue
        if rows and not arena.closing:  # nobody to blame for the second half: the first stands
            return MatchResult(tuple(rows), (game.key,), outcome.reason)
        return _cut(games, outcome.reason)
    return MatchResult(tuple(rows), (), "")


def _cut(games: tuple[MatchGame, ...], reason: str) -> MatchResult:
    return MatchResult((), tuple(g.key for _, g in games), reason)


class ConnectedBots:
    """The presence of the bots of one league game (make one per game): the
    league's ``Presence`` for the games layer's one play path.

    A league launches no bot, so nothing is revived and no CPU is counted. A
    bot can play a game when it has a free stream for each seat of its team;
    one that has none (not connected, or every stream busy elsewhere) for the
    game's whole ``forfeit_seconds`` wait, counted from the game's start,
    forfeits it."""

    def __init__(self, arena: Arena, streams: int, wait: float) -> None:
        self.arena, self.streams, self.wait = arena, streams, wait
        self._since = time.monotonic()

    async def revive(self, names: tuple[str, ...]) -> None:
        return None

    def forfeit(self, name: str) -> Forfeit | None:
        status = self.arena.bots().get(name)
        if status is not None and status.idle >= self.streams:
            return None
        if time.monotonic() - self._since < self.wait:
            return None
        what = "was not connected" if status is None else "kept no stream free for the game"
        return Forfeit(name, ForfeitCause.ABSENT, f"{what} within {self.wait:g} s")

    async def explain(self, rec: PlayedGame) -> str:
        return rec.reason

    def ledger(self, name: str) -> CpuLedger | None:
        return None

    def exit_status(self, name: str) -> int | None:
        return None  # a league's bots connect by themselves: no process of theirs is the arena's to see

    def version(self, name: str) -> str:
        status = self.arena.bots().get(name)
        return "" if status is None else status.version
