"""The Swiss system: ``rounds`` rounds, each pairing bots of equal or near
score who have not met yet; the rounds after the first depend on the results.

Keys (top-level in the tournament config)::

    format = "swiss"
    rounds = 3              # from 1 to the rounds a round robin of the bots has
    games_per_pairing = 10  # the games of each pairing of a round, as in a round robin

Each pairing of a round plays ``games_per_pairing`` games, in duplicate pairs
or independent games as the config's ``pairing`` says (``matchup_games``),
keyed ``a|b#r<round>.<k>a`` (names in config order), so every deal derives
from the tournament secret like any other game's and names its round.

A bot's score is its games won in the rounds so far (a game without a winner
is half a win each; a bye is half the games of a matchup won). Round r ranks
the bots by score, ties broken by an order the tournament secret derives for
that round; with an odd count the lowest-ranked bot among those with the
fewest byes sits out; then the best-ranked bot left meets the nearest-ranked
one it has not met (fewest meetings, if every way needs a rematch).

What a bot can do with it: only its own results move its score, so throwing
games moves it down the ranking and nothing else; which bot of its new score
group it meets is drawn by the secret, unknown to it, and the secret decides
ties in a new way each round. The pairing of a round reads nothing but the
results of the rounds before it (not when games ended, nor which failed),
and a round starts only once the one before has ended. Pairings tell nothing
about a deal: deals come from the secret through the game's key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ...games.dispatch import Ranking
from ...games.schedule import Pairing, ScheduledGame
from ...games.scheduler import Scheduler, Winners
from .base import Field, Format
from .round_robin import matchup_games

# How many partial pairings a round may try before it allows one more
# meeting per pair: a rematch-free round exists or is found long before.
_SEARCH_BUDGET = 20_000


class SwissSystem(Format, frozen=True, tag="swiss"):
    """``format = "swiss"``."""

    rounds: int | None = None
    """Rounds to play: from 1 to the rounds a round robin of the bots has."""

    def check(self, field: Field, given: Collection[str]) -> None:
        bots = len(field.bots)
        if bots < 3:
            raise ValueError(f'bots: format = "swiss" needs at least three bots (two play a round robin), got {bots}')
        if self.rounds is None:
            raise ValueError('rounds: format = "swiss" needs the number of rounds')
        # At most a round robin's rounds: beyond, bots must meet again.
        most = bots - 1 + bots % 2
        if not 1 <= self.rounds <= most:
            raise ValueError(f"rounds: must be from 1 to {most}, got {self.rounds}")

    def scheduler(self, field: Field, secret: Ranking) -> Scheduler:
        assert self.rounds is not None  # check() has run
        return Swiss(field.bots, self.rounds, field.games_per_pairing, field.pairing, secret)


@dataclass(frozen=True)
class Round:
    games: tuple[ScheduledGame, ...]
    bye: str | None


def scores(bots: Sequence[str], rounds: Sequence[Round], winners: Winners, games: int) -> dict[str, int]:
    """Each bot's score in half games won (a bye: half of ``games``)."""
    half = Counter({b: 0 for b in bots})
    for r in rounds:
        if r.bye is not None:
            half[r.bye] += games
        for g in r.games:
            winner = winners[g.key]
            if winner is None:
                half[g.bot0] += 1
                half[g.bot1] += 1
            else:
                half[winner] += 2
    return dict(half)


def pair_round(ranked: Sequence[str], met: Mapping[frozenset[str], int], byes: Mapping[str, int]
               ) -> tuple[list[tuple[str, str]], str | None]:
    """The pairs of a round of ``ranked`` bots (best first) and its bye."""
    left = list(ranked)
    bye = None
    if len(left) % 2:
        fewest = min(byes.get(b, 0) for b in left)
        bye = next(b for b in reversed(left) if byes.get(b, 0) == fewest)
        left.remove(bye)
    limit = 0
    while (pairs := _pairs(left, met, limit, [_SEARCH_BUDGET])) is None:
        limit += 1
    return pairs, bye


def _pairs(left: list[str], met: Mapping[frozenset[str], int], limit: int, budget: list[int]
           ) -> list[tuple[str, str]] | None:
    """``left`` paired from the top, each with the nearest it has met at
    most ``limit`` times; None if there is no such pairing (or the search
    ran out of ``budget``)."""
    if not left:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = left[0], left[1:]
    for i, other in enumerate(rest):
        if met.get(frozenset((first, other)), 0) <= limit:
            tail = _pairs(rest[:i] + rest[i + 1:], met, limit, budget)
            if tail is not None:
                return [(first, other), *tail]
    return None


class Swiss:
    """The scheduler (``arena.games.scheduler.Scheduler``) of a Swiss system."""

    def __init__(self, bots: Sequence[str], rounds: int, games: int, pairing: Pairing, secret: Ranking) -> None:
        self.bots, self.rounds, self.games, self.pairing, self.secret = list(bots), rounds, games, pairing, secret
        self.played: list[Round] = []

    def total(self) -> int:
        return self.rounds * (len(self.bots) // 2) * self.games

    def next(self, winners: Winners) -> list[ScheduledGame]:
        if len(self.played) == self.rounds or any(g.key not in winners for r in self.played for g in r.games):
            return []
        number = len(self.played) + 1
        score = scores(self.bots, self.played, winners, self.games)
        # The label is no game's key, so the order says nothing about any game's.
        ranked = sorted(self.bots, key=lambda b: (-score[b], self.secret.order(f"swiss#r{number}#{b}")))
        met = Counter(frozenset(m.split("|")) for r in self.played for m in {g.matchup for g in r.games})
        pairs, bye = pair_round(ranked, met, Counter(r.bye for r in self.played if r.bye))
        # Pair indexes stay unique across rounds: a pair id (``a|b#i``) names one deal.
        games = tuple(g for pair in sorted(sorted(p, key=self.bots.index) for p in pairs)
                      for g in matchup_games(pair[0], pair[1], self.games, self.pairing, tag=f"r{number}.",
                                             first_pair=(number - 1) * self.games))
        self.played.append(Round(games, bye))
        return list(games)

