"""A game as a row of the results store: played to a result, or forfeited
by a bot that could not play it; the one conversion tournaments, matches
and the league share."""

from __future__ import annotations

from ..server import PlayedGame
from .evidence import Evidence
from .forfeits import Forfeit
from .schedule import ScheduledGame
from .store import GameRow


def played_row(rec: PlayedGame, game: ScheduledGame, seq: int, reason: str, finished_at: float,
               versions: tuple[str, str] = ("", ""), cpu: tuple[float | None, float | None] = (None, None),
               exit_status: int | None = None) -> GameRow:
    """The row of ``game`` played as ``rec`` (``rec.winner_team`` set);
    ``versions`` are what each bot announced, if recorded; ``exit_status``
    how the faulty bot's process ended, if it did (``Presence.exit_status``)."""
    fallbacks = [0, 0]
    for seat, count in enumerate(rec.fallbacks):  # seat s plays for team s % 2
        fallbacks[seat % 2] += count
    return GameRow(
        game_key=game.key, seq=seq, matchup=game.matchup, pair_index=game.pair_index,
        bot0=game.bot0, bot1=game.bot1, mano=0, seed=rec.seed, score0=rec.scores[0], score1=rec.scores[1],
        winner=rec.winner_bot, winner_seat=rec.winner_seat, termination=rec.termination,
        faulty_bot=rec.faulty_bot, hands=rec.hands, duration=rec.duration, actions=rec.actions, reason=reason,
        finished_at=finished_at, version0=versions[0], version1=versions[1], cpu0=cpu[0], cpu1=cpu[1],
        fallbacks0=fallbacks[0], fallbacks1=fallbacks[1], evidence=fault_evidence(rec, exit_status), stderr=rec.stderr,
    )


def _exit_fields(status: int | None) -> tuple[int | None, int | None]:
    """(exit code, signal) of a process's exit status (negative: killed by that signal)."""
    if status is None:
        return None, None
    return (None, -status) if status < 0 else (status, None)


def fault_evidence(rec: PlayedGame, exit_status: int | None = None) -> Evidence | None:
    """What the arena measured at the fault that ended ``rec``; None for a game ended by the rules."""
    seat = rec.faulty_seat
    if seat is None:
        return None
    tc = rec.time_control
    prefix = f"{seat} "
    # move_times is aligned with actions: the seat's answered decisions are its actions.
    used = sum(max(0.0, took - tc.move_time)
               for action, took in zip(rec.actions, rec.move_times) if action.startswith(prefix))
    code, signal = _exit_fields(exit_status)
    return Evidence(seat=seat, moves=len(rec.actions), move_time=tc.move_time, bank=tc.bank,
                    bank_used=round(used, 6), waited=None if rec.waited is None else round(rec.waited, 6),
                    exit_code=code, signal=signal)


def forfeit_row(game: ScheduledGame, seq: int, seed: int, forfeit: Forfeit, finished_at: float,
                versions: tuple[str, str] = ("", "")) -> GameRow:
    """The result of a game ``forfeit.bot`` could not play: a loss, 0 to 0, no
    hand dealt. Stored with termination ``absent`` or ``crash`` (the
    forfeit's cause), the bot as ``faulty_bot`` and a reason starting
    ``forfeit (absent)`` or ``forfeit (crash)``; it counts in the ratings as
    any loss and in the failures view as a disconnect."""
    winner_team = 1 if forfeit.bot == game.bot0 else 0
    return GameRow(
        game_key=game.key, seq=seq, matchup=game.matchup, pair_index=game.pair_index,
        bot0=game.bot0, bot1=game.bot1, mano=0, seed=seed, score0=0, score1=0,
        winner=game.bot1 if winner_team else game.bot0, winner_seat=winner_team,
        termination=forfeit.cause.termination, faulty_bot=forfeit.bot, hands=0, duration=0.0,
        actions=(), reason=forfeit.reason, finished_at=finished_at, version0=versions[0], version1=versions[1],
        # The forfeiting bot's first seat, before any action; for a crash, how its last process ended.
        evidence=Evidence(1 - winner_team, 0, exit_code=_exit_fields(forfeit.exit_status)[0],
                          signal=_exit_fields(forfeit.exit_status)[1]),
    )
