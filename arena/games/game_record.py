"""The one record of a finished game: what the store keeps as a row, what
the views, the replay and the ratings read, under one name per concept.

A record is checked when built, so every later step can trust that the
winner and the faulting bot are one of the two players (a row read from a
store is kept as stored: ``as_stored``). The ratings need
only the players, the winner, the termination and the pair; the other
fields have defaults so that a rating test or a benchmark can build a
record from those alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Self

from arena.errors import DomainError

from ..engine.outcome import Termination
from ..server import PlayedGame
from .evidence import Evidence
from .forfeits import Forfeit
from .gameids import id_of_key
from .schedule import NO_PAIR, ScheduledGame
from .schema import LATEST_VERSION


class RecordError(DomainError, ValueError):
    """Game records that contradict themselves or each other (a winner who
    did not play, a duplicate pair without swapped seats); one line."""


# Set while ``as_stored`` builds a record: a field, or an InitVar, would cross the worker pipe.
_AS_STORED: ContextVar[bool] = ContextVar("as_stored", default=False)


@dataclass(frozen=True)
class GameRecord:
    """One finished game between two bots, as the results store keeps it.

    ``winner`` is None when the game has no result (interrupted); such games
    are ignored by every rating view. ``pair_id`` groups the two games of a
    duplicate pair (same deal seed, seats swapped)."""

    bot0: str
    """The bot in seat (and team) 0: mano in the first hand."""
    bot1: str
    """The bot in seat (and team) 1."""
    winner: str | None
    """The winning bot's name; None: no result."""
    termination: Termination
    """How the game ended; a fault (``is_fault``) names the failing bot in ``faulty_bot``."""
    faulty_bot: str | None = None
    """The bot whose fault ended the game (timeout, crash, illegal move, forfeit); None: none."""
    game_key: str = ""
    """Unique and stable: the schedule's key, what resume relies on."""
    seq: int = 0
    """Position in the schedule: the order results are read in."""
    matchup: str = ""
    """"a|b": the two bots, names in config order."""
    pair_index: int = NO_PAIR
    """Which duplicate pair of its matchup this game is half of; NO_PAIR for an independent game."""
    seed: int = 0
    """The deal seed."""
    score0: int = 0
    score1: int = 0
    winner_seat: int | None = None
    """The winning team's first seat (seat s plays for team s % 2); None: no result."""
    hands: int = 0
    """Hands dealt, including the one the game ended in."""
    duration: float = 0.0
    """Seconds from the first GameStart to the GameEnd."""
    actions: tuple[str, ...] = ()
    """Every "SEAT ACTION" in order: replayable from the seed."""
    finished_at: float = 0.0
    """Unix time the game ended (0: now, when stored)."""
    reason: str = ""
    """Why the game ended, one line for people (schema version 2)."""
    version0: str = ""
    """The bot_version bot0 announced in its Hello (schema version 3; '': unknown)."""
    version1: str = ""
    cpu0: float | None = None
    """CPU seconds bot0 spent on the game, measured by its sandbox (schema version 4; None: not measured)."""
    cpu1: float | None = None
    fallbacks0: int = 0
    """Moves bot0 marked as a fallback: its code failed and it played a legal action instead (schema version 5)."""
    fallbacks1: int = 0
    game_id: str = ""
    """The shell-safe id people see and type (schema version 6): the key with '|' and '#' as ':'
    (gameids.py); filled in from the key when not given."""
    evidence: Evidence | None = None
    """What the arena measured at the fault that ended the game (schema version 7; None for a game
    ended by the rules, and in rows written before)."""
    row_version: int = LATEST_VERSION
    """The schema version the row was written under: rows of version 7 on carry evidence for every
    fault (a row signed by the migration is 6)."""
    stderr: tuple[tuple[int, str], ...] = ()
    """(decision index, text): what a bot wrote to stderr while deciding, for the organizer's replay
    (schema version 8). The index counts like ``actions``; one past them: a decision never answered."""

    def __post_init__(self) -> None:
        if not self.game_id:
            object.__setattr__(self, "game_id", id_of_key(self.game_key))
        if not _AS_STORED.get():
            self.checked()

    @classmethod
    def as_stored(cls, **row: Any) -> GameRecord:
        """A row as a store keeps it, unchecked: ``--verify`` says what is wrong with it."""
        token = _AS_STORED.set(True)
        try:
            return cls(**row)
        finally:
            _AS_STORED.reset(token)

    def checked(self) -> Self:
        """This record, if it holds together; else RecordError naming the game and what is wrong."""
        why = None
        if self.bot0 == self.bot1:
            why = f"bot0 and bot1 are both {self.bot0!r}: a bot cannot play itself"
        elif self.winner is not None and self.winner not in (self.bot0, self.bot1):
            why = f"winner {self.winner!r} is neither {self.bot0!r} nor {self.bot1!r}"
        elif not isinstance(self.termination, Termination):
            why = f"termination {self.termination!r} is not a Termination"
        elif self.faulty_bot is not None and self.faulty_bot not in (self.bot0, self.bot1):
            why = f"faulty_bot {self.faulty_bot!r} is neither {self.bot0!r} nor {self.bot1!r}"
        if why is not None:
            raise RecordError(f"game {self.game_key}: {why}" if self.game_key else why)
        return self

    @property
    def pair_id(self) -> str | None:
        """The duplicate pair this game is half of; None (pair_index < 0) for
        an independent game, which is nobody's twin."""
        return f"{self.matchup}#{self.pair_index}" if self.pair_index >= 0 else None

    @property
    def loser(self) -> str | None:
        """The bot that lost, or None when the game has no result."""
        if self.winner is None:
            return None
        return self.bot1 if self.winner == self.bot0 else self.bot0

    @classmethod
    def played(cls, rec: PlayedGame, game: ScheduledGame, seq: int, reason: str, finished_at: float,
               versions: tuple[str, str] = ("", ""), cpu: tuple[float | None, float | None] = (None, None),
               exit_status: int | None = None) -> GameRecord:
        """The record of ``game`` played as ``rec`` (``rec.winner_seat`` set);
        ``versions`` are what each bot announced, if recorded; ``exit_status``
        how the faulty bot's process ended, if it did (``Presence.exit_status``)."""
        fallbacks = [0, 0]
        for seat, count in enumerate(rec.fallbacks):  # seat s plays for team s % 2
            fallbacks[seat % 2] += count
        return cls(
            game_key=game.key, seq=seq, matchup=game.matchup, pair_index=game.pair_index,
            bot0=game.bot0, bot1=game.bot1, seed=rec.seed, score0=rec.scores[0], score1=rec.scores[1],
            winner=rec.winner_bot, winner_seat=rec.winner_seat, termination=rec.termination,
            faulty_bot=rec.faulty_bot, hands=rec.hands, duration=rec.duration, actions=rec.actions, reason=reason,
            finished_at=finished_at, version0=versions[0], version1=versions[1], cpu0=cpu[0], cpu1=cpu[1],
            fallbacks0=fallbacks[0], fallbacks1=fallbacks[1], evidence=_fault_evidence(rec, exit_status),
            stderr=rec.stderr,
        )

    @classmethod
    def forfeited(cls, game: ScheduledGame, seq: int, seed: int, forfeit: Forfeit, finished_at: float,
                  versions: tuple[str, str] = ("", "")) -> GameRecord:
        """The result of a game ``forfeit.bot`` could not play: a loss, 0 to 0, no
        hand dealt. Stored with termination ``absent`` or ``crash`` (the
        forfeit's cause), the bot as ``faulty_bot`` and a reason starting
        ``forfeit (absent)`` or ``forfeit (crash)``; it counts in the ratings as
        any loss and in the failures view as a disconnect."""
        winner_seat = 1 if forfeit.bot == game.bot0 else 0
        code, signal = _exit_fields(forfeit.exit_status)
        return cls(
            game_key=game.key, seq=seq, matchup=game.matchup, pair_index=game.pair_index,
            bot0=game.bot0, bot1=game.bot1, seed=seed, score0=0, score1=0,
            winner=game.bot1 if winner_seat else game.bot0, winner_seat=winner_seat,
            termination=forfeit.cause.termination, faulty_bot=forfeit.bot, hands=0, duration=0.0,
            actions=(), reason=forfeit.reason, finished_at=finished_at, version0=versions[0], version1=versions[1],
            # The forfeiting bot's first seat, before any action; for a crash, how its last process ended.
            evidence=Evidence(1 - winner_seat, 0, exit_code=code, signal=signal),
        )


def checked(records: Iterable[GameRecord]) -> list[GameRecord]:
    """``records`` as a list, each one checked (``GameRecord.checked``): what the
    ratings read from a store, which keeps rows as they are stored."""
    return [r.checked() for r in records]


def _exit_fields(status: int | None) -> tuple[int | None, int | None]:
    """(exit code, signal) of a process's exit status (negative: killed by that signal)."""
    if status is None:
        return None, None
    return (None, -status) if status < 0 else (status, None)


def _fault_evidence(rec: PlayedGame, exit_status: int | None = None) -> Evidence | None:
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
