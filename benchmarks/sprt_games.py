"""How many games an SPRT needs to separate simulation from heuristic, next
to the fixed-length match that reaches the same confidence.

    python benchmarks/sprt_games.py --pairs 40 --runs 2000
    python benchmarks/sprt_games.py --trinomial 2,14,24      # skip the measurement

1. Measure the pair outcomes (0-2, 1-1, 2-0 from simulation's side) of
   simulation against heuristic: ``--pairs`` duplicate pairs played in
   process with the engine (no networking; simulation at ``--time-ms`` per
   decision or ``--worlds`` per decision), or take them from
   ``--trinomial LL,DD,WW``. A time budget makes simulation weaker on a busy
   machine: its win rate against heuristic fell from about 0.76 (the
   figure of ``bot_strength.py``) to 0.60 with the CPU shared.
2. Run ``--runs`` SPRTs (``--elo0``, ``--elo1``, ``--alpha``, ``--beta``) on
   pairs drawn from that trinomial, with the arena's own ``sprt_status``, and
   print the games they took (mean, median, 90th and 99th percentile) and how
   often each verdict came.
3. Print the fixed-length match with the same error rates: the number of
   pairs n for which a one-sided z-test of the mean pair score, at level
   alpha, tells H0 (score s0) from H1 (score s1) with power 1 - beta:
   ``n = ((z(1-alpha) + z(1-beta)) sd / (s1 - s0))^2``, with sd the measured
   per-pair standard deviation. That length must be fixed before the match,
   without knowing the true Elo; the SPRT adapts to it and stops early when
   the truth is far from the bounds. (Stopping a fixed match as soon as an
   interval excludes elo0 would be optional stopping, with an error rate
   well above 5%.)
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from arena.ratings import PairCounts, SprtBounds, SprtVerdict, score_from_elo, sprt_status  # noqa: E402
from sample_bots._play import duplicate_match  # noqa: E402
from sample_bots.heuristic import HeuristicBot  # noqa: E402
from sample_bots.simulation import SimulationBot  # noqa: E402


def measure(pairs: int, variant: str, time_ms: float, worlds: int | None, first_seed: int) -> PairCounts:
    def simulation(k: int) -> Any:
        if worlds is None:  # a time budget, as the bot had before its counted default
            return SimulationBot(k, time_ms=time_ms)
        return SimulationBot(k, worlds=worlds)

    def heuristic(k: int) -> Any:
        return HeuristicBot(k)

    stats = duplicate_match(simulation, heuristic, variant, list(range(first_seed, first_seed + pairs)))
    assert stats.pair_scores is not None
    return PairCounts.from_pair_scores(stats.pair_scores)


def one_sprt(shares: tuple[float, float, float], bounds: SprtBounds, cap_pairs: int, rng: random.Random,
             cache: dict[tuple[int, int, int], SprtVerdict]) -> tuple[SprtVerdict, int]:
    counts = [0, 0, 0]
    while sum(counts) < cap_pairs:
        x = rng.random()
        counts[0 if x < shares[0] else 1 if x < shares[0] + shares[1] else 2] += 1
        key = (counts[0], counts[1], counts[2])
        verdict = cache.get(key)
        if verdict is None:
            verdict = cache[key] = sprt_status(PairCounts(*key), bounds).verdict
        if verdict is not SprtVerdict.CONTINUE:
            return verdict, sum(counts)
    return SprtVerdict.CONTINUE, cap_pairs


def z_of(p: float) -> float:
    """The standard normal quantile of ``p`` (bisection on erf: exact enough here)."""
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pairs", type=int, default=40, help="duplicate pairs to measure (default 40)")
    p.add_argument("--trinomial", help="LL,DD,WW pair counts from simulation's side, instead of measuring")
    p.add_argument("--variant", default="uruguayo")
    p.add_argument("--time-ms", type=float, default=30.0, help="simulation budget per decision (default 30)")
    p.add_argument("--worlds", type=int, default=None,
                   help="fixed worlds per decision instead of --time-ms (the same strength on a busy machine)")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=50.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--runs", type=int, default=2000, help="simulated SPRTs (default 2000)")
    p.add_argument("--max-games", type=int, default=20_000, help="cap of each SPRT, as in a match")
    p.add_argument("--seed", type=int, default=1, help="first deal seed, and the SPRT simulation's seed")
    args = p.parse_args(argv)
    bounds = SprtBounds(args.elo0, args.elo1, args.alpha, args.beta)

    if args.trinomial:
        counts = PairCounts(*(int(x) for x in args.trinomial.split(",")))
        print(f"pair outcomes given: {counts.ll} lost 0-2, {counts.dd} split, {counts.ww} won 2-0")
    else:
        t0 = time.perf_counter()
        counts = measure(args.pairs, args.variant, args.time_ms, args.worlds, args.seed)
        budget = f"{args.worlds} worlds" if args.worlds else f"{args.time_ms:g} ms"
        print(f"measured simulation ({budget}) vs heuristic, {args.variant}, {counts.pairs} pairs in "
              f"{time.perf_counter() - t0:.0f} s: {counts.ll} lost 0-2, {counts.dd} split, {counts.ww} won 2-0")
    score, var, elo = counts.score, counts.variance, counts.elo()
    assert score is not None and var is not None and elo is not None
    print(f"score {score:.3f}  Elo {elo.elo:+.0f} [{elo.lower:+.0f}, {elo.upper:+.0f}]  "
          f"split rate {counts.dd / counts.pairs:.2f}  pair sd {math.sqrt(var):.3f}")
    shares = (counts.ll / counts.pairs, counts.dd / counts.pairs, counts.ww / counts.pairs)

    rng = random.Random(args.seed)
    cache: dict[tuple[int, int, int], SprtVerdict] = {}
    results = [one_sprt(shares, bounds, args.max_games // 2, rng, cache) for _ in range(args.runs)]
    games = sorted(2 * n for _, n in results)
    verdicts = [v for v, _ in results]
    print(f"\nSPRT [{bounds.elo0:g}, {bounds.elo1:g}] alpha {bounds.alpha:g} beta {bounds.beta:g}, "
          f"{args.runs} runs on that trinomial:")
    print(f"  games: mean {statistics.fmean(games):.1f}  median {games[len(games) // 2]}  "
          f"90% {games[int(0.9 * len(games))]}  99% {games[int(0.99 * len(games))]}  max {games[-1]}")
    for verdict in SprtVerdict:
        print(f"  {verdict.value:<12} {verdicts.count(verdict) / args.runs:6.1%}")

    sd = math.sqrt(var)
    gap = score_from_elo(bounds.elo1) - score_from_elo(bounds.elo0)
    fixed_pairs = math.ceil(((z_of(1 - bounds.alpha) + z_of(1 - bounds.beta)) * sd / gap) ** 2)
    print(f"\nfixed-length match with the same error rates (z-test of the pair score, alpha "
          f"{bounds.alpha:g}, power {1 - bounds.beta:g}): {2 * fixed_pairs} games ({fixed_pairs} pairs)")


if __name__ == "__main__":
    main()
