"""Duplicate-pair statistics per matchup (two bots).

In a duplicate pair both bots play the same deal once from each seat. A bot
that wins both games (2-0) outplayed the other with the cards held equal; a
1-1 split means the deal, not the bots, decided it. The pair score counts a
sweep as 1 point and a split as 1/2 for each bot, so it is a win rate with the
luck of the deal cancelled out; ``split_rate`` says how often the deal decided.

A complete pair is exactly two decided games with one ``pair_id`` and the same
bots in swapped seats. A pair with one decided game (the other interrupted)
is counted as incomplete. More than two games, or games that are not a seat
swap, under one ``pair_id`` are an upstream bug and raise ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord, RecordError


@dataclass(frozen=True, slots=True)
class PairStats:
    """Duplicate-pair results of ``bot_x`` vs ``bot_y`` (names in sorted order)."""

    bot_x: str
    bot_y: str
    complete_pairs: int
    x_sweeps: int
    """Pairs bot_x won 2-0."""
    y_sweeps: int
    """Pairs bot_y won 2-0."""
    splits: int
    """Pairs split 1-1."""
    incomplete_pairs: int
    """Pairs with fewer than two decided games."""

    @property
    def pair_score_x(self) -> float | None:
        """bot_x's pair points / complete pairs (sweep 1, split 1/2); None if none."""
        if not self.complete_pairs:
            return None
        return (self.x_sweeps + 0.5 * self.splits) / self.complete_pairs

    @property
    def pair_score_y(self) -> float | None:
        """bot_y's pair points / complete pairs; None if none."""
        s = self.pair_score_x
        return None if s is None else 1.0 - s

    @property
    def split_rate(self) -> float | None:
        """Share of complete pairs split 1-1 (decided by the deal); None if none."""
        return self.splits / self.complete_pairs if self.complete_pairs else None


def pair_stats(records: Sequence[GameRecord]) -> tuple[PairStats, ...]:
    """Pair statistics for every matchup that has at least one paired game, by names."""
    groups: dict[str, list[GameRecord]] = {}
    for r in records:
        if r.pair_id is not None:
            groups.setdefault(r.pair_id, []).append(r)
    counts: dict[tuple[str, str], list[int]] = {}  # complete, x2-0, y2-0, 1-1, incomplete
    for pair_id, games in groups.items():
        if len(games) > 2:
            raise RecordError(f"pair {pair_id!r} has {len(games)} games; a duplicate pair has two")
        if len(games) == 2 and (games[0].bot0, games[0].bot1) != (games[1].bot1, games[1].bot0):
            raise RecordError(f"pair {pair_id!r} is not the same two bots with seats swapped")
        x, y = sorted((games[0].bot0, games[0].bot1))
        c = counts.setdefault((x, y), [0, 0, 0, 0, 0])
        winners = [g.winner for g in games if g.winner is not None]
        if len(winners) < 2:
            c[4] += 1
            continue
        c[0] += 1
        x_wins = winners.count(x)
        c[1 if x_wins == 2 else 2 if x_wins == 0 else 3] += 1
    return tuple(PairStats(x, y, *c) for (x, y), c in sorted(counts.items()))
