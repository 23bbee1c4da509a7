"""Complete duplicate pairs of the challenger against each opponent, counted
game by game as they are recorded.

A pair counts once both of its games are in: the first half waits in
``pending`` until its twin arrives, so a half pair (its twin interrupted,
skipped or not yet played) is never counted. Fed every stored row in any
order, the counts equal ``PairCounts.from_records`` over the same rows; fed
the rows of a live run one by one, they stay equal to it after every game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..games.game_record import GameRecord
from ..ratings.sprt import PairCounts


@dataclass
class PairTally:
    challenger: str
    opponent: str
    counts: PairCounts = PairCounts()
    pending: dict[str, bool] = field(default_factory=dict)
    """Pair id -> did the challenger win its recorded half."""
    recorded: int = 0
    """Games between the two, in complete pairs or not."""

    def add(self, row: GameRecord) -> bool:
        """Count ``row`` (a game between the two bots); True if it completed a pair."""
        self.recorded += 1
        pair_id = row.pair_id
        if pair_id is None or row.winner is None:
            return False  # not half of a pair, or undecided: the pair can never be complete
        won = row.winner == self.challenger
        first = self.pending.pop(pair_id, None)
        if first is None:
            self.pending[pair_id] = won
            return False
        self.counts = self.counts.with_pair((int(first) + int(won)) / 2)
        return True


def opponent_of(row: GameRecord, challenger: str) -> str | None:
    """The challenger's opponent in ``row``; None if the challenger did not play it."""
    if row.bot0 == challenger:
        return row.bot1
    if row.bot1 == challenger:
        return row.bot0
    return None


def tally_rows(challenger: str, opponents: Iterable[str], rows: Iterable[GameRecord]) -> dict[str, PairTally]:
    """Tallies for every opponent from ``rows`` (e.g. the whole store)."""
    tallies = {o: PairTally(challenger, o) for o in opponents}
    for row in rows:
        opponent = opponent_of(row, challenger)
        if opponent in tallies:
            tallies[opponent].add(row)
    return tallies
