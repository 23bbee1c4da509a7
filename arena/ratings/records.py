"""The one input of the ratings package: finished games, as the results
store keeps them (``arena.games.game_record.GameRecord``)."""

from __future__ import annotations

from collections.abc import Iterable

from ..games.game_record import GameRecord


def decided(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The games that have a winner, in input order (the only ones that rate)."""
    return [r for r in records if r.winner is not None]


def bots_of(records: Iterable[GameRecord]) -> tuple[str, ...]:
    """Every bot named as a player in ``records``, sorted by name."""
    names: set[str] = set()
    for r in records:
        names.add(r.bot0)
        names.add(r.bot1)
    return tuple(sorted(names))
