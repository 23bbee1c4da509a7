"""Head-to-head cross table over decided games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .records import bots_of, decided


@dataclass(frozen=True, slots=True)
class CrossCell:
    """Results of ``row`` against ``col``, from ``row``'s side."""

    row: str
    col: str
    wins: int
    """Games row won against col."""
    games: int
    """Decided games between the two."""
    score_pct: float | None
    """Wins / games * 100; None if they never met."""


@dataclass(frozen=True, slots=True)
class CrossTable:
    """Every ordered pair of distinct bots, rows and columns in ``bots`` order."""

    bots: tuple[str, ...]
    cells: tuple[CrossCell, ...]
    """row-major over ``bots``, diagonal omitted."""

    def cell(self, row: str, col: str) -> CrossCell:
        """The cell of ``row`` against ``col``; KeyError if either is unknown."""
        for c in self.cells:
            if c.row == row and c.col == col:
                return c
        raise KeyError((row, col))


def cross_table(records: Sequence[GameRecord], *, order: Sequence[str] | None = None) -> CrossTable:
    """Cross table of ``records``; ``order`` (e.g. the standings order) sets row order.

    Bots default to name order; bots in ``order`` without games get empty cells.
    """
    games = decided(records)
    bots = tuple(order) if order is not None else bots_of(games)
    wins: dict[tuple[str, str], int] = {}
    for r in games:
        loser = r.loser
        assert r.winner is not None and loser is not None
        wins[(r.winner, loser)] = wins.get((r.winner, loser), 0) + 1
    cells: list[CrossCell] = []
    for row in bots:
        for col in bots:
            if row == col:
                continue
            w = wins.get((row, col), 0)
            n = w + wins.get((col, row), 0)
            cells.append(CrossCell(row, col, w, n, 100.0 * w / n if n else None))
    return CrossTable(bots, tuple(cells))
