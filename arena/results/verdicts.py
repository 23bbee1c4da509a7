"""The verdicts of a match or gauntlet as a table: one row per opponent with
the verdict, the counts it rests on, Elo with its interval, nElo and the
LLR with its bounds. It is what ``match``, ``tournament run|resume`` of a
match and ``standings`` on a match's database print, so every view, in
every format (text, JSON, CSV), tells the same story.

The SPRT counts complete duplicate pairs only; ``not counted`` says how many
recorded games between the two are outside them (half of a pair whose twin
was interrupted or is still to play), which is why the standings, counting
every game, may show more.
"""

from __future__ import annotations

import math

from ..games.game_record import GameRecord
from ..match.monitor import MatchMonitor, OpponentStatus
from ..tournament.formats.match_plan import MatchPlan
from .tables import Cell, Table

HEADERS = ("challenger", "opponent", "verdict", "games", "pairs", "not counted", "wins", "losses",
           "pairs 2-0", "pairs 1-1", "pairs 0-2", "elo", "elo 95% low", "elo 95% high", "nelo",
           "llr", "llr lower", "llr upper")

UNCORRECTED = ("elo: the fixed-sample estimate from the complete pairs; after an SPRT stop it is not corrected "
               "for the stopping rule (biased away from the bounds' middle, interval under-covers: docs/sprt.md)")


def _finite(value: float | None, digits: int = 1) -> Cell:
    """A number for every format: JSON has no infinity, so an infinite Elo (every pair one way) is None."""
    return None if value is None or not math.isfinite(value) else round(value, digits)


def no_information(status: OpponentStatus) -> bool:
    """Pairs played, but all with the same score (every one split, say): an
    interval of width zero, which says nothing yet."""
    estimate = status.counts.elo()
    return estimate is not None and estimate.lower == estimate.upper


def _row(status: OpponentStatus) -> tuple[Cell, ...]:
    c = status.counts
    estimate = None if no_information(status) else c.elo()
    sprt = status.sprt
    return (
        status.challenger, status.opponent, status.verdict.value, c.games, c.pairs, status.recorded - c.games,
        c.wins, c.losses, c.ww, c.dd, c.ll,
        None if estimate is None else _finite(estimate.elo),
        None if estimate is None else _finite(estimate.lower),
        None if estimate is None else _finite(estimate.upper),
        _finite(c.nelo),
        None if sprt is None else round(sprt.llr, 3),
        None if sprt is None else round(sprt.bounds.lower, 3),
        None if sprt is None else round(sprt.bounds.upper, 3),
    )


def verdict_table(plan: MatchPlan, rows: list[GameRecord], run_over: bool = True) -> Table:
    """The verdicts over ``rows`` (every stored game); ``run_over``: the run ended
    (what ends a fixed-games match whose last pairs stayed incomplete)."""
    monitor = MatchMonitor(plan, rows, lambda line: None)
    statuses = monitor.statuses(run_over=run_over)
    notes = ["games, pairs: complete duplicate pairs, what the verdict rests on; not counted: recorded games "
             "outside them (half of a pair)"]
    if plan.bounds is not None:
        notes.append(UNCORRECTED)
    if any(no_information(s) for s in statuses):
        notes.append("elo empty: no information yet (every pair the same score, so no interval)")
    return Table("match", "Match verdicts" if len(plan.opponents) == 1 else "Gauntlet verdicts", HEADERS,
                 tuple(_row(s) for s in statuses), tuple(notes))
