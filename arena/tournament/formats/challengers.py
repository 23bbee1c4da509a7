"""``format = "challengers"``: several new bots, each against every bot of an
established field, and not against each other; a gauntlet for each
challenger at once, with a round robin's games.

Keys (top-level in the tournament config)::

    format = "challengers"
    challengers = ["new-a", "new-b"]   # the others are the field
    games_per_pairing = 10             # games of each challenger against each bot of the field

Each pairing plays ``games_per_pairing`` games in duplicate pairs or
independent games as ``pairing`` says, keyed and dealt as in a round robin
(``a|b#k``, names in config order), so its games read the same in every view.
"""

from __future__ import annotations

from collections.abc import Collection

from ...games.dispatch import Ranking
from ...games.scheduler import Fixed, Scheduler
from .base import Field, Format
from .round_robin import matchup_games


class Challengers(Format, frozen=True, tag="challengers"):
    """Every challenger against every bot that is not one."""

    challengers: tuple[str, ...] = ()
    """The challengers' names; every other bot is the field."""

    def check(self, field: Field, given: Collection[str]) -> None:
        if not self.challengers:
            raise ValueError('challengers: format = "challengers" needs the names of one or more challengers')
        for name in self.challengers:
            if name not in field.bots:
                raise ValueError(f"challengers: expected names of the bots ({', '.join(field.bots)}), got {name!r}")
        if len(set(self.challengers)) != len(self.challengers):
            raise ValueError("challengers: a bot is named twice")
        if len(self.challengers) == len(field.bots):
            raise ValueError("challengers: every bot is a challenger; leave at least one as the field")

    def scheduler(self, field: Field, secret: Ranking) -> Scheduler:
        bots = field.bots
        pairs = sorted({tuple(sorted((c, o), key=bots.index)) for c in self.challengers for o in bots
                        if o not in self.challengers}, key=lambda p: (bots.index(p[0]), bots.index(p[1])))
        return Fixed([g for a, b in pairs for g in matchup_games(a, b, field.games_per_pairing, field.pairing)])
