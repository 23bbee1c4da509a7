"""The round robin: every pair of bots meets ``games_per_pairing`` times,
in duplicate pairs or independent games (``Pairing``). ``matchup_games``
(the games of one matchup: two bots) serves the other formats too."""

from __future__ import annotations

from itertools import combinations

from ...games.dispatch import Ranking
from ...games.schedule import NO_PAIR, Pairing, ScheduledGame
from ...games.scheduler import Fixed, Scheduler
from .base import Field, Format


def games_in(bots: int, games_per_pairing: int) -> int:
    """How many games a round robin has, without building it."""
    return bots * (bots - 1) // 2 * games_per_pairing


def matchup_games(a: str, b: str, games: int, pairing: Pairing, tag: str = "", first_pair: int = 0,
                  window: int = 0, alternate: bool = True) -> list[ScheduledGame]:
    """The games of ``a`` (first in config order) against ``b``: keys
    ``a|b#<tag>k`` (independent) or ``a|b#<tag>ka``/``kb`` (duplicate pair k,
    both on deal ``a|b#<tag>k``). With ``window``, pair k's first game waits
    for pair k - window's second (``windowed``). Independent games alternate
    ``a`` and ``b`` in seat 0 unless ``alternate`` is False (``a`` keeps it)."""
    label = f"{a}|{b}"
    out: list[ScheduledGame] = []
    if pairing is Pairing.DUPLICATE:
        for k in range(games // 2):
            deal = f"{label}#{tag}{k}"
            first, second = f"{deal}a", f"{deal}b"
            wait = f"{label}#{tag}{k - window}b" if window and k >= window else None
            out.append(ScheduledGame(first, label, first_pair + k, a, b, deal, after=wait))
            out.append(ScheduledGame(second, label, first_pair + k, b, a, deal, after=first))
    else:
        for k in range(games):
            key = f"{label}#{tag}{k}"
            p0, p1 = (a, b) if k % 2 == 0 or not alternate else (b, a)
            out.append(ScheduledGame(key, label, NO_PAIR, p0, p1, key))
    return out


def round_robin(bots: list[str], games_per_pairing: int, pairing: Pairing, alternate: bool = True
                ) -> list[ScheduledGame]:
    return [g for a, b in combinations(bots, 2)
            for g in matchup_games(a, b, games_per_pairing, pairing, alternate=alternate)]


class RoundRobin(Format, frozen=True, tag="round_robin"):
    """``format = "round_robin"`` (the default): no keys of its own."""

    def scheduler(self, field: Field, secret: Ranking) -> Scheduler:
        return Fixed(round_robin(list(field.bots), field.games_per_pairing, field.pairing, field.alternate_seats))
