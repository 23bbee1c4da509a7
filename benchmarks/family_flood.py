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
to its last, as stored). The script prints each round's pair, the median
of each arm and the ratio flooding/quiet, with the median of the round
ratios (the paired figure: both arms of a round ran a few seconds apart,
under the same load from the rest of the machine). Goal: within 10%.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from arena.run import Tournament  # noqa: E402
from arena.tournament.config import parse_config  # noqa: E402

FLOODING_BOT = REPO / "tests" / "arena"
OTHERS = ("good-a", "good-b")


@dataclass(frozen=True)
class Arm:
    """One run of the tournament."""

    flood: bool
    others_games: int  # good-a v good-b games played to the target
    others_seconds: float  # the sum of their durations
    flooder_games: int  # games of the flooding bot played to the target
    wall: float  # the whole run, sandbox start included

    @property
    def games_per_second(self) -> float:
        """The others' games per second of their own games' wall time."""
        return self.others_games / self.others_seconds if self.others_seconds else 0.0


RAMP = 1.0  # seconds from the flood's start to the first game counted (the bot waits longer before its hello)


def _flood_log(log: Path) -> tuple[float, float]:
    """When the flood started (or would have), and the time of its last count (0: none)."""
    start, last = None, 0.0
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith(("flood at ", "no flood at ")):
            start = float(line.rsplit(" ", 1)[1])
        elif line.startswith("{"):
            last = float(json.loads(line)["time"])
    if start is None:
        raise RuntimeError(f"the flooding bot did not start: {log}")
    return start, last


def run_arm(folder: Path, flood: bool, games: int, seed: int = 7) -> Arm:
    """Play the tournament once into ``folder`` (a fresh folder). Only the
    others' games begun ``RAMP`` seconds after the flood's start count (in
    the quiet arm, after the time the flood would have started)."""
    folder.mkdir(parents=True)
    random_bot = ["python", "-m", "sample_bots.random_bot"]
    config = parse_config({
        "variant": "uruguayo", "games_per_pairing": games, "concurrency": 1, "workers": 1, "seed": seed,
        "start_seconds": 120,  # a busy machine starts sandboxes slowly
        "options": {"target": 15}, "time_control": {"move_seconds": 2.0, "bank_seconds": 10.0},
        "bots": [*({"name": n, "command": random_bot} for n in OTHERS),
                 {"name": "flooder", "command": ["python", "flooding_bot.py"], "dir": str(FLOODING_BOT),
                  "env": {"FLOOD": "1" if flood else "0"}}],
    }, base=folder)
    start = time.perf_counter()
    rows = Tournament.run(config, folder / "results.sqlite", new=True).rows
    wall = time.perf_counter() - start
    log = folder / "results-logs" / "flooder.log"
    flood_start, last_count = _flood_log(log)
    if flood and last_count < max(r.finished_at for r in rows):
        raise RuntimeError(f"the flood was not running until the last game: {log}")
    finished = [r for r in rows if r.termination.value == "target_reached"]
    others = [r for r in finished if {r.bot0, r.bot1} == set(OTHERS)
              and r.finished_at - r.duration >= flood_start + RAMP]
    return Arm(flood, len(others), sum(r.duration for r in others),
               sum(1 for r in finished if "flooder" in (r.bot0, r.bot1)), wall)


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
          f"{'run wall s':>12}", flush=True)
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (q, f) in enumerate(paired_runs(Path(tmp), args.rounds, args.games)):
            pairs.append((q, f))
            print(f"{i:>5} {q.games_per_second:>14.2f} {f.games_per_second:>17.2f} "
                  f"{f.games_per_second / q.games_per_second:>6.3f} {q.others_games:>6}/{f.others_games:<6} "
                  f"{q.wall:>5.1f}/{f.wall:<6.1f}", flush=True)
    s = summary(pairs)
    print(f"median: quiet {s['quiet']:.2f} games/s, flooding {s['flooding']:.2f} games/s, "
          f"ratio of medians {s['flooding'] / s['quiet']:.3f}, median paired ratio {s['paired ratio']:.3f} "
          f"(goal: within 10%)")


if __name__ == "__main__":
    main()
