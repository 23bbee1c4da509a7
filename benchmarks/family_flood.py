"""One bot's process family flooding its own Unix socket, against the other
bots' games per second, in a real sandboxed tournament.

    python benchmarks/family_flood.py [--rounds 5] [--games 16]

The tournament: two random sample bots (``good-a``, ``good-b``) and a
third bot (``tests/arena/flooding_bot.py``) that plays as the random bot
and, in the flooding arm, first starts a child in its sandbox that keeps
2,000 silent streams at a time open to its own socket
(``Arena.listen_family``) over every connection the socket admits but the
one it plays on, each stream opened again as soon as it ends. In the quiet
arm the same bot plays the same games without the flood. The arms
alternate (quiet, flooding, quiet, ...; each round is one of each, with
the same seed), and each run is a fresh sandboxed tournament of
``games`` games per pairing, one game at a time.

The others' games/s is the number of ``good-a`` v ``good-b`` games over
the sum of their durations (each game's wall time from its first message
to its last, as stored). Beside it, the flooding bot's CPU per game of its
own, as its sandbox measured it (the flood's process is in the same
control group): what the flood itself spends while games run. The script prints each round's pair, the median
of each arm and the ratio flooding/quiet, with the median of the round
ratios (the paired figure: both arms of a round ran a few seconds apart,
under the same load from the rest of the machine). Goal: within 10%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "arena")]

from family_tournament import Arm, run_arm  # noqa: E402


def paired_runs(folder: Path, rounds: int, games: int) -> Iterator[tuple[Arm, Arm]]:
    """``rounds`` pairs (quiet, flooding), interleaved; the order within a
    round alternates so that neither arm always runs first."""
    for i in range(rounds):
        order = (False, True) if i % 2 == 0 else (True, False)
        arms = {flood: run_arm(folder / f"{i}-{'flood' if flood else 'quiet'}", flood, games) for flood in order}
        yield arms[False], arms[True]


def summary(pairs: list[tuple[Arm, Arm]]) -> dict[str, float]:
    quiet = [q.games_per_second for q, _ in pairs]
    flooding = [f.games_per_second for _, f in pairs]
    return {"quiet": statistics.median(quiet), "flooding": statistics.median(flooding),
            "paired ratio": statistics.median(f / q for q, f in zip(quiet, flooding, strict=True) if q)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per pairing in each run")
    args = parser.parse_args()
    print(f"{'round':>5} {'quiet games/s':>14} {'flooding games/s':>17} {'ratio':>6} {'others games':>13} "
          f"{'flooder cpu-ms/game':>20} {'run wall s':>12}", flush=True)
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (q, f) in enumerate(paired_runs(Path(tmp), args.rounds, args.games)):
            pairs.append((q, f))
            print(f"{i:>5} {q.games_per_second:>14.2f} {f.games_per_second:>17.2f} "
                  f"{f.games_per_second / q.games_per_second:>6.3f} {q.others_games:>6}/{f.others_games:<6} "
                  f"{1000 * q.flooder_cpu / q.flooder_games:>9.1f}/{1000 * f.flooder_cpu / f.flooder_games:<10.1f} "
                  f"{q.wall:>5.1f}/{f.wall:<6.1f}", flush=True)
    s = summary(pairs)
    print(f"median: quiet {s['quiet']:.2f} games/s, flooding {s['flooding']:.2f} games/s, "
          f"ratio of medians {s['flooding'] / s['quiet']:.3f}, median paired ratio {s['paired ratio']:.3f} "
          f"(goal: within 10%)")


if __name__ == "__main__":
    main()
