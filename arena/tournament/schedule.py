"""The round robin: every pair of bots meets ``games_per_pairing`` times.

Two ways to pair games (``Pairing``):

* duplicate: each deal is played twice with the seats swapped, so the luck
  of the deal cancels out. The second game of a pair (``after`` names the
  first) is never started before the first has ended.
* independent: every game has its own deal; the bot in seat 0 (mano in the
  first hand) alternates between the two bots.

The schedule holds no seeds: those come from the tournament secret
(``seeds.TournamentSecret``) through each game's ``deal`` label, so the
schedule itself reveals nothing and can be shown to anyone.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

NO_PAIR = -1  # pair_index of a game that is not half of a duplicate pair


class Pairing(enum.Enum):
    DUPLICATE = "duplicate"
    INDEPENDENT = "independent"


@dataclass(frozen=True)
class ScheduledGame:
    key: str  # unique and stable: what the results store and resume rely on; never shown to bots
    pairing: str  # "a|b" with the names in config order
    pair_index: int  # which duplicate pair of this pairing; NO_PAIR for independent games
    swapped: bool  # duplicate: second game of the pair, seats swapped
    bot0: str  # seat 0 (mano in the first hand)
    bot1: str
    deal: str  # label the deal seed derives from; shared by both games of a duplicate pair
    after: str | None = None  # key of the game that must have ended before this one starts


def games_in(bots: int, games_per_pairing: int) -> int:
    """How many games a round robin has, without building it."""
    return bots * (bots - 1) // 2 * games_per_pairing


def round_robin(bots: list[str], games_per_pairing: int, pairing: Pairing) -> list[ScheduledGame]:
    games: list[ScheduledGame] = []
    for a, b in combinations(bots, 2):
        label = f"{a}|{b}"
        if pairing is Pairing.DUPLICATE:
            for k in range(games_per_pairing // 2):
                deal = f"{label}#{k}"
                first, second = f"{deal}a", f"{deal}b"
                games.append(ScheduledGame(first, label, k, False, a, b, deal))
                games.append(ScheduledGame(second, label, k, True, b, a, deal, after=first))
        else:
            for k in range(games_per_pairing):
                key = f"{label}#{k}"
                p0, p1 = (a, b) if k % 2 == 0 else (b, a)
                games.append(ScheduledGame(key, label, NO_PAIR, False, p0, p1, key))
    return games
