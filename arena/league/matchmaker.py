"""Which pairs of bots play next: a pure function of who is free, how often
each pair has met, and the ratings. No I/O, no clock, no randomness.

Order of preference (docs/league.md):

1. the pairs with the fewest games between them (games running included);
2. among those, the closest ratings;
3. then the names, so the choice is reproducible.

Two bots of one owner are never paired: a second entrant that loses to the
first on purpose would otherwise feed it rating. Two absent bots are never
paired either (an absent entrant is one the league still counts as
attending, whose games forfeit: ``attendance_seconds``).

A bot plays as many games at once as it has free streams for (a team game
takes one stream per seat of its team). A pair is *overdue* when it is at
least ``max_gap`` games behind the most-played pair of either of its bots;
an overdue pair that cannot start now (one bot is busy, or held for a
pair further behind) holds the free streams of its bots, so those streams are not handed to other pairs and the
pair starts as soon as both are free. That is what bounds how long any pair
waits: no pair is starved however the games' lengths fall.

A hold never makes a bot wait for a much slower game than its own: the free
streams of a bot are held for a partner only when the partner's soonest
running game moves at most ``SLACK`` times slower than the bot itself (its
``pace``, seconds per move). Otherwise the bot keeps playing, and it is the
slow partner whose free streams are held, the next time it is free, until
the fast bot's short game ends. So a slow bot, or one with few streams,
costs the others no more than the games it plays itself, and its own pairs
still start in order of fewest games.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Pair = tuple[str, str]  # two bot names, sorted
SLACK = 4.0  # a bot is held for a partner whose game moves at most this many times slower than it
FLOOR = 0.005  # seconds per move under which every bot counts as equally fast (network latency)


def pair_of(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A connected bot as the matchmaker sees it."""

    name: str
    free_streams: int
    """Connected streams not in a league game now."""
    rating: float
    """Elo; 1500 for a bot without games."""
    pace: float = 0.0
    """Seconds the bot takes per move (its recent games)"""
    wait: float = 0.0
    """Seconds per move of the bot's soonest-ending running game (the slower of its two bots); 0
    when it has none: how long a hold for it would last.
    """
    owner: str = ""
    """Who entered it ('' for the bot itself): two bots of one owner never meet."""
    present: bool = True
    """Connected now; an absent entrant is paired with present ones only."""


@dataclass(frozen=True, slots=True)
class Round:
    """What one scheduling round decided."""

    start: tuple[Pair, ...]
    """Pairs to start a game (or duplicate pair) now, in order."""
    held: frozenset[str]
    """Bots whose free streams wait for an overdue pair."""


def pick(
    entrants: Sequence[Entrant],
    games: Mapping[Pair, int],
    *,
    streams_per_game: int,
    capacity: int,
    max_gap: int,
) -> Round:
    """The pairs to start now. ``games[pair]``: games the pair has played or
    is playing (a missing pair has none); ``capacity``: how many more games
    may start league-wide; ``streams_per_game``: streams a bot needs for one."""
    if streams_per_game < 1 or max_gap < 1:
        raise ValueError("streams_per_game and max_gap must be at least 1")
    by_name = {e.name: e for e in entrants}
    names = sorted(by_name)
    owner = {e.name: e.owner or e.name for e in entrants}
    played = {pair_of(a, b): games.get(pair_of(a, b), 0) for i, a in enumerate(names) for b in names[i + 1:]
              if owner[a] != owner[b] and (by_name[a].present or by_name[b].present)}
    busiest = dict.fromkeys(names, 0)
    for (a, b), n in played.items():
        busiest[a] = max(busiest.get(a, 0), n)
        busiest[b] = max(busiest.get(b, 0), n)
    free = {e.name: e.free_streams for e in entrants}
    heap = [(n, abs(by_name[a].rating - by_name[b].rating), a, b) for (a, b), n in played.items()]
    heapq.heapify(heap)
    start: list[Pair] = []
    held: set[str] = set()
    while heap and len(start) < capacity:
        n, gap, a, b = heapq.heappop(heap)
        overdue = n + max_gap <= min(busiest[a], busiest[b])
        if a not in held and b not in held and free[a] >= streams_per_game and free[b] >= streams_per_game:
            start.append((a, b))
            free[a] -= streams_per_game
            free[b] -= streams_per_game
            heapq.heappush(heap, (n + 1, gap, a, b))  # it may meet again this round, behind the others
        elif overdue:
            # Keep both bots' free streams for this pair, even when one of them
            # is held for a pair further behind: otherwise the other bot's
            # streams go to fresh games and the two may never be free together.
            # Except for a bot whose partner is in a much slower game: that
            # bot plays on, and the partner waits for it instead.
            # Unless the pair is twice overdue: then it waits for the slow game
            # too, or two bots that take turns in slow games could never meet.
            urgent = n + 2 * max_gap <= min(busiest[a], busiest[b])
            held.update(x for x, y in ((a, b), (b, a)) if urgent or _worth_waiting(by_name[x], by_name[y]))
    return Round(tuple(start), frozenset(held))


def _worth_waiting(bot: Entrant, partner: Entrant) -> bool:
    """Whether ``bot``'s free streams may wait for ``partner``: the partner's
    running game is not much slower than the games ``bot`` plays."""
    return partner.wait <= SLACK * max(bot.pace, FLOOR)
