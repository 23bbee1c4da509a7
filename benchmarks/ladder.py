"""The reference ladder: a fixed-seed round robin of the ladder bots, engine-only.

    nice -n 19 python benchmarks/ladder.py --games 80 --jobs 2
    nice -n 19 python benchmarks/ladder.py --games 80 --jobs 2 --write

Every pairing of ``LADDER`` plays ``--games`` games (duplicate pairs: each deal
seed twice, seats swapped; seeds ``--seed``, ``--seed + 1``, ... the same for
every pairing) through the referee, with no networking: the bots' budgets are
counted in simulations, so they play as they do over gRPC, only cheaper.
A joint Bradley-Terry fit of all games gives each bot's Elo, anchored at
``heuristic = 1000``, with a 95% interval from the fit's standard errors
(the interval of the difference to heuristic; heuristic's own is zero by
definition). The games are treated as independent, which for duplicate pairs
is conservative: the pairing cancels part of the luck of the deal.

``--write`` stores the table, with the fit's covariance, as the reference
ladder that ``truco-arena ladder`` places a new bot in and whose top bots
``truco-arena demo`` plays (``arena/match/ladder.json``). Adding a bot to the
ladder is one line in ``LADDER`` and a rerun with ``--write``, or, cheaper,
``--add NAME --write``: NAME alone plays every bot of the shipped table and is
placed in it as ``truco-arena ladder`` places a newcomer (the others keep
their ratings; its covariance with them comes from the placement's weights). The shipped table (docs/bots.md) was measured with
the defaults: uruguayo, seed 1, 80 games per pairing (800 games, about 12
CPU minutes).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

# Appended, not put first: a compiled build on PYTHONPATH
# (``PYTHONPATH=.build-compiled python -P benchmarks/ladder.py``) wins.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from arena.engine.outcome import Termination  # noqa: E402
from arena.games.game_record import GameRecord  # noqa: E402
from arena.match.reference_ladder import ANCHOR, ANCHOR_ELO, LADDER_FILE, reference_ladder  # noqa: E402
from arena.ratings import fit_ratings  # noqa: E402
from arena.ratings.placement import place  # noqa: E402
from arena.ratings.rating_fit import ELO_PER_NAT  # noqa: E402
from sample_bots._play import duplicate_match  # noqa: E402
from sample_bots.heuristic import HeuristicBot  # noqa: E402
from sample_bots.inference import InferenceBot  # noqa: E402
from sample_bots.ismcts import ISMCTSBot  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sample_bots.simulation import SimulationBot  # noqa: E402
from sample_bots.yardstick import YardstickBot  # noqa: E402
from sdk.bot import Bot  # noqa: E402

# The ladder: name, module (the bot's command is ``python -m MODULE``, with its
# default budget), and how to build the same bot in-process from a seed.
LADDER: tuple[tuple[str, str, Callable[[int], Bot]], ...] = (
    ("random", "sample_bots.random_bot", RandomBot),
    ("heuristic", "sample_bots.heuristic", HeuristicBot),
    ("simulation", "sample_bots.simulation", SimulationBot),
    ("inference", "sample_bots.inference", InferenceBot),
    ("ismcts", "sample_bots.ismcts", ISMCTSBot),
    ("yardstick", "sample_bots.yardstick", YardstickBot),
)
_MAKERS = {name: make for name, _module, make in LADDER}


def _chunk(args: tuple[str, str, str, list[int]]) -> list[tuple[str, str, str, str]]:
    """One slice of a pairing's seeds: (seat 0 bot, seat 1 bot, winner, pair id) per game."""
    a, b, variant, seeds = args
    out: list[tuple[str, str, str, str]] = []

    def record(seed: int, a_seat: int, result: Any) -> None:
        seats = (a, b) if a_seat == 0 else (b, a)
        out.append((seats[0], seats[1], seats[result.winner], f"{a}-{b}-{seed}"))

    duplicate_match(_MAKERS[a], _MAKERS[b], variant, seeds, on_game=record)
    return out


def round_robin(variant: str, games: int, first_seed: int, jobs: int) -> list[GameRecord]:
    """Every pairing of the ladder over the same ``games // 2`` deal seeds."""
    seeds = list(range(first_seed, first_seed + games // 2))
    slices = max(1, jobs * 2)
    work = [(a, b, variant, seeds[i::slices]) for (a, _, _), (b, _, _) in itertools.combinations(LADDER, 2)
            for i in range(slices) if seeds[i::slices]]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            parts = list(ex.map(_chunk, work))
    else:
        parts = [_chunk(w) for w in work]
    return [GameRecord(s0, s1, winner, Termination.TARGET_REACHED, matchup=pair, pair_index=0)
            for part in parts for s0, s1, winner, pair in part]


def table(records: list[GameRecord]) -> dict[str, Any]:
    """The ladder of ``records``: each bot's Elo, interval and the covariance, best first."""
    fit = fit_ratings(records, anchor=ANCHOR, base=ANCHOR_ELO, bots=[name for name, _, _ in LADDER])
    order = fit.ranking()
    modules = {name: module for name, module, _ in LADDER}
    bots = []
    for name in order:
        low, high = fit.interval(name)
        wins = sum(r.winner == name for r in records)
        played = sum(name in (r.bot0, r.bot1) for r in records)
        bots.append({"name": name, "command": f"python -m {modules[name]}", "elo": round(fit.rating(name), 1),
                     "low": round(low, 1), "high": round(high, 1), "games": played, "wins": wins})
    idx = [fit.index(name) for name in order]
    covariance = [[round(fit.covariance[i][j], 3) for j in idx] for i in idx]
    return {"bots": bots, "covariance": covariance}


def add(name: str, variant: str, games: int, first_seed: int, jobs: int) -> tuple[dict[str, Any], list[float]]:
    """``name`` (a ``LADDER`` bot) against every bot of the shipped ladder,
    ``games`` games each on the same deal seeds, placed as ``truco-arena
    ladder`` places a newcomer (the others keep their ratings): its row of
    the table, and its covariance with the shipped bots (then itself)."""
    shipped = reference_ladder(variant)
    ref = shipped.reference
    seeds = list(range(first_seed, first_seed + games // 2))
    slices = max(1, jobs * 2)
    work = [(name, other, variant, seeds[i::slices]) for other in ref.bots for i in range(slices) if seeds[i::slices]]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            parts = list(ex.map(_chunk, work))
    else:
        parts = [_chunk(w) for w in work]
    results = {other: [0, 0] for other in ref.bots}
    for part in parts:
        for s0, s1, winner, _pair in part:
            other = s1 if s0 == name else s0
            results[other][0 if winner == name else 1] += 1
    placed = place(ref, {k: (w, lost) for k, (w, lost) in results.items()})
    # The covariance of the new rating with the shipped ones, g^T C, from the
    # weights g_j = d r / d r_j of the placement (arena/ratings/placement.py).
    theta = placed.elo / ELO_PER_NAT
    r = [e / ELO_PER_NAT for e in ref.elo]
    m = len(r)

    def sig(x: float) -> float:
        return 1.0 / (1.0 + math.exp(-x))

    h = [sum(results[b]) * sig(theta - rj) * (1.0 - sig(theta - rj)) for b, rj in zip(ref.bots, r, strict=True)]
    p0 = sig(theta - sum(r) / m)
    h0 = p0 * (1.0 - p0)
    info = sum(h) + h0
    g = [(hj + h0 / m) / info for hj in h]
    cov = [round(sum(g[i] * ref.covariance[i][j] for i in range(m)), 3) for j in range(m)]
    row = {"name": name, "command": f"python -m {dict((n, mod) for n, mod, _ in LADDER)[name]}",
           "elo": round(placed.elo, 1), "low": round(placed.low, 1), "high": round(placed.high, 1),
           "games": placed.games, "wins": sum(w for w, _ in results.values())}
    return row, cov + [round(placed.stderr**2, 3)]


def _insert(table: dict[str, Any], row: dict[str, Any], cov: list[float]) -> dict[str, Any]:
    """``table`` (a variant's shipped ladder) with ``row`` in its place by
    Elo and ``cov`` (its covariance with the bots, then its variance) added."""
    bots = [b for b in table["bots"] if b["name"] != row["name"]]
    if len(bots) != len(table["bots"]):
        raise SystemExit(f"{row['name']} is already in the ladder: rerun the round robin instead")
    old = [list(r) for r in table["covariance"]]
    n = len(bots)
    full = [old[i] + [cov[i]] for i in range(n)] + [cov]
    order = sorted(range(n + 1), key=lambda i: -(bots + [row])[i]["elo"])
    added = dict(table)
    added["bots"] = [(bots + [row])[i] for i in order]
    added["covariance"] = [[full[i][j] for j in order] for i in order]
    added.setdefault("added", []).append({
        "bot": row["name"], "date": datetime.date.today().isoformat(),
        "how": "benchmarks/ladder.py --add: against every ladder bot, placed as truco-arena ladder places a "
               "newcomer (the others keep their ratings)"})
    return added


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=80, help="games per pairing, even (default %(default)s)")
    p.add_argument("--variant", action="append", help="variant(s) (default uruguayo); repeatable")
    p.add_argument("--seed", type=int, default=1, help="first deal seed (default %(default)s)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--write", action="store_true", help=f"store the table in {os.path.relpath(LADDER_FILE)}")
    p.add_argument("--add", choices=[name for name, _, _ in LADDER],
                   help="play only this bot against the shipped ladder and place it there (the others keep "
                        "their ratings), instead of the whole round robin")
    args = p.parse_args(argv)
    if args.games < 2 or args.games % 2:
        p.error(f"--games must be even and at least 2, got {args.games}")
    shipped: dict[str, Any] = json.loads(LADDER_FILE.read_text()) if LADDER_FILE.exists() else {}
    if args.add:
        for variant in args.variant or ["uruguayo"]:
            t0 = time.perf_counter()
            row, cov = add(args.add, variant, args.games, args.seed, args.jobs)
            shipped[variant] = _insert(shipped[variant], row, cov)
            print(f"{variant}: {args.add} against the ladder, {args.games} games a pairing, "
                  f"{time.perf_counter() - t0:.0f} s wall: Elo {row['elo']:.1f} [{row['low']:.1f}, "
                  f"{row['high']:.1f}], {row['wins']} wins of {row['games']}")
            for rank, bot in enumerate(shipped[variant]["bots"], 1):
                print(f"  {rank:>4}  {bot['name']:<11} {bot['elo']:>7.1f}  [{bot['low']:>6.1f}, "
                      f"{bot['high']:>6.1f}] {bot['games']:>5} {bot['wins']:>5}")
        if args.write:
            LADDER_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
            print(f"wrote {os.path.relpath(LADDER_FILE)}")
        return
    pairings = len(LADDER) * (len(LADDER) - 1) // 2
    for variant in args.variant or ["uruguayo"]:
        t0 = time.perf_counter()
        records = round_robin(variant, args.games, args.seed, args.jobs)
        result = table(records)
        result["measured"] = {
            "date": datetime.date.today().isoformat(), "seed": args.seed, "games_per_pairing": args.games,
            "games": len(records), "anchor": f"{ANCHOR} = {ANCHOR_ELO:g}",
            "how": "benchmarks/ladder.py: engine-only round robin, duplicate deals, joint Bradley-Terry, "
                   "95% intervals from the fit's standard errors",
        }
        print(f"{variant}: {pairings} pairings x {args.games} games, seeds {args.seed}..{args.seed + args.games // 2 - 1}"
              f", {time.perf_counter() - t0:.0f} s wall; Elo anchored at {ANCHOR} = {ANCHOR_ELO:g}")
        print(f"  {'rank':>4}  {'bot':<11} {'elo':>7}  {'95% interval':<17} {'games':>5} {'wins':>5}")
        for rank, bot in enumerate(result["bots"], 1):
            print(f"  {rank:>4}  {bot['name']:<11} {bot['elo']:>7.1f}  [{bot['low']:>6.1f}, {bot['high']:>6.1f}] "
                  f"{bot['games']:>5} {bot['wins']:>5}", flush=True)
        shipped[variant] = result
    if args.write:
        LADDER_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
        print(f"wrote {os.path.relpath(LADDER_FILE)}")


if __name__ == "__main__":
    main()
