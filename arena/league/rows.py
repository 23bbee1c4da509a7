"""A league game as a row of the results store: played, or forfeited by a
bot that was not there."""

from __future__ import annotations

import time

from ..engine.outcome import Termination
from ..server import PlayedGame
from ..tournament.rows import played_row as tournament_row
from ..tournament.store import GameRow
from .keys import LeagueGame


def played_row(game: LeagueGame, rec: PlayedGame, versions: tuple[str, str]) -> GameRow:
    """The row of a game the arena played to a result (``rec.winner_team`` set)."""
    return tournament_row(rec, key=game.key, seq=game.seq, pairing=game.pairing, pair_index=game.pair_index,
                          bots=(game.bot0, game.bot1), reason=rec.reason, finished_at=time.time(),
                          versions=versions)


def forfeit_row(game: LeagueGame, seed: int, absent: str, waited: float, versions: tuple[str, str]) -> GameRow:
    """The row of a game ``absent`` lost by not being connected: a forfeit,
    termination ``absent``, no hand dealt."""
    winner_seat = 1 if absent == game.bot0 else 0
    return GameRow(
        game_key=game.key,
        seq=game.seq,
        pairing=game.pairing,
        pair_index=game.pair_index,
        bot0=game.bot0,
        bot1=game.bot1,
        mano=0,
        seed=seed,
        score0=0,
        score1=0,
        winner=game.bot1 if winner_seat else game.bot0,
        winner_seat=winner_seat,
        termination=Termination.ABSENT.value,
        faulty_bot=absent,
        hands=0,
        duration=0.0,
        actions=(),
        reason=f"{absent} was not connected within {waited:g} s: forfeit",
        finished_at=time.time(),
        version0=versions[0],
        version1=versions[1],
    )
