"""The one input of the ratings package: a finished game, as the arena records it.

Records are validated when built, so every later step can trust that the
winner and the faulting bot are one of the two players.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.outcome import Termination
from ..errors import DomainError


class RecordError(DomainError, ValueError):
    """Game records that contradict themselves or each other (a winner who
    did not play, a duplicate pair without swapped seats); one line."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished (or interrupted) game between two bots.

    ``winner`` is None when the game has no result (interrupted); such games
    are ignored by every rating view. ``pair_id`` groups the two games of a
    duplicate pair (same deal seed, seats swapped).
    """

    bot_a: str  # the bot in seat/team 0
    bot_b: str  # the bot in seat/team 1
    winner: str | None
    termination: Termination  # a fault termination (``is_fault``) names the failing bot in loser_fault
    loser_fault: str | None = None
    pair_id: str | None = None
    game_id: str | None = None  # the game's key in the results store, to point people at it
    reason: str = ""  # why the game ended, one line for people
    # CPU seconds each side's bot spent on the game, where its sandbox measured them.
    cpu_a: float | None = None
    cpu_b: float | None = None
    # Moves each bot marked as a fallback (its code failed and it played a legal action instead)
    fallbacks_a: int = 0
    fallbacks_b: int = 0

    def __post_init__(self) -> None:
        if self.bot_a == self.bot_b:
            raise RecordError(f"bot_a and bot_b are both {self.bot_a!r}: a bot cannot play itself")
        if self.winner is not None and self.winner not in (self.bot_a, self.bot_b):
            raise RecordError(f"winner {self.winner!r} is neither {self.bot_a!r} nor {self.bot_b!r}")
        if not isinstance(self.termination, Termination):
            raise RecordError(f"termination {self.termination!r} is not a Termination")
        if self.loser_fault is not None and self.loser_fault not in (self.bot_a, self.bot_b):
            raise RecordError(f"loser_fault {self.loser_fault!r} is neither {self.bot_a!r} nor {self.bot_b!r}")

    @property
    def loser(self) -> str | None:
        """The bot that lost, or None when the game has no result."""
        if self.winner is None:
            return None
        return self.bot_b if self.winner == self.bot_a else self.bot_a


def decided(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The games that have a winner, in input order (the only ones that rate)."""
    return [r for r in records if r.winner is not None]


def bots_of(records: Iterable[GameRecord]) -> tuple[str, ...]:
    """Every bot named as a player in ``records``, sorted by name."""
    names: set[str] = set()
    for r in records:
        names.add(r.bot_a)
        names.add(r.bot_b)
    return tuple(sorted(names))
