"""Tournament throughput: games per second of a round robin of sample random
bots (separate processes over loopback gRPC), at several concurrency levels.

    python benchmarks/tournament.py [--bots 4] [--games 12] [--runs 3] [--levels 1,4,8]

Each run is a full ``run_tournament`` (arena start, bot launch, games, shutdown)
into a fresh SQLite file; the games/s figure counts only the time from the
first game to the last (bot start-up is reported separately). Medians over
the runs, levels interleaved run by run so machine noise is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arena.tournament.config import parse_config
from arena.tournament.runner import run_tournament
from arena.tournament.store import ResultsStore


def config(bots: int, games: int, concurrency: int, variant: str) -> dict[str, object]:
    return {
        "name": "bench", "variant": variant, "games_per_pairing": games, "seed": 1,
        "concurrency": concurrency, "time_control": {"move_seconds": 5.0, "bank_seconds": 60.0},
        "bots": [{"name": f"random{i}", "command": "python -m sample_bots.random_bot"} for i in range(bots)],
    }


async def one_run(raw: dict[str, object], tmp: Path) -> tuple[int, float, float]:
    cfg = parse_config(raw)
    db = tmp / f"run-{time.monotonic_ns()}.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", raw)
        t0 = time.monotonic()
        summary = await run_tournament(cfg, store, log_dir=tmp / "logs", progress=False)
        total = time.monotonic() - t0
        rows = list(store.games())
    first = min(r.finished_at - r.duration for r in rows)
    last = max(r.finished_at for r in rows)
    return summary.played, last - first, total - (last - first)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", type=int, default=4)
    ap.add_argument("--games", type=int, default=12, help="games per pairing (even)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--levels", default="1,4,8", help="concurrency levels, comma-separated")
    ap.add_argument("--variant", default="uruguayo")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    rates: dict[int, list[float]] = {c: [] for c in levels}
    overhead: dict[int, list[float]] = {c: [] for c in levels}
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for c in levels:
                played, play_s, other_s = asyncio.run(
                    one_run(config(args.bots, args.games, c, args.variant), Path(tmp)))
                games = played
                rates[c].append(played / play_s)
                overhead[c].append(other_s)
    print(f"python {sys.version.split()[0]}; {args.bots} random bots, {games} games per run "
          f"({args.variant}, target preset), {args.runs} runs, medians")
    print(f"{'concurrency':>11}  {'games/s':>8}  {'min..max':>13}  {'start+stop s':>12}")
    for c in levels:
        r = rates[c]
        print(f"{c:>11}  {statistics.median(r):>8.1f}  {min(r):>6.1f}..{max(r):<6.1f}  "
              f"{statistics.median(overhead[c]):>12.2f}")


if __name__ == "__main__":
    main()
