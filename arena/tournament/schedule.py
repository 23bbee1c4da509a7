"""Round robin in duplicate pairs: every pair of bots meets; each deal seed is
played twice with the seats swapped so the luck of the deal cancels out."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .seeds import derive


@dataclass(frozen=True)
class ScheduledGame:
    key: str  # unique and stable: what the results store and resume rely on
    pairing: str  # "a|b" with the names in config order
    pair_index: int  # which duplicate pair of this pairing
    swapped: bool  # second game of the pair: seats swapped
    bot0: str  # seat 0 (mano in the first hand)
    bot1: str
    seed: int  # deal seed, shared by both games of a pair

    @property
    def pair_id(self) -> str:
        return f"{self.pairing}#{self.pair_index}"


def round_robin(bots: list[str], games_per_pairing: int, master_seed: int) -> list[ScheduledGame]:
    games: list[ScheduledGame] = []
    for a, b in combinations(bots, 2):
        pairing = f"{a}|{b}"
        for k in range(games_per_pairing // 2):
            seed = derive(master_seed, pairing, k)
            for swapped, (p0, p1) in enumerate(((a, b), (b, a))):
                key = f"{pairing}#{k}{'b' if swapped else 'a'}"
                games.append(ScheduledGame(key, pairing, k, bool(swapped), p0, p1, seed))
    return games
