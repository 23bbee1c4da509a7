"""Choosing when to play, against a real league (``truco-arena serve
--http``): a strong bot (the heuristic sample bot) is connected for
``PERIOD`` seconds, away for as long, and so on; two weak bots and a
chooser (random bots) play throughout. The chooser watches the live page
(``/api/live.json``, polled every 0.1 s) and has learnt the strong bot's
hours: while the strong bot is due, or has been seen in a game within the
last ``WARY`` seconds, its process is stopped, and started again after. The same league run with the chooser
connected all along is what it would get by playing when scheduled.

With ``attendance_seconds`` set (the organizer's choice, docs/league.md)
an absent bot the league still counts as attending is paired anyway and
forfeits those games, so the chooser's score (wins over games, forfeits
included) is no better than when it plays when scheduled. Without it (the
control) the chooser meets the strong bot far less often: the attack works.
Each run stops at ``GAMES`` games.
"""

from __future__ import annotations

import json
import math
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from league_harness import League, free_port, wait_until

from arena.games.game_record import GameRecord

pytestmark = [pytest.mark.integration, pytest.mark.slow]

GAMES = 500
PERIOD = 4.0  # seconds the strong bot is connected, then away
WARY = 2.0  # seconds after the strong bot was last seen in a game that the chooser stays away
CONFIG = """
concurrency = 4
forfeit_seconds = 0.5
{attendance}
[options]
target = 6

[time_control]
move_seconds = 2.0
bank_seconds = 2.0
"""


@dataclass(frozen=True)
class Outcome:
    games: int  # the chooser's games, forfeits included
    score: float  # its wins over its games
    vs_strong: int  # its games against the strong bot, forfeits included
    forfeits: int  # games it forfeited

    @property
    def error(self) -> float:
        """The standard error of ``score``."""
        return math.sqrt(max(self.score * (1 - self.score), 0.01) / max(self.games, 1))


def _outcome(rows: list[GameRecord]) -> Outcome:
    mine = [r for r in rows if "chooser" in (r.bot0, r.bot1)]
    wins = sum(1 for r in mine if r.winner == "chooser")
    return Outcome(len(mine), wins / max(len(mine), 1),
                   sum(1 for r in mine if "strong" in (r.bot0, r.bot1)),
                   sum(1 for r in mine if r.winner is not None and r.winner != "chooser"
                       and r.termination.value == "absent"))


def _strong_in_a_game(http: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/live.json", timeout=5) as page:
        live = json.load(page)
    return any("strong" in game["bots"] for game in live["games"])


def _page_up(http: int) -> bool:
    try:
        _strong_in_a_game(http)
    except OSError:
        return False
    return True


def _run(workdir: Path, attendance: bool, chooses: bool) -> Outcome:
    workdir.mkdir()
    league = League(workdir, CONFIG.format(attendance="attendance_seconds = 600" if attendance else ""))
    http = free_port()
    league.serve_args = ("--http", f"127.0.0.1:{http}")
    tokens = {name: league.token(name) for name in ("strong", "weak1", "weak2", "chooser")}
    try:
        league.start()
        wait_until(lambda: _page_up(http), 30, "the live page")
        for name in ("weak1", "weak2"):
            league.bot(name, tokens[name])
        strong = chooser = None
        seen = -math.inf  # when the strong bot was last seen in a game
        start = time.monotonic()
        rows: list[GameRecord] = []
        last_count = 0.0
        while len(rows) < GAMES:
            now = time.monotonic()
            assert now - start < 600, f"only {len(rows)} games in 600 s"
            strong_due = int((now - start) // PERIOD) % 2 == 0
            if strong_due and (strong is None or strong.poll() is not None):
                strong = league.bot("strong", tokens["strong"], module="sample_bots.heuristic")
            elif not strong_due and strong is not None and strong.poll() is None:
                strong.kill()
                strong.wait(10)
            if chooses and _strong_in_a_game(http):
                seen = now
            # It has learnt the strong bot's hours too: it leaves a second
            # before the strong bot is due and comes back once it is gone.
            due_soon = int((now + 1.0 - start) // PERIOD) % 2 == 0
            wanted = not chooses or (not strong_due and not due_soon and now - seen > WARY)
            if wanted and (chooser is None or chooser.poll() is not None):
                chooser = league.bot("chooser", tokens["chooser"])
            elif not wanted and chooser is not None and chooser.poll() is None:
                chooser.kill()
                chooser.wait(10)
            if now - last_count > 1.0:
                last_count = now
                rows = league.rows()
            time.sleep(0.1)
        return _outcome(rows[:GAMES])
    finally:
        league.close()


def test_choosing_when_to_play_gains_nothing_when_absence_is_charged(tmp_path: Path) -> None:
    scheduled = _run(tmp_path / "scheduled", attendance=True, chooses=False)
    chooses = _run(tmp_path / "chooses", attendance=True, chooses=True)
    free = _run(tmp_path / "free", attendance=False, chooses=True)
    free_scheduled = _run(tmp_path / "free-scheduled", attendance=False, chooses=False)
    gain = chooses.score - scheduled.score
    error = math.hypot(chooses.error, scheduled.error)
    free_gain = free.score - free_scheduled.score
    print(f"charged: scheduled {scheduled}, chooses {chooses}; gain {gain:+.3f} ± {1.96 * error:.3f} (95%)")
    print(f"free: scheduled {free_scheduled}, chooses {free}; gain {free_gain:+.3f} "
          f"± {1.96 * math.hypot(free.error, free_scheduled.error):.3f} (95%)")
    # The control: without attendance, the chooser meets the strong bot in a
    # much smaller share of its games than when it plays when scheduled
    # , and plays far fewer games.
    assert free.vs_strong / max(free.games, 1) < 0.6 * free_scheduled.vs_strong / max(free_scheduled.games, 1)
    # With attendance charged, it gains nothing measurable: its score is not
    # above the scheduled one's by more than the 95% interval of the difference.
    assert gain < 1.96 * error, (scheduled, chooses)
