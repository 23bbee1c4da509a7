"""Failures per bot: the games a bot lost by breaking the protocol, counted
per kind (``failure_counts``) and listed one by one (``failed_games``).

A failure is a game ended by ``timeout``, ``disconnect``, ``illegal_action`` or
``protocol_error``, charged to ``faulty_bot``. If the referee left
``faulty_bot`` empty the failure is charged to the loser, since the failing
bot is the one that forfeits; with neither known it is not counted.

Fallbacks cost no game: a Move the bot marked as a fallback (its code failed,
e.g. the Python SDK's choose() raised, and it played the first legal action)
is counted per bot beside the failures, so a bot that keeps failing quietly
shows up too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.outcome import Termination
from ..games.game_record import GameRecord
from .records import bots_of


@dataclass(frozen=True, slots=True)
class FailureCounts:
    """How often one bot ended a game by failing, per kind."""

    bot: str
    timeouts: int
    disconnects: int
    illegal_actions: int
    protocol_errors: int
    fallbacks: int = 0
    """Moves marked as a fallback, over all its games (not in ``total``: no game lost)"""

    @property
    def total(self) -> int:
        """All games the bot lost by failing."""
        return self.timeouts + self.disconnects + self.illegal_actions + self.protocol_errors


@dataclass(frozen=True, slots=True)
class FailedGame:
    """One game a bot lost by failing, with what the referee said about it."""

    game_id: str | None
    bot: str
    """The bot charged with the failure."""
    kind: Termination
    """A fault termination (``is_fault``)"""
    reason: str


# A forfeit for being absent or crashed counts with the disconnects: the bot was not there to play.
_KIND_INDEX = {Termination.TIMEOUT: 0, Termination.DISCONNECT: 1, Termination.ILLEGAL_ACTION: 2,
               Termination.PROTOCOL_ERROR: 3, Termination.ABSENT: 1, Termination.CRASH: 1}


def _culprit(record: GameRecord) -> str | None:
    return record.faulty_bot if record.faulty_bot is not None else record.loser


def failed_games(records: Sequence[GameRecord]) -> tuple[FailedGame, ...]:
    """Every failure that ``failure_counts`` counts, in input order."""
    return tuple(
        FailedGame(r.game_id, culprit, r.termination, r.reason)
        for r in records
        if r.termination in _KIND_INDEX and (culprit := _culprit(r)) is not None
    )


def failure_counts(records: Sequence[GameRecord]) -> tuple[FailureCounts, ...]:
    """Failure counts for every bot in ``records`` (zeros included), by name."""
    counts = {b: [0, 0, 0, 0, 0] for b in bots_of(records)}
    for r in records:
        counts[r.bot0][4] += r.fallbacks0
        counts[r.bot1][4] += r.fallbacks1
        kind = _KIND_INDEX.get(r.termination)
        if kind is None:
            continue
        culprit = _culprit(r)
        if culprit is not None:
            counts[culprit][kind] += 1
    return tuple(FailureCounts(b, *c) for b, c in counts.items())
