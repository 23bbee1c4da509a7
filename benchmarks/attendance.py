"""Choosing when to play over 500 of the chooser's games: what a bot that
watches the live page and stays away while a strong bot is there gains,
with ``attendance_seconds`` set, over playing when scheduled.

    python benchmarks/attendance.py [--games 500] [--control-games 500] [--forfeit-seconds 0.2]

The league and the chooser are tests/league/attendance_scenario.py's (a real
``truco-arena serve --http``, the heuristic sample bot connected 4 s and
away 4 s, two random bots and a random chooser that polls
``/api/live.json``). Each arm runs until the chooser has ``games`` games:

- charged, scheduled: attendance on, the chooser connected all along;
- charged, chooses: attendance on, the chooser away while the strong bot is
  due or was seen in a game within 2 s;
- and, as the control, the same two without attendance, until the chooser
  has ``control-games`` games: the attack works there (a chooser that
  plays only while present takes a few minutes to get them).

Prints each arm (the chooser's games, score = wins over its games with
forfeits, forfeits, games against the strong bot, the league's games, wall
seconds), then the gain in score of choosing over scheduled play with its
95% interval. ``forfeit_seconds`` is short so that an absent bot's games
come quickly (each waits that long for it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "league")]

from attendance_scenario import Outcome, gain, run  # noqa: E402


def _row(name: str, o: Outcome) -> str:
    return (f"{name:<20} {o.games:>6} {o.score:>6.3f} {o.forfeits:>8} {o.vs_strong:>9} "
            f"{o.vs_strong / max(o.games, 1):>7.1%} {o.league_games:>7} {o.seconds:>7.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="the chooser's games per charged arm")
    parser.add_argument("--control-games", type=int, default=500, help="the chooser's games per control arm")
    parser.add_argument("--forfeit-seconds", type=float, default=0.2)
    args = parser.parse_args()
    print(f"{'arm':<20} {'games':>6} {'score':>6} {'forfeits':>8} {'v strong':>9} {'share':>7} "
          f"{'league':>7} {'wall s':>7}", flush=True)
    limit = 3600.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out: dict[str, Outcome] = {}
        for name, attendance, chooses, games in (
                ("charged, scheduled", True, False, args.games), ("charged, chooses", True, True, args.games),
                ("free, scheduled", False, False, args.control_games), ("free, chooses", False, True,
                                                                         args.control_games)):
            out[name] = run(folder / name.replace(", ", "-"), attendance, chooses, chooser_games=games,
                            forfeit_seconds=args.forfeit_seconds, limit=limit)
            print(_row(name, out[name]), flush=True)
    charged, charged_error = gain(out["charged, chooses"], out["charged, scheduled"])
    free, free_error = gain(out["free, chooses"], out["free, scheduled"])
    print(f"gain of choosing, attendance charged: {charged:+.3f} ± {charged_error:.3f} (95%, "
          f"{out['charged, chooses'].games} v {out['charged, scheduled'].games} games)")
    print(f"gain of choosing, not charged (control): {free:+.3f} ± {free_error:.3f} (95%, "
          f"{out['free, chooses'].games} v {out['free, scheduled'].games} games)")


if __name__ == "__main__":
    main()
