"""Placing a new bot in a ladder of fixed reference ratings.

The reference bots keep the Elo measured for them (their own round robin);
only the newcomer's rating is estimated, by maximum likelihood under the same
Bradley-Terry model as ``fit_ratings``: P(new beats j) = 1 / (1 + 10^((r_j -
r) / 400)), over its wins and losses against each reference bot.

Prior: as in ``bradley_terry``, one virtual draw (``prior_games``), here
against a virtual opponent at the mean of the reference ratings, so a bot
that wins (or loses) every game still gets a finite rating and interval:
above the best bot it beat every time, below the worst it lost to every time.

Interval: the variance of the estimate is the inverse Fisher information of
the newcomer's games plus the uncertainty it inherits from the reference
ratings (they were measured, not known): with ``g_j = d r / d r_j`` (implicit
differentiation of the likelihood equation), ``g^T C g`` for the reference
covariance ``C``. Games are taken as independent; duplicate pairs make that
conservative.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from .rating_fit import ELO_PER_NAT, Z95

_BISECTIONS = 200
_REACH = 4000.0  # Elo beyond the reference range where the root is sought; far beyond any real gap


@dataclass(frozen=True, slots=True)
class Reference:
    """Fixed ratings: bot names, their Elo and the covariance of those Elo (Elo^2)."""

    bots: tuple[str, ...]
    elo: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a new bot lands: its Elo, standard error, 95% interval and rank (1 = top)."""

    elo: float
    stderr: float
    low: float
    high: float
    rank: int
    """Among the reference bots and the newcomer."""
    games: int


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def place(reference: Reference, results: Mapping[str, tuple[int, int]], *, prior_games: float = 1.0,
          z: float = Z95) -> Placement:
    """The newcomer's placement from ``results``: reference bot -> (wins, losses) of the newcomer.

    Raises ``ValueError`` for a bot not in ``reference``, negative counts or no reference bots.
    """
    if not reference.bots:
        raise ValueError("no reference bots to place against")
    if prior_games <= 0 or not math.isfinite(prior_games):
        raise ValueError(f"prior_games must be a finite number > 0, got {prior_games!r}")
    index = {b: i for i, b in enumerate(reference.bots)}
    m = len(reference.bots)
    wins, games = [0] * m, [0] * m
    for bot, (w, lost) in results.items():
        if bot not in index:
            raise ValueError(f"{bot!r} is not a reference bot")
        if w < 0 or lost < 0:
            raise ValueError(f"negative counts against {bot!r}: {w} wins, {lost} losses")
        wins[index[bot]] += w
        games[index[bot]] += w + lost
    r = [e / ELO_PER_NAT for e in reference.elo]
    mean = sum(r) / m

    def slope(theta: float) -> float:  # derivative of the log-likelihood, decreasing in theta
        s = prior_games * (0.5 - _sigmoid(theta - mean))
        return s + sum(w - n * _sigmoid(theta - rj) for w, n, rj in zip(wins, games, r))

    lo, hi = min(r) - _REACH / ELO_PER_NAT, max(r) + _REACH / ELO_PER_NAT
    for _ in range(_BISECTIONS):
        mid = 0.5 * (lo + hi)
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = 0.5 * (lo + hi)
    h = [n * _sigmoid(theta - rj) * (1.0 - _sigmoid(theta - rj)) for n, rj in zip(games, r)]
    p0 = _sigmoid(theta - mean)
    h0 = prior_games * p0 * (1.0 - p0)
    info = sum(h) + h0
    g = [(hj + h0 / m) / info for hj in h]  # d theta / d r_j: the weight of each reference rating
    inherited = sum(g[i] * reference.covariance[i][j] * g[j] for i in range(m) for j in range(m))
    stderr = math.sqrt(ELO_PER_NAT**2 / info + max(inherited, 0.0))
    elo = theta * ELO_PER_NAT
    rank = 1 + sum(e > elo for e in reference.elo)
    return Placement(elo, stderr, elo - z * stderr, elo + z * stderr, rank, sum(games))
