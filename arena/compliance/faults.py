"""Sort the way a game ended by the bot under test's fault into the check
that owns that kind of fault.

The arena's ``Termination`` says timeout, disconnect, illegal action or
protocol error; a protocol error covers three different mistakes (a bad
action text, a Move that does not echo its Decision, a message that is not
a Move at all), told apart here by the arena's one-line reason. A reason
this module does not recognise falls to ``MESSAGE``, so no fault goes
unreported.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from arena.engine.outcome import Termination
from arena.server import PlayedGame


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
    reason: str  # the arena's line, e.g. "seat 1 (mybot) ran out of time (...)"

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
