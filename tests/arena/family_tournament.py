"""The family flood tournament (benchmarks/family_flood.py and
test_family_flood.py): a real sandboxed tournament of two random sample
bots (``good-a``, ``good-b``) and flooding_bot.py, which in the flooding
arm holds a flood of silent streams on its own socket through every game,
and in the quiet arm plays the same games without it."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from arena.run import Tournament
from arena.tournament.config import parse_config

HERE = Path(__file__).resolve().parent
FLOODING_BOT = HERE
OTHERS = ("good-a", "good-b")


@dataclass(frozen=True)
class Arm:
    """One run of the tournament."""

    flood: bool
    others_games: int  # good-a v good-b games played to the target
    others_seconds: float  # the sum of their durations
    flooder_games: int  # games of the flooding bot played to the target
    wall: float  # the whole run, sandbox start included
    flooder_cpu: float  # CPU seconds its sandbox measured over its own games (the flood's process included)

    @property
    def games_per_second(self) -> float:
        """The others' games per second of their own games' wall time."""
        return self.others_games / self.others_seconds if self.others_seconds else 0.0


REPORT_SLACK = 1.5  # seconds: the flood counts once a second
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
    # The flood counts every second until the bot is stopped after the last
    # game; a flood that died early stops counting (and leaves its traceback).
    if flood and (last_count < max(r.finished_at for r in rows) - REPORT_SLACK
                  or "Traceback" in log.read_text(errors="replace")):
        raise RuntimeError(f"the flood was not running until the last game: {log}")
    finished = [r for r in rows if r.termination.value == "target_reached"]
    others = [r for r in finished if {r.bot0, r.bot1} == set(OTHERS)
              and r.finished_at - r.duration >= flood_start + RAMP]
    flooders = [r for r in finished if "flooder" in (r.bot0, r.bot1)]
    cpu = sum((r.cpu0 if r.bot0 == "flooder" else r.cpu1) or 0.0 for r in flooders)
    return Arm(flood, len(others), sum(r.duration for r in others), len(flooders), wall, cpu)
