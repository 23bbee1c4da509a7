"""The one record of a finished game: what the store keeps as a row, what
the views, the replay and the ratings read, under one name per concept.

A record is checked when built, so every later step can trust that the
winner and the faulting bot are one of the two players. The ratings need
only the players, the winner, the termination and the pair; the other
fields have defaults so that a rating test or a benchmark can build a
record from those alone.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, Self

import msgspec

from arena.errors import DomainError

from ..engine.outcome import Termination
from ..server import PlayedGame
from .gameids import id_of_key
from .schedule import NO_PAIR, ScheduledGame
from .schema import LATEST_VERSION


class RecordError(DomainError, ValueError):
    """Game records that contradict themselves or each other (a winner who
    did not play, a duplicate pair without swapped seats); one line."""


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
        self.checked()

    @classmethod
    def as_stored(cls, **values: Any) -> GameRecord:
        """The record of a store's row kept exactly as stored, unchecked: a row
        edited into nonsense (a winner who did not play) is for ``--verify`` to
        name, and the views refuse it (``checked``). Not an InitVar flag on the
        constructor: msgspec, which carries records across the worker pipe,
        cannot decode a dataclass with one."""
        record = cls.__new__(cls)
        record.__dict__.update({f.name: f.default for f in fields(cls) if f.default is not MISSING}, **values)
        if missing := [f.name for f in fields(cls) if f.name not in record.__dict__]:
            raise TypeError(f"GameRecord.as_stored: {missing[0]} missing")
        record.__dict__["game_id"] = record.game_id or id_of_key(record.game_key)
        return record

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


class ForfeitCause(enum.Enum):
    ABSENT = "absent"  # not connected (or too few of its processes or streams) for the whole wait
    CRASH = "crash"  # a launched bot that crashed more often than it is restarted

    @property
    def termination(self) -> Termination:
        return Termination(self.value)


@dataclass(frozen=True)
class Forfeit:
    """Why a bot loses a game it could not play."""

    bot: str
    cause: ForfeitCause
    detail: str
    """One line for people."""
    exit_status: int | None = None
    """A crash: how its last process ended (exit code; negative: killed by that signal); None if
    not known.
    """

    @property
    def reason(self) -> str:
        return f"forfeit ({self.cause.value}): {self.bot} {self.detail}"


class EvidenceError(DomainError, ValueError):
    """Stored evidence that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class Evidence:
    """What the arena measured when a game ended by a fault: stored with the row
    so that ``--verify`` can hold the fault against the game's own replay.

    A row that says "timeout of B" is only worth what can be checked of it: the
    evidence says which seat was at fault and after how many actions, and what
    the clock and the process showed, so a replay to that point can tell whether
    it was that seat's turn and whether the measurement fits the fault."""

    seat: int
    """The seat at fault (for a forfeit: the first seat of the bot that forfeited)."""
    moves: int
    """Actions played before the fault: the row's action log up to it."""
    move_time: float | None = None
    """The clock: seconds per decision, as the game was played."""
    bank: float | None = None
    """The clock: the seat's extra seconds for the whole game, at its start."""
    bank_used: float | None = None
    """Seconds of bank the seat had spent on its answered decisions."""
    waited: float | None = None
    """A timeout: seconds the seat had been on its clock when the arena gave up."""
    exit_code: int | None = None
    """A launched bot's process that exited: its exit status (None: not known)."""
    signal: int | None = None
    """A launched bot's process killed by a signal: its number (None: not known)."""

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v is not None}, sort_keys=True,
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: Any) -> Evidence:
        """Stored evidence read back, every field of its type (no bool for a
        number) and none of its own; EvidenceError says what is wrong."""
        try:
            raw = msgspec.json.decode(text, type=dict[str, Any])
            if set(raw) - set(cls.__dataclass_fields__):
                raise EvidenceError("stored evidence has fields of its own")
            return msgspec.convert(raw, cls, strict=True)
        except msgspec.ValidationError as exc:  # "Expected `int`, got `str` - at `$.seat`"
            raise EvidenceError(f"stored evidence: {exc}") from None
        except (msgspec.DecodeError, TypeError, RecursionError):
            raise EvidenceError("stored evidence is not valid JSON") from None
