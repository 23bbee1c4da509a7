"""The ceiling of scaling out: how many finished games per second one
coordinator can take in, with no game played. Each game arrives as a worker
sends it (a JSON frame, decoded and checked here) and is written to a real SQLite
results file, one commit per game or grouped as the coordinator does
(every ``--group-ms``).

    python benchmarks/coordinator.py [--games 3000] [--actions 150] [--runs 3]

Medians over the runs; wall and CPU per game, and games per second.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.tournament.scaleout.frames import FROM_WORKER, MAX_REPORT, encode, read_frame


def rows(n: int, actions: int) -> list[GameRecord]:
    return [GameRecord(game_key=f"a|b#{i}a", seq=i, matchup="a|b", pair_index=i, bot0="a", bot1="b",
                    seed=i, score0=30, score1=17, winner="a", winner_seat=0, termination=Termination.TARGET_REACHED,
                    faulty_bot=None, hands=14, duration=0.4, actions=tuple(f"play {i % 40}" for i in range(actions)),
                    finished_at=1.0 + i)
            for i in range(n)]


async def take_in(data: bytes, n: int, db: Path, group: int) -> None:
    reader = asyncio.StreamReader(limit=2**20)
    reader.feed_data(data)
    reader.feed_eof()
    with ResultsStore.create_or_open(db) as store:
        pending: list[GameRecord] = []
        for _ in range(n):
            pending.append(await read_frame(reader, FROM_WORKER, MAX_REPORT))
            if len(pending) >= group:
                store.record_together(tuple(pending))
                pending.clear()
        if pending:
            store.record_together(tuple(pending))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--actions", type=int, default=150, help="actions per game (a long uruguayo game has ~150)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--groups", default="1,20,100", help="games per commit, comma-separated")
    args = ap.parse_args()
    data = b"".join(encode(r) for r in rows(args.games, args.actions))
    groups = [int(g) for g in args.groups.split(",")]
    wall: dict[int, list[float]] = {g: [] for g in groups}
    cpu: dict[int, list[float]] = {g: [] for g in groups}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            for g in groups:
                t0, c0 = time.perf_counter(), time.process_time()
                asyncio.run(take_in(data, args.games, Path(tmp) / f"{run}-{g}.sqlite", g))
                wall[g].append((time.perf_counter() - t0) / args.games)
                cpu[g].append((time.process_time() - c0) / args.games)
    print(f"{args.games} games of {args.actions} actions ({len(data) // args.games} bytes a frame), "
          f"{args.runs} runs, medians")
    print(f"{'games/commit':>12}  {'wall ms/game':>12}  {'CPU ms/game':>11}  {'games/s':>8}")
    for g in groups:
        w = statistics.median(wall[g])
        print(f"{g:>12}  {1000 * w:>12.3f}  {1000 * statistics.median(cpu[g]):>11.3f}  {1 / w:>8.0f}")


if __name__ == "__main__":
    main()
