"""Play one match (one game, or a duplicate pair) and say what to record.

A duplicate pair is recorded together: its second game starts only once the
first has ended (a bot never plays both seats of a deal at once) and both
rows are written in one transaction. A bot cannot make a first half it lost
vanish by dodging the second: a second half that cannot start because one
bot is gone (or keeps no stream free for it) is that bot's forfeit, and a
bot that leaves during a game loses it by disconnect. Only when nobody is
to blame (both bots gone) is the second half recorded as interrupted, the
first half kept. A pair cut by a shutdown goes to the ``interrupted`` table,
both halves; a kill -9 between the two games leaves nothing of the pair: the
counter has moved on, and the pair is simply played anew, on a new deal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.options import Options
from ..server import Arena, ArenaClosedError, BotUnavailableError, PlayedGame, TimeControl
from ..tournament.seeds import TournamentSecret
from ..tournament.store import GameRow
from .keys import LeagueGame, seats_of
from .rows import forfeit_row, played_row


@dataclass(frozen=True, slots=True)
class MatchResult:
    rows: tuple[GameRow, ...]  # to record, all together
    interrupted: tuple[str, ...]  # keys to record as interrupted (none of them in ``rows``)
    reason: str  # why they were interrupted ('' if none was)


@dataclass(frozen=True, slots=True)
class MatchSettings:
    options: Options
    time_control: TimeControl
    forfeit_seconds: float


async def play_match(
    arena: Arena,
    games: tuple[LeagueGame, ...],
    secret: TournamentSecret,
    settings: MatchSettings,
    versions: Callable[[str], str],
    on_start: Callable[[LeagueGame], None] = lambda game: None,
    on_played: Callable[[PlayedGame], None] = lambda rec: None,
) -> MatchResult:
    """Play ``games`` one after the other. ``versions(name)`` is the version a
    connected bot announced ('' if it is not connected)."""
    rows: list[GameRow] = []
    for game in games:
        seed = secret.deal_seed(game.deal)
        seats = seats_of(game, settings.options.seats)
        side_versions = (versions(game.bot0), versions(game.bot1))
        on_start(game)
        try:
            rec = await arena.play_seats(
                seats, settings.options, seed, settings.time_control,
                acquire_timeout=settings.forfeit_seconds,
                game_id=secret.game_id(game.key),
                rng_seeds=tuple(secret.rng_seed(game.key, s) for s in range(len(seats))),
            )
        except ArenaClosedError:
            return _cut(games, "the arena shut down before the game started")
        except BotUnavailableError as exc:
            absent = _unavailable(arena, game, settings.options.seats // 2)
            if len(absent) != 1:  # both gone, or both there but busy: no one to blame
                if rows:  # the first half stands; only the second is lost
                    return MatchResult(tuple(rows), (game.key,), f"could not start: {exc}")
                return _cut(games, f"could not start: {exc}")
            rows.append(forfeit_row(game, seed, absent[0], settings.forfeit_seconds, side_versions))
            continue
        on_played(rec)
        if rec.winner_team is None:
            return _cut(games, rec.reason)
        rows.append(played_row(game, rec, side_versions))
    return MatchResult(tuple(rows), (), "")


def _unavailable(arena: Arena, game: LeagueGame, streams: int) -> list[str]:
    """The bots of ``game`` without ``streams`` idle streams now: not connected,
    or every stream busy elsewhere."""
    bots = arena.bots()
    return [name for name in (game.bot0, game.bot1)
            if (status := bots.get(name)) is None or status.idle < streams]


def _cut(games: tuple[LeagueGame, ...], reason: str) -> MatchResult:
    return MatchResult((), tuple(g.key for g in games), reason)
