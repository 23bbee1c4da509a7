"""Stored rows as the ratings' inputs: the one conversion every table,
league fit and report uses."""

from __future__ import annotations

from collections.abc import Sequence

from ..ratings import GameRecord
from ..ratings.records import RecordError
from .store import GameRow


def to_records(rows: Sequence[GameRow]) -> list[GameRecord]:
    """The rating inputs of stored rows; RecordError names a row that contradicts itself."""
    records = []
    for r in rows:
        try:
            records.append(GameRecord(
                bot_a=r.bot0,
                bot_b=r.bot1,
                winner=r.winner,
                termination=r.termination,
                loser_fault=r.faulty_bot,
                pair_id=r.pair_id,
                game_id=r.game_id,
                reason=r.reason,
                cpu_a=r.cpu0,
                cpu_b=r.cpu1,
                fallbacks_a=r.fallbacks0,
                fallbacks_b=r.fallbacks1,
            ))
        except RecordError as exc:
            raise RecordError(f"game {r.game_key}: {exc}") from None
    return records
