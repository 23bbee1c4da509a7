"""A format as a scheduler: what games it plays, stage by stage.

A ``Scheduler`` gives the games of its next stage once every game it gave
before has ended, given the winner of every recorded game; a format whose
games are all known from the start (round robin, match, gauntlet) is one
stage (``Fixed``), a Swiss system one stage a round. ``total`` bounds the
games it will ever give (for progress). ``Stages`` numbers the games in the
order the scheduler gives them (their seq, the same on every run), leaves
out those already recorded, and skips stages that resume finds complete.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .schedule import ScheduledGame

Item = tuple[int, ScheduledGame]  # (position in the schedule, game)
Winners = Mapping[str, str | None]  # game key -> the winner's name (None: no winner), for recorded games


class Scheduler(Protocol):
    def total(self) -> int:
        """The games this format plays at most."""
        ...

    def next(self, winners: Winners) -> list[ScheduledGame]:
        """The games of the next stage, recorded or not; [] when there is
        none (the format is over, or a game of the last stage has no result)."""
        ...


class Fixed:
    """A format whose games are all known from the start: one stage."""

    def __init__(self, games: Sequence[ScheduledGame]) -> None:
        self._games: Sequence[ScheduledGame] | None = games
        self._total = len(games)

    def total(self) -> int:
        return self._total

    def next(self, winners: Winners) -> list[ScheduledGame]:
        games, self._games = self._games or (), None
        return list(games)


class Stages:
    """Feeds a dispatcher from ``scheduler``; ``winners`` is updated by whoever
    records the games (``won``)."""

    def __init__(self, scheduler: Scheduler, winners: Winners) -> None:
        self.scheduler = scheduler
        self.winners = dict(winners)
        self.given = 0  # games the scheduler has given so far

    def todo(self) -> list[Item]:
        """The unrecorded games of the next stage that has any; [] when the format is over."""
        while stage := self.scheduler.next(self.winners):
            items = [(self.given + i, g) for i, g in enumerate(stage) if g.key not in self.winners]
            self.given += len(stage)
            if items:
                return items
        return []

    @property
    def all_known(self) -> bool:
        """Whether every game of the format has been given (nothing depends on results)."""
        return self.given >= self.scheduler.total()

    def won(self, game_key: str, winner: str | None) -> None:
        self.winners[game_key] = winner
