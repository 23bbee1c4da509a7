"""Bradley-Terry ratings on the Elo scale, anchored, with fit-based intervals.

Logit strengths are turned into Elo with the usual 400*log10 scale (a 400
point gap means 10:1 odds) and then anchored, because the model only fixes
differences: by default the mean of the rated bots is put at ``base`` (1500);
with ``anchor="name"`` that bot is put at exactly ``base`` instead.

Intervals here are the default ones: the covariance of the anchored ratings
is the delta-method transform of the inverse observed information,
``A C A^T`` with ``A`` the (linear) anchoring map, and an interval is
``elo +- z * se``. Under a named anchor that bot has zero width, since its
value is fixed by definition; the other bots' widths are then the
uncertainty of their difference to it. The bootstrap (``bootstrap.py``) is the
optional alternative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .bradley_terry import NaturalFit, fit_natural
from .linalg import mat_mul, transpose

ELO_PER_NAT = 400.0 / math.log(10.0)
DEFAULT_BASE = 1500.0
Z95 = 1.96  # two-sided 95% normal quantile, rounded as usually quoted


@dataclass(frozen=True, slots=True)
class RatingFit:
    """Anchored Elo ratings of ``bots`` and their covariance (Elo^2)."""

    bots: tuple[str, ...]
    elo: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    anchor: str | None
    """None = mean anchored at ``base``"""
    base: float
    prior_games: float
    iterations: int

    def index(self, bot: str) -> int:
        """Position of ``bot`` in ``bots``; KeyError if it was not rated."""
        try:
            return self.bots.index(bot)
        except ValueError:
            raise KeyError(bot) from None

    def rating(self, bot: str) -> float:
        """The Elo rating of ``bot``."""
        return self.elo[self.index(bot)]

    def stderr(self, bot: str) -> float:
        """Standard error of ``bot``'s anchored rating (Elo)."""
        i = self.index(bot)
        return math.sqrt(max(self.covariance[i][i], 0.0))

    def interval(self, bot: str, z: float = Z95) -> tuple[float, float]:
        """Normal-approximation interval ``rating +- z * stderr`` (95% by default)."""
        r, se = self.rating(bot), self.stderr(bot)
        return (r - z * se, r + z * se)

    def diff_stderr(self, a: str, b: str) -> float:
        """Standard error of ``rating(a) - rating(b)``: var a + var b - 2 cov(a, b)."""
        i, j = self.index(a), self.index(b)
        c = self.covariance
        return math.sqrt(max(c[i][i] + c[j][j] - 2.0 * c[i][j], 0.0))

    def ranking(self) -> tuple[str, ...]:
        """Bots by Elo, best first; equal ratings are ordered by name for stability."""
        return tuple(sorted(self.bots, key=lambda b: (-self.rating(b), b)))


def fit_ratings(
    records: Sequence[GameRecord],
    *,
    anchor: str | None = None,
    base: float = DEFAULT_BASE,
    prior_games: float = 1.0,
    bots: Sequence[str] | None = None,
) -> RatingFit:
    """Joint Bradley-Terry fit of all decided games, as anchored Elo ratings.

    ``anchor`` names the bot placed at ``base``; None places the mean there.
    ``prior_games`` is the weight of the virtual draw (see ``bradley_terry``).
    """
    return anchored(fit_natural(records, prior_games=prior_games, bots=bots), anchor=anchor, base=base,
                    prior_games=prior_games)


def anchored(nat: NaturalFit, *, anchor: str | None = None, base: float = DEFAULT_BASE,
             prior_games: float = 1.0) -> RatingFit:
    """A natural fit as Elo ratings, ``anchor`` at ``base`` (None: the mean there)."""
    n = len(nat.bots)
    if anchor is not None and anchor not in nat.bots:
        raise ValueError(f"anchor bot {anchor!r} has no decided game")
    # Anchoring map A: rating = base + ELO_PER_NAT * (A theta).
    if anchor is None:
        amap = [[(1.0 if i == j else 0.0) - 1.0 / n for j in range(n)] for i in range(n)]
    else:
        k = nat.bots.index(anchor)
        amap = [[(1.0 if i == j else 0.0) - (1.0 if j == k else 0.0) for j in range(n)] for i in range(n)]
    shifted = [sum(a * t for a, t in zip(row, nat.theta)) for row in amap]
    elo = tuple(base + ELO_PER_NAT * x for x in shifted)
    if anchor is not None:
        # Exact by definition, free of rounding.
        elo = tuple(base if b == anchor else e for b, e in zip(nat.bots, elo))
    cov_nat = [list(row) for row in nat.covariance]
    cov = mat_mul(mat_mul(amap, cov_nat), transpose(amap)) if n else []
    scale = ELO_PER_NAT**2
    covariance = tuple(tuple(scale * v for v in row) for row in cov)
    return RatingFit(nat.bots, elo, covariance, anchor, base, prior_games, nat.iterations)
