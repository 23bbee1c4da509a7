"""Win rates of the sample bots against each other, engine-only (no networking).

    python benchmarks/bot_strength.py --games 1000 --variant uruguayo --time-ms 30 --jobs 2

Every matchup is a duplicate match: each deal seed is played twice with the
seats swapped, and the 95% interval is taken over those pairs. Matchups:
``heuristic-random``, ``simulation-random``, ``simulation-heuristic`` (the
first bot's win rate is reported). The simulation bot runs at ``--time-ms``
per decision (its default is 30) or at a fixed ``--worlds`` count.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sample_bots._play import duplicate_match  # noqa: E402
from sample_bots.heuristic import HeuristicBot  # noqa: E402
from sample_bots.simulation import SimulationBot  # noqa: E402

from sample_bots.random_bot import RandomBot  # noqa: E402

MATCHUPS = ("heuristic-random", "simulation-random", "simulation-heuristic")


def _factory(kind: str, cfg: dict[str, Any], sims: list[SimulationBot]) -> Any:
    def make(k: int) -> Any:
        if kind == "random":
            return RandomBot(k)
        if kind == "heuristic":
            return HeuristicBot(k)
        bot = SimulationBot(k, worlds=cfg["worlds"], time_ms=cfg["time_ms"])
        sims.append(bot)
        return bot

    return make


def _chunk(args: tuple[str, str, list[int], dict[str, Any]]) -> dict[str, Any]:
    matchup, variant, seeds, cfg = args
    a, b = matchup.split("-")
    sims: list[SimulationBot] = []
    t0 = time.perf_counter()
    st = duplicate_match(_factory(a, cfg, sims), _factory(b, cfg, sims), variant, seeds, cfg["options"])
    return {
        "games": st.games, "wins": st.wins, "pairs": st.pair_scores, "pf": st.points_for,
        "pa": st.points_against, "secs": time.perf_counter() - t0,
        "searched": sum(s.stats["searched"] for s in sims), "worlds": sum(s.stats["worlds"] for s in sims),
        "think": sum(s.stats["seconds"] for s in sims),
    }


def run(matchup: str, variant: str, games: int, cfg: dict[str, Any], jobs: int, first_seed: int) -> dict[str, Any]:
    pairs = max(1, games // 2)
    seeds = list(range(first_seed, first_seed + pairs))
    chunks = [seeds[i::jobs * 4] for i in range(jobs * 4)]
    work = [(matchup, variant, c, cfg) for c in chunks if c]
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            parts = list(ex.map(_chunk, work))
    else:
        parts = [_chunk(w) for w in work]
    out: dict[str, Any] = {"games": 0, "wins": 0, "pairs": [], "pf": 0, "pa": 0, "searched": 0, "worlds": 0,
                           "cpu": 0.0, "think": 0.0}
    for p in parts:
        for k in ("games", "wins", "pf", "pa", "searched", "worlds", "think"):
            out[k] += p[k]
        out["pairs"] += p["pairs"]
        out["cpu"] += p["secs"]
    out["wall"] = time.perf_counter() - t0
    xs = out["pairs"]
    m = len(xs)
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / (m - 1) if m > 1 else 0.25
    half = 1.96 * math.sqrt(var / m)
    out["rate"], out["lo"], out["hi"] = out["wins"] / out["games"], max(0.0, mean - half), min(1.0, mean + half)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000, help="games per matchup (pairs of duplicate deals x 2)")
    p.add_argument("--variant", action="append", help="variant(s) (default uruguayo); repeatable")
    p.add_argument("--matchup", action="append", choices=MATCHUPS, help="matchup(s) (default all); repeatable")
    p.add_argument("--time-ms", type=float, default=30.0, help="simulation budget per decision (default 30)")
    p.add_argument("--worlds", type=int, default=None, help="fixed worlds per decision instead of --time-ms")
    p.add_argument("--target", type=int, default=None, help="override the variant's target score")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--seed", type=int, default=0, help="first deal seed")
    args = p.parse_args(argv)
    options = {"target": args.target} if args.target else {}
    cfg = {"worlds": args.worlds, "time_ms": args.time_ms, "options": options}
    budget = f"{args.worlds} worlds" if args.worlds else f"{args.time_ms:g} ms"
    print(f"simulation budget: {budget} per decision; {args.jobs} worker(s)")
    header = (f"{'matchup':<22} {'variant':<11} {'games':>5} {'win rate':>8}  {'95% CI':<15} "
              f"{'pts for-against':>15} {'ms/search':>9} {'worlds':>6} {'wall s':>7}")
    print(header)
    print("-" * len(header))
    for variant in args.variant or ["uruguayo"]:
        for matchup in args.matchup or MATCHUPS:
            r = run(matchup, variant, args.games, cfg, args.jobs, args.seed)
            ms = 1000 * r["think"] / r["searched"] if r["searched"] else float("nan")
            worlds = r["worlds"] / r["searched"] if r["searched"] else float("nan")
            print(f"{matchup:<22} {variant:<11} {r['games']:>5} {r['rate']:>8.3f}  "
                  f"[{r['lo']:.3f}, {r['hi']:.3f}] {r['pf']:>7}-{r['pa']:<7} {ms:>9.1f} {worlds:>6.1f} "
                  f"{r['wall']:>7.0f}", flush=True)


if __name__ == "__main__":
    main()
