"""Choosing when to play, against a real league (``truco-arena serve
--http``): a strong bot (the heuristic sample bot) is connected for
``PERIOD`` seconds, away for as long, and so on; two weak bots and a
chooser (random bots) play throughout. The chooser watches the live page
(``/api/live.json``, polled every 0.1 s) and has learnt the strong bot's
hours: while the strong bot is due, or has been seen in a game within the
last ``WARY`` seconds, its process is stopped, and started again after.
The same league run with the chooser connected all along is what it would
get by playing when scheduled.

Shared by tests/league/test_league_attendance.py (the mechanism and its
control, a few whole cycles a run) and benchmarks/attendance.py (500 of the
chooser's own games an arm, the figure with its interval).
"""

from __future__ import annotations

import json
import math
import time
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path

from league_harness import League, free_port, wait_until

from arena.games.game_record import GameRecord

PERIOD = 4.0  # seconds the strong bot is connected, then away
WARY = 2.0  # seconds after the strong bot was last seen in a game that the chooser stays away
CONFIG = """
concurrency = 4
forfeit_seconds = {forfeit}
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
    league_games: int = 0  # every game of the run
    seconds: float = 0.0  # the run's wall time

    @property
    def error(self) -> float:
        """The standard error of ``score``."""
        return math.sqrt(max(self.score * (1 - self.score), 0.01) / max(self.games, 1))


def gain(chooses: Outcome, scheduled: Outcome) -> tuple[float, float]:
    """What choosing gains in score over playing when scheduled, and the
    half-width of its 95% interval."""
    return chooses.score - scheduled.score, 1.96 * math.hypot(chooses.error, scheduled.error)


def outcome(rows: list[GameRecord], seconds: float = 0.0) -> Outcome:
    mine = [r for r in rows if "chooser" in (r.bot0, r.bot1)]
    wins = sum(1 for r in mine if r.winner == "chooser")
    return Outcome(len(mine), wins / max(len(mine), 1),
                   sum(1 for r in mine if "strong" in (r.bot0, r.bot1)),
                   sum(1 for r in mine if r.winner is not None and r.winner != "chooser"
                       and r.termination.value == "absent"), len(rows), seconds)


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


def _chooser_rows(rows: list[GameRecord]) -> list[GameRecord]:
    return [r for r in rows if "chooser" in (r.bot0, r.bot1)]


def run(workdir: Path, attendance: bool, chooses: bool, *, league_games: int | None = None,
        chooser_games: int | None = None, cycles: int | None = None, at_least: int = 0,
        forfeit_seconds: float = 0.5, limit: float = 600) -> Outcome:
    """One league run until it holds ``league_games`` games, until the
    chooser has played ``chooser_games`` (the first of them counted), or for
    ``cycles`` whole cycles of the strong bot's hours (every game of them
    counted: the same share of time with and without the strong bot,
    however fast the machine plays), and then more whole cycles until the
    chooser has ``at_least`` games (a busy machine starts it slowly, and its
    windows are short); AssertionError after ``limit`` seconds."""
    assert sum(x is not None for x in (league_games, chooser_games, cycles)) == 1
    whole = cycles or 0  # cycles to play, grown while the chooser has too few games
    workdir.mkdir()
    league = League(workdir, CONFIG.format(forfeit=forfeit_seconds,
                                           attendance="attendance_seconds = 600" if attendance else ""))
    http = free_port()
    league.serve_args = ("--http", f"127.0.0.1:{http}")
    tokens = {name: league.token(name) for name in ("strong", "weak1", "weak2", "chooser")}

    def done(rows: list[GameRecord]) -> bool:
        nonlocal whole
        if cycles is not None:
            if time.monotonic() - start < whole * 2 * PERIOD:
                return False
            if len(_chooser_rows(league.rows())) >= at_least:
                return True
            whole += 1
            return False
        return len(rows) >= league_games if league_games is not None else \
            len(_chooser_rows(rows)) >= (chooser_games or 0)

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
        while not done(rows):
            now = time.monotonic()
            assert now - start < limit, f"only {len(rows)} games ({len(_chooser_rows(rows))} of the chooser) " \
                                        f"in {limit:g} s"
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
        seconds = time.monotonic() - start
        if cycles is not None:
            return outcome(league.rows(), seconds)
        if league_games is not None:
            return outcome(rows[:league_games], seconds)
        return replace(outcome(_chooser_rows(rows)[:chooser_games], seconds), league_games=len(rows))
    finally:
        league.close()
