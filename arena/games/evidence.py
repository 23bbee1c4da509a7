"""What the arena measured when a game ended by a fault: stored with the row
so that ``--verify`` can hold the fault against the game's own replay.

A row that says "timeout of B" is only worth what can be checked of it: the
evidence says which seat was at fault and after how many actions, and what
the clock and the process showed, so a replay to that point can tell whether
it was that seat's turn and whether the measurement fits the fault.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from arena.errors import DomainError


class EvidenceError(DomainError, ValueError):
    """Stored evidence that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class Evidence:
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
        try:
            raw = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            raise EvidenceError("stored evidence is not valid JSON") from None
        if not isinstance(raw, dict) or set(raw) - set(cls.__dataclass_fields__):
            raise EvidenceError("stored evidence has fields of its own")
        for name in ("seat", "moves"):
            if type(raw.get(name)) is not int:
                raise EvidenceError(f"stored evidence has no whole {name}")
        for name in ("exit_code", "signal"):
            if name in raw and type(raw[name]) is not int:
                raise EvidenceError(f"stored evidence {name} is not a whole number")
        for name in ("move_time", "bank", "bank_used", "waited"):
            if name in raw and type(raw[name]) not in (int, float):
                raise EvidenceError(f"stored evidence {name} is not a number")
        return cls(**raw)
