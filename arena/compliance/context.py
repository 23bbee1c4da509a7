"""What the checks share: the arena, the bot process under test, the games
played so far, and the one way to play another game; the sorting of a fault
into the check that owns it; and the reasons the arena gave for refusing a
Hello."""

from __future__ import annotations

import asyncio
import enum
import itertools
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.errors import DomainError
from arena.games.seeds import GAME_ID_HEX_DIGITS
from arena.server import (
    Arena,
    ArenaClosedError,
    BotUnavailableError,
    PlayedGame,
    TimeControl,
)
from arena.server.connection import Connection
from arena.tournament.launcher import LaunchedBot

from .check_settings import CheckSettings, opponent_names

# Sort the way a game ended by the bot under test's fault into the check
# that owns that kind of fault.
#
# The arena's ``Termination`` says timeout, disconnect, illegal action or
# protocol error; a protocol error covers three different mistakes (a bad
# action text, a Move that does not echo its Decision, a message that is not
# a Move at all), told apart here by the arena's one-line reason. A reason
# this module does not recognise falls to ``MESSAGE``, so no fault goes
# unreported.

class FaultKind(enum.Enum):
    TIMEOUT = "timeout"  # no Move within move time + bank
    ACTION = "action"  # an action that is not legal, empty, or not action text
    ECHO = "echo"  # a Move whose game_id/seq is not the open Decision's
    MESSAGE = "message"  # not a Move when one was due (a second Hello, an empty request...)
    DISCONNECT = "disconnect"  # the stream ended during a game (crash, exit, not reading)
    ARENA = "arena"  # the game ended without a winner (an arena error): nothing to judge


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    game_id: str
    variant: str
    seats: int
    reason: str
    """The arena's line, e.g. "seat 1 (mybot) ran out of time (...)" """

    def describe(self) -> str:
        return f"{self.reason} [game {self.game_id}, {self.variant} {self.seats} seats]"


def fault_of(record: PlayedGame, bot_name: str) -> Fault | None:
    """The bot's fault that ended ``record``, or None if the game was not lost by it."""
    term = record.termination
    if term is Termination.INTERRUPTED:
        return _fault(FaultKind.ARENA, record)
    if record.faulty_bot != bot_name:
        return None
    if term is Termination.TIMEOUT:
        return _fault(FaultKind.TIMEOUT, record)
    if term is Termination.DISCONNECT:
        return _fault(FaultKind.DISCONNECT, record)
    if term is Termination.ILLEGAL_ACTION:
        return _fault(FaultKind.ACTION, record)
    reason = record.reason
    if "empty action" in reason or "malformed action" in reason:
        return _fault(FaultKind.ACTION, record)
    if "Move with seq" in reason or "Move for unknown game id" in reason:
        return _fault(FaultKind.ECHO, record)
    return _fault(FaultKind.MESSAGE, record)


def _fault(kind: FaultKind, record: PlayedGame) -> Fault:
    o = record.options
    return Fault(kind, record.game_id, o.variant, o.seats, record.reason)


# The reasons the arena gave for refusing a Hello, so that a bot that never
# got in hears why (wrong protocol version, a name that does not match the
# token, no Hello in time...).
#
# The arena tells a refused stream why in a closing Status and logs it; it
# keeps no list. This handler collects those log records of the
# ``arena.server`` logger: when a stream is dropped, ``Connection.drop`` logs
# ``(stream, reason)`` at INFO and the servicer's refusals start with
# "rejected: ". If that wording ever changes, the hello check still fails a
# bot that does not get in; it only loses the arena's explanation.

_REJECTED = "rejected: "
_KEPT = 10  # reasons kept: a bot that retries in a loop must not grow the list
_CLIP = 300  # characters per reason: it may quote what the bot sent


class RejectionLog(logging.Handler):
    """Collects the arena's Hello refusals while installed (``with``).

    The logger's level is lowered to INFO meanwhile; records below the level
    it had are kept from propagating, so nobody else's log gets louder."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.reasons: list[str] = []
        self._logger = logging.getLogger("arena.server")
        self._saved_level = self._logger.level
        self._saved_propagate = self._logger.propagate
        self._passed = self._logger.getEffectiveLevel()  # what reached other handlers before

    def emit(self, record: logging.LogRecord) -> None:
        reason = _refusal(record)
        if reason is not None and len(self.reasons) < _KEPT:
            self.reasons.append(reason)
        parent = self._logger.parent
        if self._saved_propagate and record.levelno >= self._passed and parent is not None:
            parent.handle(record)  # propagation as it was before

    def __enter__(self) -> Self:
        logger = self._logger
        self._saved_level, self._saved_propagate = logger.level, logger.propagate
        self._passed = logger.getEffectiveLevel()
        logger.setLevel(min(self._passed, logging.INFO))
        logger.propagate = False
        logger.addHandler(self)
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved_level)
        self._logger.propagate = self._saved_propagate


def _refusal(record: logging.LogRecord) -> str | None:
    """The reason of a refused Hello, if ``record`` is the log of one."""
    args = record.args
    if isinstance(args, tuple) and len(args) == 2 and isinstance(args[1], str) and args[1].startswith(_REJECTED):
        return args[1].removeprefix(_REJECTED)[:_CLIP]
    return None


# What the checks share: the arena, the bot process under test, the games
# played so far, and the one way to play another game.

_ACQUIRE_SLICE = 0.5  # seconds


class CannotPlayError(DomainError):
    """A game could not start: the message says why (e.g. the bot has no stream)."""


@dataclass
class CheckContext:
    settings: CheckSettings
    arena: Arena
    address: str
    rejections: RejectionLog
    bot: LaunchedBot | None = None
    connected: bool = False
    """Set by the hello check."""
    games: list[PlayedGame] = field(default_factory=list)
    """Every game played, in order."""
    rng: random.Random = field(default_factory=random.SystemRandom)
    """Deals, game ids, seeds and the opponents' names: drawn like a tournament's (fresh,
    63-bit, opaque), from ``settings.seed`` when given.
    """
    opponent: str = ""
    """The name of the ordinary opponent (a launched sample bot)"""
    staller: str = ""
    """The name of the in-process opponent that times out on purpose."""
    _game_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        if self.settings.seed is not None:
            self.rng = random.Random(self.settings.seed)
        if not self.opponent:
            self.opponent, self.staller = opponent_names(self.rng, self.settings.name)

    @property
    def name(self) -> str:
        return self.settings.name

    # ------------------------------------------------------------- the bot

    def exit_note(self) -> str | None:
        """"the bot's process exited with code N" once it has, else None."""
        if self.bot is None or not self.bot.exited:
            return None
        return f"the bot's process exited with code {self.bot.process.returncode} (see {self.bot.log_path})"

    def streams(self) -> list[Connection]:
        """The bot's open streams."""
        return [c for c in self.arena.pool.connections() if c.name == self.name and c.alive]

    # --------------------------------------------------------------- games

    def seats_for(self, seats: int, bot_team: int) -> list[str]:
        """Seat names: the bot in every seat of ``bot_team``, the opponent elsewhere."""
        return [self.name if s % 2 == bot_team else self.opponent for s in range(seats)]

    async def play(
        self, check: str, seat_names: Sequence[str], variant: str, time_control: TimeControl | None = None
    ) -> PlayedGame:
        """Play one game with ``seat_names[s]`` in seat ``s``; CannotPlayError if it cannot start."""
        note = self.exit_note()
        if note is not None:
            raise CannotPlayError(note)
        next(self._game_numbers)
        # As a tournament draws them (arena/games/seeds.py): nothing in the
        # GameStart names the check or repeats from one run to the next.
        seed = self.rng.getrandbits(63)
        game_id = f"{self.rng.getrandbits(4 * GAME_ID_HEX_DIGITS):0{GAME_ID_HEX_DIGITS}x}"
        options = make_options(variant, {"seats": len(seat_names)})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.timeout
        while True:
            # Short waits for idle streams, so that a bot whose process died
            # is reported at once rather than after the whole timeout.
            slice_ = max(0.01, min(_ACQUIRE_SLICE, deadline - loop.time()))
            try:
                record = await self.arena.play_seats(
                    seat_names, options, seed, time_control or self.settings.time_control,
                    acquire_timeout=slice_,
                    game_id=game_id,
                    rng_seeds=[self.rng.getrandbits(63) for _ in seat_names],
                )
                break
            except BotUnavailableError:
                note = self.exit_note()
                if note is not None:
                    raise CannotPlayError(note) from None
                if loop.time() >= deadline:
                    raise CannotPlayError(self._unavailable(seat_names.count(self.name))) from None
            except ArenaClosedError:
                raise CannotPlayError("the arena is shutting down") from None
        self.games.append(record)
        return record

    def _unavailable(self, needed: int) -> str:
        status = self.arena.bots().get(self.name)
        have = "no stream open" if status is None else f"{status.streams} stream(s) open, {status.idle} idle"
        return f"the game needs {needed} idle stream(s) of the bot; after {self.settings.timeout:g} s it has {have}"

    def fault(self, record: PlayedGame) -> Fault | None:
        return fault_of(record, self.name)

    def faults(self) -> list[Fault]:
        """The bot's faults over every game played so far, in order."""
        return [f for r in self.games if (f := self.fault(r)) is not None]

    def slowest_answer(self) -> float:
        """Seconds, the longest the bot took for a Move the arena accepted (0 when none)."""
        # move_times is aligned with actions; strict=False so that a record
        # that ever differs costs a figure, not the run.
        return max(
            (t for r in self.games for a, t in zip(r.actions, r.move_times, strict=False) if self._by_bot(r, a)),
            default=0.0,
        )

    def _by_bot(self, record: PlayedGame, action: str) -> bool:
        """Whether ``action`` ("SEAT ACTION") of ``record`` was the bot's."""
        return record.bots[int(action.split(" ", 1)[0])] == self.name

    def decisions_answered(self) -> int:
        """Moves of the bot the arena accepted, over every game played so far."""
        return sum(
            1 for r in self.games for a in r.actions if self._by_bot(r, a)
        )
