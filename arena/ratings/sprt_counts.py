"""Duplicate-pair counts of one bot against another, and the estimates read from them.

A duplicate pair is one deal played twice with the seats swapped. Truco has
no draws, so from bot A's side a pair ends 0-2, 1-1 or 2-0: a trinomial whose
pair score (A's points per game in the pair) is 0, 1/2 or 1. Everything here
is read from the three counts alone, so a resumed match recomputes the same
numbers from its stored games.

Estimates (n pairs, p_k the observed share of pairs with score a_k):

* score ``mu = sum p_k a_k``: A's expected points per game (the pair score has
  the same mean as a single game's score, so this is the per-game win rate);
* per-pair variance ``var = sum p_k (a_k - mu)^2`` (denominator n, as the
  GSPRT uses the empirical distribution itself);
* logistic Elo ``E(mu) = -400 log10(1/mu - 1)``, and its 95% interval by
  transforming the quantiles of the score, ``E(mu -+ 1.96 sqrt(var/n))``:
  the transform is monotone, so the interval keeps its 95% coverage under the
  normal approximation of ``mu`` and never needs a derivative at the edges;
* normalized Elo as fishtest defines it for game pairs,
  ``nElo = (mu - 1/2) / (sqrt(2) sqrt(var)) * 800 / ln 10``: the score excess
  in units of the per-game standard deviation (a pair's sd times sqrt 2, since
  a pair is two games), scaled so that small nElo and Elo agree for
  independent games without draws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .duplicate_pairs import pair_stats
from .rating_fit import Z95

# The three pair scores of bot A, in the order of the counts (ll, dd, ww).
PAIR_SCORES = (0.0, 0.5, 1.0)
# nElo per unit of t-value (score excess over the per-game standard deviation).
NELO_PER_T = 800.0 / math.log(10.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference whose expected score is ``score`` (+-inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """Expected score of a logistic Elo difference ``elo``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """A logistic Elo estimate with its interval (bounds may be infinite)."""

    elo: float
    lower: float
    upper: float

    @property
    def halfwidth(self) -> float:
        """Half the interval's width: the ``+-`` quoted beside the estimate."""
        return (self.upper - self.lower) / 2.0


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Complete duplicate pairs of bot A against bot B, from A's side."""

    ll: int = 0
    """Pairs A lost 0-2."""
    dd: int = 0
    """Pairs split 1-1."""
    ww: int = 0
    """Pairs A won 2-0."""

    def __post_init__(self) -> None:
        for name in ("ll", "dd", "ww"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number of pairs, got {value!r}")
            if value < 0:
                raise ValueError(f"{name} must not be negative, got {value}")

    @classmethod
    def from_pair_scores(cls, scores: Iterable[float]) -> PairCounts:
        """Counts of A's pair scores, each exactly 0, 0.5 or 1."""
        tally = [0, 0, 0]
        for score in scores:
            if isinstance(score, bool) or score not in PAIR_SCORES:
                raise ValueError(f"a pair score is 0, 0.5 or 1, got {score!r}")
            tally[PAIR_SCORES.index(score)] += 1
        return cls(*tally)

    @classmethod
    def from_game_wins(cls, pairs: Iterable[tuple[bool, bool]]) -> PairCounts:
        """Counts from each pair's two games, True where A won that game."""
        tally = [0, 0, 0]
        for first, second in pairs:
            tally[int(first) + int(second)] += 1
        return cls(*tally)

    @classmethod
    def from_records(cls, records: Sequence[GameRecord], bot: str, opponent: str) -> PairCounts:
        """Counts of ``bot`` against ``opponent`` from recorded games.

        Only complete pairs count (both games decided, grouped by
        ``pair_id``); games between other bots are ignored. Malformed pairs
        raise ``ValueError`` as in ``pair_stats``.
        """
        if bot == opponent:
            raise ValueError(f"bot and opponent are both {bot!r}")
        between = [r for r in records if {r.bot0, r.bot1} == {bot, opponent}]
        for stats in pair_stats(between):
            if stats.bot_x == bot:
                return cls(ll=stats.y_sweeps, dd=stats.splits, ww=stats.x_sweeps)
            return cls(ll=stats.x_sweeps, dd=stats.splits, ww=stats.y_sweeps)
        return cls()

    def with_pair(self, score: float) -> PairCounts:
        """These counts plus one more pair with A's pair score ``score``."""
        added = PairCounts.from_pair_scores([score])
        return PairCounts(self.ll + added.ll, self.dd + added.dd, self.ww + added.ww)

    def as_tuple(self) -> tuple[int, int, int]:
        """The counts in score order: (0-2, 1-1, 2-0)."""
        return (self.ll, self.dd, self.ww)

    @property
    def pairs(self) -> int:
        return self.ll + self.dd + self.ww

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def wins(self) -> int:
        """Games A won."""
        return 2 * self.ww + self.dd

    @property
    def losses(self) -> int:
        """Games A lost."""
        return 2 * self.ll + self.dd

    @property
    def score(self) -> float | None:
        """A's mean pair score (= per-game score); None without pairs."""
        if not self.pairs:
            return None
        return (self.ww + 0.5 * self.dd) / self.pairs

    @property
    def variance(self) -> float | None:
        """Per-pair variance of A's pair score (denominator n); None without pairs."""
        mu = self.score
        if mu is None:
            return None
        n = self.pairs
        return sum(c / n * (a - mu) ** 2 for c, a in zip(self.as_tuple(), PAIR_SCORES, strict=True))

    def elo(self, z: float = Z95) -> EloEstimate | None:
        """Logistic Elo of A over B with its interval (``z`` sd each side); None without pairs."""
        mu, var = self.score, self.variance
        if mu is None or var is None:
            return None
        se = math.sqrt(var / self.pairs)
        return EloEstimate(elo_from_score(mu), elo_from_score(mu - z * se), elo_from_score(mu + z * se))

    @property
    def nelo(self) -> float | None:
        """Normalized Elo of A over B; None without pairs or when every pair scored the same."""
        mu, var = self.score, self.variance
        if mu is None or var is None or var == 0.0:
            return None
        return (mu - 0.5) / math.sqrt(2.0 * var) * NELO_PER_T
