"""How a game ended: a ``Termination`` reason and an ``Outcome`` record."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.StrEnum):
    """How a game ended; its value is what the store, the protocol and JSON
    hold (a ``StrEnum``, so it is written as its value wherever text goes)."""

    TARGET_REACHED = "target_reached"  # the rules ended it (docs/rules.md 6)
    # The referee ends a game early when a bot fails; the failing side loses.
    TIMEOUT = "timeout"
    DISCONNECT = "disconnect"
    ILLEGAL_ACTION = "illegal_action"
    PROTOCOL_ERROR = "protocol_error"
    # Forfeits of a game that never started: the bot was not connected, or
    # (a launched bot) crashed more often than it is restarted.
    ABSENT = "absent"
    CRASH = "crash"
    # The arena shut down; the game has no winner.
    INTERRUPTED = "interrupted"

    @property
    def is_fault(self) -> bool:
        """The game ended (or never started) because one bot failed; that bot lost."""
        return self not in (Termination.TARGET_REACHED, Termination.INTERRUPTED)


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: int | None
    """Winning team, None when interrupted."""
    scores: tuple[int, int]
    hands_played: int
    faulty_seat: int | None = None
    """The seat whose failure ended the game."""

    def to_dict(self) -> dict[str, object]:
        return {
            "termination": self.termination.value,
            "winner": self.winner,
            "scores": list(self.scores),
            "hands_played": self.hands_played,
            "faulty_seat": self.faulty_seat,
        }
