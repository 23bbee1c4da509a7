"""Choosing when to play, against a real league (attendance_scenario.py):
a strong bot comes and goes, and a random chooser that watches the live
page stays away while it is there.

With ``attendance_seconds`` set (the organizer's choice, docs/league.md)
an absent bot the league still counts as attending is paired anyway and
forfeits those games, so the chooser's score (wins over its games,
forfeits included) is no better than when it plays when scheduled. Without
it (the control) the chooser meets the strong bot far less often: the
attack works. Each run stops at ``GAMES`` league games; the 500 games of
the chooser's own per arm are benchmarks/attendance.py's.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from attendance_scenario import gain, run

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Two cycles of 8 s: the charged chooser plays some tens of games (half of
# them forfeits), the scheduled one hundreds. On a busy machine the chooser
# starts slowly inside its short windows: an arm then plays more whole
# cycles until the chooser has the games the checks need.
CYCLES = 2
ENOUGH = 20


def test_choosing_when_to_play_gains_nothing_when_absence_is_charged(tmp_path: Path) -> None:
    # The four arms are four leagues of their own (own folder, port and
    # bots): played at once, mostly waiting on their cycles' clocks.
    arms = {"scheduled": (True, False), "chooses": (True, True), "free": (False, True),
            "free-scheduled": (False, False)}
    with ThreadPoolExecutor(len(arms)) as pool:
        runs = {name: pool.submit(run, tmp_path / name, attendance=attendance, chooses=chooses, cycles=CYCLES,
                                  at_least=ENOUGH) for name, (attendance, chooses) in arms.items()}
        scheduled, chooses, free, free_scheduled = (runs[name].result() for name in arms)
    charged_gain, charged_error = gain(chooses, scheduled)
    free_gain, free_error = gain(free, free_scheduled)
    print(f"charged: scheduled {scheduled}, chooses {chooses}; gain {charged_gain:+.3f} ± {charged_error:.3f} (95%)")
    print(f"free: scheduled {free_scheduled}, chooses {free}; gain {free_gain:+.3f} ± {free_error:.3f} (95%)")
    for arm in (scheduled, chooses, free, free_scheduled):
        assert arm.games >= ENOUGH, arm
    # The control: without attendance, the chooser meets the strong bot in a
    # much smaller share of its games than when it plays when scheduled.
    assert free_scheduled.vs_strong > 0, free_scheduled
    assert free.vs_strong / free.games < 0.6 * free_scheduled.vs_strong / max(free_scheduled.games, 1)
    # With attendance charged, it gains nothing measurable: its score is not
    # above the scheduled one's by more than the 95% interval of the difference.
    assert charged_gain < charged_error, (scheduled, chooses)
