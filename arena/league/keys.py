"""The names of a league's games. A league has no schedule: each match gets
the next number of a counter kept in the results database, taken before the
match starts, so a number is never used twice, even across a kill -9 (a
reused number would replay a deal a bot has already seen part of).

A match is one game (independent pairing) or a duplicate pair: two games
on one deal with the seats swapped. A league game is a scheduled game
(``arena.games.schedule``), as a tournament's. Keys are never shown to bots; bots see
the opaque game id the league secret derives from the key.
"""

from __future__ import annotations

from ..games.schedule import NO_PAIR, ScheduledGame
from .matchmaker import Pair

# One game of a match: its seq in the store (the order games are read in, the
# start order) and the game.
MatchGame = tuple[int, ScheduledGame]


def match_games(number: int, pair: Pair, duplicate: bool, swap_first: bool) -> tuple[MatchGame, ...]:
    """The games of match ``number`` between ``pair``. ``swap_first`` puts the
    pair's second name in seat 0 of an independent game (to alternate)."""
    a, b = pair
    label = f"{a}|{b}"
    deal = f"league#{number}"
    if duplicate:
        return (
            (2 * number, ScheduledGame(f"{label}#m{number}a", label, number, a, b, deal)),
            (2 * number + 1, ScheduledGame(f"{label}#m{number}b", label, number, b, a, deal,
                                           after=f"{label}#m{number}a")),
        )
    first, second = (b, a) if swap_first else (a, b)
    return ((2 * number, ScheduledGame(f"{label}#m{number}", label, NO_PAIR, first, second, deal)),)
