"""A game a bot loses without playing it: why, in one typed value."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..engine.outcome import Termination


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
