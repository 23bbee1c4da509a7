"""Optional bootstrap intervals, resampling duplicate pairs.

The two games of a duplicate pair share a deal, so they are not independent;
resampling whole pairs (with replacement) keeps that dependence. Decided games
without a ``pair_id``, and pairs of which only one game was decided, are
resampled as units of their own. Each replicate is refitted with the same
prior and anchoring, and the interval is the percentile interval of the
replicate ratings. A bot that is absent from a replicate is refitted without
it and simply contributes no value for that replicate. With
``prior_games=0`` a replicate that has no finite fit raises ``ValueError``, so
keep the prior on for the bootstrap.

Randomness comes only from a ``random.Random(seed)`` instance, so equal seeds
give equal intervals.

Two limits, which the standings act on: a bot that won (or lost) every game
wins (or loses) every game of every replicate too, so its percentile interval
collapses around the prior's pull instead of covering the truth; and with
few resampling units (under ``FEW_UNITS``) the percentile intervals
under-cover (about 90% for a nominal 95% in our checks). ``los`` is the
bootstrap's own likelihood of superiority: the share of replicates in which
one bot is rated above the other. The fit-based intervals (``rating_fit``) stay the
default; this is the slower, assumption-lighter cross-check.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .rating_fit import DEFAULT_BASE, fit_ratings
from .records import bots_of, decided

# Resampling units (duplicate pairs, lone games) below which the bootstrap's
# intervals are too narrow to trust.
FEW_UNITS = 50


@dataclass(frozen=True, slots=True)
class BootstrapIntervals:
    """Percentile intervals per bot (NaN where a bot was never resampled)."""

    bots: tuple[str, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    replicates: int
    seed: int
    level: float
    units: int = 0
    """Resampling units the replicates were drawn from."""
    draws: tuple[dict[str, float], ...] = ()
    """Each replicate's ratings, for ``los``"""

    def los(self, a: str, b: str) -> float | None:
        """Share of the replicates rating both in which ``a`` is above ``b``
        (a tie counts half); None when no replicate rated both."""
        both = [d for d in self.draws if a in d and b in d]
        if not both:
            return None
        return sum(1.0 if d[a] > d[b] else 0.5 if d[a] == d[b] else 0.0 for d in both) / len(both)

    @property
    def few_units(self) -> bool:
        return self.units < FEW_UNITS

    def interval(self, bot: str) -> tuple[float, float]:
        """The (low, high) bootstrap interval of ``bot``; KeyError if unknown."""
        try:
            i = self.bots.index(bot)
        except ValueError:
            raise KeyError(bot) from None
        return (self.low[i], self.high[i])


def resampling_units(records: Sequence[GameRecord]) -> list[tuple[GameRecord, ...]]:
    """Decided games grouped into duplicate pairs; unpaired games stand alone."""
    units: list[tuple[GameRecord, ...]] = []
    by_pair: dict[str, list[GameRecord]] = {}
    for r in decided(records):
        if r.pair_id is None:
            units.append((r,))
        else:
            if r.pair_id not in by_pair:
                by_pair[r.pair_id] = []
                units.append(())  # placeholder keeps first-seen order
            by_pair[r.pair_id].append(r)
    pairs = iter(by_pair.values())
    return [u if u else tuple(next(pairs)) for u in units]


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (q in [0, 1]) of sorted values."""
    if not sorted_values:
        return math.nan
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


def bootstrap_intervals(
    records: Sequence[GameRecord],
    *,
    replicates: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    anchor: str | None = None,
    base: float = DEFAULT_BASE,
    prior_games: float = 1.0,
) -> BootstrapIntervals:
    """Percentile intervals from ``replicates`` refits on pairs drawn with replacement."""
    if replicates < 1:
        raise ValueError("replicates must be >= 1")
    if not 0.0 < level < 1.0:
        raise ValueError("level must be strictly between 0 and 1")
    units = resampling_units(records)
    bots = bots_of(decided(records))
    samples: dict[str, list[float]] = {b: [] for b in bots}
    draws: list[dict[str, float]] = []
    rng = random.Random(seed)
    for _ in range(replicates if units else 0):
        drawn = [g for _ in units for g in units[rng.randrange(len(units))]]
        present = bots_of(drawn)
        use_anchor = anchor if anchor in present else None
        if anchor is not None and use_anchor is None:
            continue  # the anchor must be present to define the scale
        fit = fit_ratings(drawn, anchor=use_anchor, base=base, prior_games=prior_games)
        for b, e in zip(fit.bots, fit.elo):
            samples[b].append(e)
        draws.append(dict(zip(fit.bots, fit.elo)))
    tail = (1.0 - level) / 2.0
    low: list[float] = []
    high: list[float] = []
    for b in bots:
        values = sorted(samples[b])
        low.append(_percentile(values, tail))
        high.append(_percentile(values, 1.0 - tail))
    return BootstrapIntervals(bots, tuple(low), tuple(high), replicates, seed, level, len(units), tuple(draws))
