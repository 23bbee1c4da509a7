"""The standings table: one row per rated bot, best Elo first.

Ranks are 1..n in Elo order (ties broken by name, never shared), so the
"next" bot of a row is simply the row below; ``los_next`` is the likelihood of
superiority over it. Interval bounds come from the fit unless bootstrap
intervals are passed in; then LOS comes from the bootstrap too (the share of
replicates in which the bot is above the next), except for a bot that won or
lost every game, whose bootstrap interval collapses: it keeps the fit's
interval (``interval_method`` says which a row has).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .bootstrap import BootstrapIntervals
from .los import likelihood_of_superiority
from .rating_fit import Z95, RatingFit, fit_ratings
from .wins import WinLoss, win_loss


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One bot's line in the standings."""

    rank: int
    bot: str
    games: int
    wins: int
    losses: int
    score_pct: float
    """Wins / games * 100."""
    elo: float
    elo_low: float
    elo_high: float
    los_next: float | None
    """LOS over the bot ranked just below; None for the last."""
    interval_method: str = "fisher"
    """"fisher" (the fit's) or "bootstrap" """


def standings(
    records: Sequence[GameRecord],
    *,
    fit: RatingFit | None = None,
    bootstrap: BootstrapIntervals | None = None,
    z: float = Z95,
) -> tuple[StandingsRow, ...]:
    """Standings of the decided games in ``records``, sorted by Elo descending.

    ``fit`` defaults to ``fit_ratings(records)`` (mean at 1500, one virtual
    draw); pass one to choose the anchor or prior. With ``bootstrap`` the
    interval columns are its percentile intervals, else ``elo +- z * se``.
    """
    if fit is None:
        fit = fit_ratings(records)
    counts = win_loss(records)
    order = fit.ranking()
    rows: list[StandingsRow] = []
    for i, bot in enumerate(order):
        wl = counts.get(bot, WinLoss(0, 0, 0))
        extreme = wl.wins == 0 or wl.losses == 0  # 0% or 100%: the bootstrap has nothing to vary
        method = "bootstrap" if bootstrap is not None and not extreme else "fisher"
        low, high = bootstrap.interval(bot) if bootstrap is not None and method == "bootstrap" \
            else fit.interval(bot, z)
        los_next = None
        if i + 1 < len(order):
            los_next = bootstrap.los(bot, order[i + 1]) if bootstrap is not None else None
            if los_next is None:
                los_next = likelihood_of_superiority(fit, bot, order[i + 1])
        rows.append(
            StandingsRow(
                rank=i + 1,
                bot=bot,
                games=wl.games,
                wins=wl.wins,
                losses=wl.losses,
                score_pct=wl.score_pct or 0.0,
                elo=fit.rating(bot),
                elo_low=low,
                elo_high=high,
                los_next=los_next,
                interval_method=method,
            )
        )
    return tuple(rows)
