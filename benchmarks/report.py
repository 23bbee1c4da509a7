"""Size and build time of the HTML report (``truco-arena report``) for 100,
1,000 and 10,000 games.

Usage::

    python benchmarks/report.py [--games 100,1000,10000] [--max-games 500] [--full-up-to 1000]
                                [--variant argentino]

The games are synthetic, not played through the arena (playing 10,000 games
over gRPC takes far longer than building their report): random legal moves
(no mazo) from the engine, dealt with seeds 0..N-1, between four bots in a
round robin of duplicate-looking pairs, stored as the results store stores
them (a real SQLite file, read back with ``ResultsStore``), then the report
is built from it as the command does. Each row prints the report's size on
disk, its number of files, the build time and the time to generate the
games; with ``--max-games`` a second row per size builds the report with
that game limit (every game listed, that many replays carried). Sizes above
``--full-up-to`` get only that row: the full report costs the same per game
at every size (each game is replayed and exported once), so its figure for
10,000 games is 10 times the 1,000-game row, without spending the 20-odd
minutes of CPU it takes to build here.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from itertools import combinations
from pathlib import Path

from arena.engine import Game, Kind
from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.report import build_report

BOTS = ("alpha", "bravo", "charlie", "delta")


def synthetic_rows(n: int, variant: str) -> list[GameRecord]:
    """``n`` finished games of random legal play, as stored rows."""
    game = Game(variant)
    rng = random.Random(0)
    pairings = list(combinations(BOTS, 2))
    rows = []
    for seq in range(n):
        a, b = pairings[(seq // 2) % len(pairings)]
        first = seq % 2 == 0
        bot0, bot1 = (a, b) if first else (b, a)
        state = game.new_state(seed=seq // 2)
        actions = []
        while not state.is_terminal():
            seat = state.current_player()
            legal = [x for x in state.legal_actions() if x.kind is not Kind.MAZO] or list(state.legal_actions())
            action = rng.choice(legal)
            actions.append(f"{seat} {action}")
            state.apply(action)
        s0, s1 = state.scores
        winner_team = 0 if s0 > s1 else 1
        label = f"{a}|{b}"
        rows.append(GameRecord(
            game_key=f"{label}#{seq // 2 // len(pairings)}{'a' if first else 'b'}" + f"-{seq}", seq=seq,
            matchup=label, pair_index=seq // 2, bot0=bot0, bot1=bot1, seed=seq // 2, score0=s0,
            score1=s1, winner=(bot0, bot1)[winner_team], winner_seat=winner_team, termination=Termination.TARGET_REACHED,
            faulty_bot=None, hands=0, duration=0.1, actions=tuple(actions), reason=f"team {winner_team} won",
        ))
    return rows


def size_of(directory: Path) -> tuple[int, int]:
    files = [p for p in directory.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def measure(db: Path, out: Path, max_games: int | None) -> tuple[float, int, int]:
    if out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    with ResultsStore.open_existing(db) as store:
        config = store.get_meta("config")
        rows = list(store.games())
    build_report(rows, config, out, max_games)
    took = time.perf_counter() - t0
    size, files = size_of(out)
    return took, size, files


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="100,1000,10000", help="comma-separated game counts")
    p.add_argument("--max-games", type=int, default=500, help="the game limit of the second row (0: no such row)")
    p.add_argument("--full-up-to", type=int, default=1000, help="build the full report only up to this many games")
    p.add_argument("--variant", default="argentino")
    args = p.parse_args()
    print(f"{'games':>6} {'limit':>6} {'size MB':>9} {'files':>6} {'KB/game':>8} {'build s':>8} {'gen s':>6}")
    with tempfile.TemporaryDirectory(prefix="truco-report-bench-") as tmp:
        for n in (int(x) for x in args.games.split(",")):
            t0 = time.perf_counter()
            rows = synthetic_rows(n, args.variant)
            db = Path(tmp) / f"g{n}.sqlite"
            with ResultsStore.create_or_open(db) as store:
                store.set_meta("config", {"name": f"bench-{n}", "variant": args.variant,
                                          "bots": [{"name": b, "command": "x"} for b in BOTS]})
                store.record_together(tuple(rows))
            generated = time.perf_counter() - t0
            limits: list[int | None] = [None] if n <= args.full_up_to else []
            if args.max_games and args.max_games < n:
                limits.append(args.max_games)
            for limit in limits:
                took, size, files = measure(db, Path(tmp) / f"r{n}-{limit}", limit)
                print(f"{n:>6} {limit or 'all':>6} {size / 1e6:>9.1f} {files:>6} {size / 1e3 / n:>8.1f} "
                      f"{took:>8.1f} {generated:>6.1f}", flush=True)
            del rows


if __name__ == "__main__":
    main()
