"""A scheduled game: what a tournament, a match or a league plays and records.

Two ways to pair games (``Pairing``):

* duplicate: each deal is played twice with the seats swapped, so the luck
  of the deal cancels out. The second game of a pair (``after`` names the
  first) is never started before the first has ended.
* independent: every game has its own deal; the bot in seat 0 (mano in the
  first hand) alternates between the two bots.

A schedule holds no seeds: those come from the secret
(``seeds.TournamentSecret``) through each game's ``deal`` label, so the
schedule itself reveals nothing and can be shown to anyone. The formats that
make schedules are in ``arena/tournament/formats`` (round robin, match,
gauntlet, Swiss: schedulers, ``scheduler.py``) and ``arena/league/keys.py``
(a league's matches).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

NO_PAIR = -1  # pair_index of a game that is not half of a duplicate pair


class Pairing(enum.Enum):
    DUPLICATE = "duplicate"
    INDEPENDENT = "independent"


@dataclass(frozen=True)
class ScheduledGame:
    key: str
    """Unique and stable: what the results store and resume rely on; never shown to bots."""
    matchup: str
    """"a|b": the two bots, names in config order (stored as the column ``matchup``)"""
    pair_index: int
    """Which duplicate pair of this matchup; NO_PAIR for independent games."""
    bot0: str
    """Seat 0 (mano in the first hand)"""
    bot1: str
    deal: str
    """Label the deal seed derives from; shared by both games of a duplicate pair."""
    after: str | None = None
    """Key of the game that must have ended before this one starts."""
