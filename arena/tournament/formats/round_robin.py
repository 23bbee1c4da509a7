"""The round robin: every pair of bots meets ``games_per_pairing`` times,
in duplicate pairs or independent games (``Pairing``)."""

from __future__ import annotations

from itertools import combinations

from ...games.schedule import NO_PAIR, Pairing, ScheduledGame


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
                games.append(ScheduledGame(first, label, k, a, b, deal))
                games.append(ScheduledGame(second, label, k, b, a, deal, after=first))
        else:
            for k in range(games_per_pairing):
                key = f"{label}#{k}"
                p0, p1 = (a, b) if k % 2 == 0 else (b, a)
                games.append(ScheduledGame(key, label, NO_PAIR, p0, p1, key))
    return games
