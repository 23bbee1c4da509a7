"""Pairs of bots whose results against each other are far from what their
ratings predict: the trace of a sybil (one person entering a second bot, under
another owner name, that folds to the first) or of a bot that throws games.

For every pair with at least ``min_games`` decided games between them, the
ratings are fitted again **without those games** (so that the suspected games
cannot explain themselves), and the pair is scored by the likelihood ratio
of "these two have a result of their own" against "every game follows one
set of ratings"; ``z`` is its square root. The evidence is the pair's
count beside what the ratings without its games predict.
A pair is flagged when ``z >= z_limit`` (default 5). In 300 simulated
honest leagues of four bots 300 Elo apart, 10 to 80 games per pair, none of
1,800 pairs reached 5 and one reached 4.

What this cannot see: a pair that throws only a few games (below
``min_games``, or within the noise), collusion spread over many partners,
and a bot that plays its partner normally but helps it some other way (a
team partner in a 4-seat game is a teammate, not an opponent). It flags,
it does not judge: a bot that really is much better against one opponent's
style shows the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .rating_fit import ELO_PER_NAT, RatingFit, fit_ratings
from .records import bots_of, decided

MIN_GAMES = 10  # decided games between two bots before their results are judged
Z_LIMIT = 5.0


@dataclass(frozen=True, slots=True)
class Suspicion:
    """A pair whose results against each other are out of line with their ratings."""

    winner: str
    """The bot that gained from the pair's games."""
    loser: str
    """The bot that gave them."""
    games: int
    """Decided games between the two."""
    wins: int
    """Of those, won by ``winner``"""
    expected: float
    """The wins ``winner``'s and ``loser``'s ratings without these games predict."""
    z: float
    """(wins - expected) / standard deviation; >= z_limit."""
    elo_without: tuple[float, float]
    """winner's and loser's Elo fitted without these games."""

    def evidence(self) -> str:
        """One line for people."""
        return (f"{self.winner} won {self.wins} of {self.games} against {self.loser}; their ratings without these "
                f"games ({self.elo_without[0]:.0f} vs {self.elo_without[1]:.0f}) predict {self.expected:.1f} "
                f"(z = {self.z:+.1f})")


def suspicious_pairs(records: Sequence[GameRecord], *, min_games: int = MIN_GAMES,
                     z_limit: float = Z_LIMIT) -> tuple[Suspicion, ...]:
    """The flagged pairs, most suspicious first. They are peeled one at a
    time: the worst pair is flagged and its games set aside before the
    others are judged again, since a sybil's gifts inflate its partner's
    rating and so make the partner's honest results look odd too."""
    games = decided(records)
    bots = bots_of(games)
    found: list[Suspicion] = []
    while True:
        worst = _worst(without_pairs(games, found), bots, min_games)
        if worst is None or worst.z < z_limit:
            return tuple(found)
        found.append(worst)


def _worst(games: Sequence[GameRecord], bots: Sequence[str], min_games: int) -> Suspicion | None:
    """The pair whose games fit the ratings worst, by the likelihood ratio of
    "this pair has a result of its own" against "every game follows the
    ratings". That ratio also counts how much the pair's games bend every
    other result (a partner inflated by gifts), so it points at the gift,
    not at the honest opponents the inflated partner then "underperforms"
    against. ``z`` is its signed square root."""
    between: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()  # (winner, loser)
    for g in games:
        between[_key(g.bot0, g.bot1)] += 1
        assert g.winner is not None and g.loser is not None
        wins[(g.winner, g.loser)] += 1
    if not games:
        return None
    full = _log_likelihood(games, fit_ratings(games, bots=bots))
    worst: Suspicion | None = None
    for (x, y), n in sorted(between.items()):
        if n < min_games:
            continue
        rest = [g for g in games if _key(g.bot0, g.bot1) != (x, y)]
        fit = fit_ratings(rest, bots=bots)
        w = wins[(x, y)]
        ratio = 2.0 * (_log_likelihood(rest, fit) + _saturated(w, n) - full)
        mean, _ = _predicted_wins(n, (fit.rating(x) - fit.rating(y)) / ELO_PER_NAT,
                                  fit.diff_stderr(x, y) / ELO_PER_NAT)
        z = math.sqrt(max(ratio, 0.0))
        if w >= mean:
            s = Suspicion(x, y, n, w, mean, z, (fit.rating(x), fit.rating(y)))
        else:
            s = Suspicion(y, x, n, n - w, n - mean, z, (fit.rating(y), fit.rating(x)))
        if worst is None or s.z > worst.z:
            worst = s
    return worst


def _log_likelihood(games: Sequence[GameRecord], fit: RatingFit) -> float:
    total = 0.0
    for g in games:
        assert g.winner is not None and g.loser is not None
        d = (fit.rating(g.winner) - fit.rating(g.loser)) / ELO_PER_NAT
        total += -math.log1p(math.exp(-d)) if d > -30 else d
    return total


def _saturated(w: int, n: int) -> float:
    """Log-likelihood of ``w`` wins in ``n`` games at their own win rate."""
    return sum(k * math.log(k / n) for k in (w, n - w) if k)


def _predicted_wins(n: int, diff: float, stderr: float) -> tuple[float, float]:
    """Mean and variance of x's wins in ``n`` games when x's strength minus
    y's (natural units) is ``diff`` known to ``stderr``: binomial games at a
    win probability that is itself uncertain (integrated over a normal
    difference; near 0 or 1 a rating's error moves the prediction a lot)."""
    steps = 40
    total = mean_p = mean_pq = mean_p2 = 0.0
    for i in range(steps + 1):
        u = -5.0 + 10.0 * i / steps
        w = math.exp(-0.5 * u * u)
        p = 1.0 / (1.0 + math.exp(-(diff + u * stderr)))
        total += w
        mean_p += w * p
        mean_pq += w * p * (1.0 - p)
        mean_p2 += w * p * p
    mean_p, mean_pq, mean_p2 = mean_p / total, mean_pq / total, mean_p2 / total
    return n * mean_p, n * mean_pq + n * n * (mean_p2 - mean_p * mean_p)


def without_pairs(records: Sequence[GameRecord], pairs: Sequence[Suspicion]) -> list[GameRecord]:
    """``records`` less every game between the bots of ``pairs`` (to rate without them)."""
    drop = {_key(s.winner, s.loser) for s in pairs}
    return [r for r in records if _key(r.bot0, r.bot1) not in drop]


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
