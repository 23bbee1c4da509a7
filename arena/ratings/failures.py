"""Failure counts per bot: the games a bot lost by breaking the protocol.

A failure is a game ended by ``timeout``, ``disconnect``, ``illegal_action`` or
``protocol_error``, charged to ``loser_fault``. If the referee left
``loser_fault`` empty the failure is charged to the loser, since the failing
bot is the one that forfeits; with neither known it is not counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .records import GameRecord, bots_of


@dataclass(frozen=True, slots=True)
class FailureCounts:
    """How often one bot ended a game by failing, per kind."""

    bot: str
    timeouts: int
    disconnects: int
    illegal_actions: int
    protocol_errors: int

    @property
    def total(self) -> int:
        """All failures of the bot."""
        return self.timeouts + self.disconnects + self.illegal_actions + self.protocol_errors


_KIND_INDEX = {"timeout": 0, "disconnect": 1, "illegal_action": 2, "protocol_error": 3}


def failure_counts(records: Sequence[GameRecord]) -> tuple[FailureCounts, ...]:
    """Failure counts for every bot in ``records`` (zeros included), by name."""
    counts = {b: [0, 0, 0, 0] for b in bots_of(records)}
    for r in records:
        kind = _KIND_INDEX.get(r.termination)
        if kind is None:
            continue
        culprit = r.loser_fault if r.loser_fault is not None else r.loser
        if culprit is not None:
            counts[culprit][kind] += 1
    return tuple(FailureCounts(b, *c) for b, c in counts.items())
