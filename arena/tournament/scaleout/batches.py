"""Batches: the unit of work a worker is given.

A batch is a list of units; a unit goes to one worker whole: both halves of
a duplicate pair, or a single game. Units go out in an order derived from
the tournament secret; inside the worker a ``Dispatcher`` hands the games
out as on a single arena (the second half only after the first ended)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ...games.orders import GameOrder, order_of
from ...games.schedule import ScheduledGame
from ...games.seeds import TournamentSecret

Unit = tuple[GameOrder, ...]


@dataclass(frozen=True)
class Batch:
    number: int
    units: tuple[Unit, ...]

    @property
    def keys(self) -> list[str]:
        return [o.game.key for unit in self.units for o in unit]

    def only(self, keep: Callable[[GameOrder], bool]) -> Batch | None:
        """This batch with only the games ``keep`` wants (e.g. those not yet
        settled, of a batch whose worker was lost); None when none is left."""
        units = tuple(u for u in (tuple(o for o in unit if keep(o)) for unit in self.units) if u)
        return Batch(self.number, units) if units else None

    def __len__(self) -> int:
        return sum(len(u) for u in self.units)


def units_of(todo: Iterable[tuple[int, ScheduledGame]], secret: TournamentSecret, seats: int) -> list[Unit]:
    """Group the games left to play into units: a pair's second half joins
    its first when both are left; otherwise every game is a unit alone.
    A game that waits on another pair (a match's window, ``match_plan.py``)
    is a unit of its own: on workers, whole pairs going out one by one keep
    the pairs complete that the window keeps complete on one arena."""
    todo = list(todo)
    deals = {g.key: g.deal for _, g in todo}

    def second_half(game: ScheduledGame) -> bool:
        return game.after is not None and deals.get(game.after) == game.deal

    seconds = {g.after: (seq, g) for seq, g in todo if second_half(g)}
    units: list[Unit] = []
    for seq, game in todo:
        if second_half(game):
            continue  # goes with its first half
        unit = [order_of(seq, game, secret, seats)]
        if game.key in seconds:
            unit.append(order_of(*seconds[game.key], secret, seats))
        units.append(tuple(unit))
    units.sort(key=lambda u: secret.order(u[0].game.key))
    return units


def batches_of(units: list[Unit], units_per_batch: int, first: int = 0) -> list[Batch]:
    """``units`` in batches of ``units_per_batch``, numbered from ``first``."""
    size = max(1, units_per_batch)
    return [Batch(first + i, tuple(units[k:k + size])) for i, k in enumerate(range(0, len(units), size))]
