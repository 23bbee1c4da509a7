"""The names of a league's games. A league has no schedule: each match gets
the next number of a counter kept in the results database, taken before the
match starts, so a number is never used twice, even across a kill -9 (a
reused number would replay a deal a bot has already seen part of).

A match is one game (independent pairing) or a duplicate pair: two games
on one deal with the seats swapped. Keys are never shown to bots; bots see
the opaque game id the league secret derives from the key.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tournament.schedule import NO_PAIR
from .matchmaker import Pair


@dataclass(frozen=True, slots=True)
class LeagueGame:
    key: str  # the store's game_key: unique across the league's life
    seq: int  # the store's seq: the order games are read in (start order)
    pairing: str  # "a|b", names sorted
    pair_index: int  # the match number for a duplicate pair; NO_PAIR for an independent game
    bot0: str  # the bot of team 0 (seat 0, mano in the first hand)
    bot1: str
    deal: str  # the label the deal seed derives from; shared by a duplicate pair's two games


def match_games(number: int, pair: Pair, duplicate: bool, swap_first: bool) -> tuple[LeagueGame, ...]:
    """The games of match ``number`` between ``pair``. ``swap_first`` puts the
    pair's second name in seat 0 of an independent game (to alternate)."""
    a, b = pair
    label = f"{a}|{b}"
    deal = f"league#{number}"
    if duplicate:
        return (
            LeagueGame(f"{label}#m{number}a", 2 * number, label, number, a, b, deal),
            LeagueGame(f"{label}#m{number}b", 2 * number + 1, label, number, b, a, deal),
        )
    first, second = (b, a) if swap_first else (a, b)
    return (LeagueGame(f"{label}#m{number}", 2 * number, label, NO_PAIR, first, second, deal),)


def seats_of(game: LeagueGame, seats: int) -> tuple[str, ...]:
    """The bot of each seat: seat s plays for team s % 2, each team one bot."""
    return tuple(game.bot0 if s % 2 == 0 else game.bot1 for s in range(seats))
