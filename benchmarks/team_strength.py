"""Win rates of the sample bots in team games (argentino, 4 or 6 seats),
engine-only (no networking), in duplicate pairs.

    python benchmarks/team_strength.py --games 600 --seats 4 --jobs 2

A team game is a game between two bots: bot A plays every seat of one team
(one bot instance per seat, as one process per seat in a tournament), bot B
every seat of the other. Each deal seed is played twice with the teams
swapped; the 95% interval is taken over those pairs. Matchups:
``heuristic-random`` and ``heuristic-solo`` (the heuristic bot against
itself with its partner reading turned off, ``Params(team_play=False)``);
the first bot's win rate is reported.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sample_bots._play import play_game  # noqa: E402
from sample_bots.heuristic import DEFAULT_PARAMS, HeuristicBot  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sdk.bot import Bot  # noqa: E402

MATCHUPS = ("heuristic-random", "heuristic-solo")
SOLO_PARAMS = DEFAULT_PARAMS.__class__(team_play=False)


def _maker(kind: str) -> Callable[[int], Bot]:
    def make(k: int) -> Bot:
        if kind == "random":
            return RandomBot(k)
        if kind == "solo":
            return HeuristicBot(k, params=SOLO_PARAMS)
        return HeuristicBot(k)

    return make


def _chunk(args: tuple[str, int, list[int], int]) -> tuple[int, int, list[float]]:
    """(games, A's wins, A's score per duplicate pair) over ``seeds``."""
    matchup, seats, seeds, target = args
    a_kind, b_kind = matchup.split("-")
    make_a, make_b = _maker(a_kind), _maker(b_kind)
    games = wins = 0
    pairs: list[float] = []
    for seed in seeds:
        pair = 0.0
        for a_team in (0, 1):
            k = 100 * (2 * seed + a_team)
            bots = [make_a(k + s) if s % 2 == a_team else make_b(k + 50 + s) for s in range(seats)]
            res = play_game(bots, "argentino", seed, {"seats": seats, "target": target})
            games += 1
            won = res.winner == a_team
            wins += won
            pair += won / 2
        pairs.append(pair)
    return games, wins, pairs


def run(matchup: str, seats: int, games: int, target: int, jobs: int, first_seed: int) -> dict[str, float]:
    seeds = list(range(first_seed, first_seed + max(1, games // 2)))
    chunks = [seeds[i::jobs * 4] for i in range(jobs * 4)]
    work = [(matchup, seats, c, target) for c in chunks if c]
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            parts = list(ex.map(_chunk, work))
    else:
        parts = [_chunk(w) for w in work]
    n = sum(p[0] for p in parts)
    w = sum(p[1] for p in parts)
    xs = [x for p in parts for x in p[2]]
    m = len(xs)
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / (m - 1) if m > 1 else 0.25
    half = 1.96 * math.sqrt(var / m)
    return {"games": n, "rate": w / n, "lo": max(0.0, mean - half), "hi": min(1.0, mean + half),
            "wall": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=600, help="games per matchup (duplicate pairs x 2)")
    p.add_argument("--seats", type=int, action="append", choices=(4, 6), help="4 and/or 6 (default 4)")
    p.add_argument("--matchup", action="append", choices=MATCHUPS, help="matchup(s) (default all)")
    p.add_argument("--target", type=int, default=30, help="points to win (default 30)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--seed", type=int, default=0, help="first deal seed")
    args = p.parse_args(argv)
    header = f"{'matchup':<18} {'seats':>5} {'games':>5} {'win rate':>8}  {'95% CI':<15} {'wall s':>7}"
    print(header)
    print("-" * len(header))
    for seats in args.seats or [4]:
        for matchup in args.matchup or MATCHUPS:
            r = run(matchup, seats, args.games, args.target, args.jobs, args.seed)
            print(f"{matchup:<18} {seats:>5} {r['games']:>5.0f} {r['rate']:>8.3f}  "
                  f"[{r['lo']:.3f}, {r['hi']:.3f}] {r['wall']:>7.0f}", flush=True)


if __name__ == "__main__":
    main()
