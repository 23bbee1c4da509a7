"""Plain win/loss counting per bot over decided games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .records import decided


@dataclass(frozen=True, slots=True)
class WinLoss:
    """Decided games, wins and losses of one bot."""

    games: int
    wins: int
    losses: int

    @property
    def score_pct(self) -> float | None:
        """Wins as a percentage of decided games; None without games."""
        return 100.0 * self.wins / self.games if self.games else None


def win_loss(records: Sequence[GameRecord]) -> dict[str, WinLoss]:
    """Per-bot counts over the decided games of ``records``."""
    wins: dict[str, int] = {}
    losses: dict[str, int] = {}
    for r in decided(records):
        loser = r.loser
        assert r.winner is not None and loser is not None
        wins[r.winner] = wins.get(r.winner, 0) + 1
        losses[loser] = losses.get(loser, 0) + 1
        wins.setdefault(loser, 0)
        losses.setdefault(r.winner, 0)
    return {b: WinLoss(wins[b] + losses[b], wins[b], losses[b]) for b in sorted(wins)}
