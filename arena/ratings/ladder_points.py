"""Ladder points: the simple running score of the Uruguayan ladder.

+30 for a win, -20 for a loss, never below zero, applied game by game in the
order given (so, unlike Elo, order matters: a loss at zero costs nothing).
Every bot starts at ``start`` (0). This is a second, intuitive view beside
Elo, not a strength estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .records import decided

WIN_POINTS = 30
LOSS_POINTS = 20


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One bot's ladder position after all games."""

    rank: int
    bot: str
    points: int
    wins: int
    losses: int


def ladder(
    records: Sequence[GameRecord],
    *,
    win: int = WIN_POINTS,
    loss: int = LOSS_POINTS,
    start: int = 0,
) -> tuple[LadderRow, ...]:
    """Ladder after the decided games of ``records`` in input order; best first, ties by name."""
    points: dict[str, int] = {}
    wins: dict[str, int] = {}
    losses: dict[str, int] = {}
    for r in decided(records):
        loser = r.loser
        assert r.winner is not None and loser is not None
        for b in (r.winner, loser):
            points.setdefault(b, start)
            wins.setdefault(b, 0)
            losses.setdefault(b, 0)
        points[r.winner] += win
        points[loser] = max(0, points[loser] - loss)
        wins[r.winner] += 1
        losses[loser] += 1
    order = sorted(points, key=lambda b: (-points[b], b))
    return tuple(LadderRow(i + 1, b, points[b], wins[b], losses[b]) for i, b in enumerate(order))
