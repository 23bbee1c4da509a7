"""Compare two ratings runs (e.g. before/after a bot update or more games).

Per bot: rank and Elo in both runs and the Elo change with an interval. The
two fits are independent data sets, so the change's standard error is
sqrt(se_old^2 + se_new^2). Both runs must use the same anchoring for the
deltas to mean anything (the defaults do: mean at 1500). Rank correlations are
over the bots rated in both runs, from their Elo values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .correlation import kendall_tau, spearman
from .rating_fit import DEFAULT_BASE, Z95, RatingFit, fit_ratings


@dataclass(frozen=True, slots=True)
class CompareRow:
    """One bot rated in both runs."""

    bot: str
    old_rank: int
    new_rank: int
    rank_move: int
    """old_rank - new_rank: positive = moved up."""
    old_elo: float
    new_elo: float
    delta: float
    """new_elo - old_elo."""
    delta_low: float
    delta_high: float


@dataclass(frozen=True, slots=True)
class Comparison:
    """Result of ``compare``; ``rows`` in new-rank order."""

    rows: tuple[CompareRow, ...]
    added: tuple[str, ...]
    """Rated only in the new run."""
    removed: tuple[str, ...]
    """Rated only in the old run."""
    spearman: float | None
    """None with < 2 common bots or no spread."""
    kendall_tau: float | None


def compare_fits(old: RatingFit, new: RatingFit, *, z: float = Z95) -> Comparison:
    """Compare two already computed fits."""
    old_rank = {b: i + 1 for i, b in enumerate(old.ranking())}
    new_rank = {b: i + 1 for i, b in enumerate(new.ranking())}
    common = [b for b in new.ranking() if b in old_rank]
    rows: list[CompareRow] = []
    for b in common:
        delta = new.rating(b) - old.rating(b)
        half = z * math.sqrt(old.stderr(b) ** 2 + new.stderr(b) ** 2)
        rows.append(
            CompareRow(
                bot=b,
                old_rank=old_rank[b],
                new_rank=new_rank[b],
                rank_move=old_rank[b] - new_rank[b],
                old_elo=old.rating(b),
                new_elo=new.rating(b),
                delta=delta,
                delta_low=delta - half,
                delta_high=delta + half,
            )
        )
    old_values = [old.rating(b) for b in common]
    new_values = [new.rating(b) for b in common]
    return Comparison(
        rows=tuple(rows),
        added=tuple(sorted(set(new_rank) - set(old_rank))),
        removed=tuple(sorted(set(old_rank) - set(new_rank))),
        spearman=spearman(old_values, new_values),
        kendall_tau=kendall_tau(old_values, new_values),
    )


def compare(
    old_records: Sequence[GameRecord],
    new_records: Sequence[GameRecord],
    *,
    anchor: str | None = None,
    base: float = DEFAULT_BASE,
    prior_games: float = 1.0,
    z: float = Z95,
) -> Comparison:
    """Fit both record sets the same way and compare them bot by bot."""
    old = fit_ratings(old_records, anchor=anchor, base=base, prior_games=prior_games)
    new = fit_ratings(new_records, anchor=anchor, base=base, prior_games=prior_games)
    return compare_fits(old, new, z=z)
