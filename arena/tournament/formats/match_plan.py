"""The formats that pit a challenger against each opponent in duplicate
pairs, for a fixed number of games or until an SPRT decides:
``format = "match"`` and ``format = "gauntlet"``.

Keys (all top-level in the tournament config)::

    format = "match"                # or "gauntlet"
    sprt = { elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05 }   # until the SPRT decides...
    games = 200                     # ...or a fixed number of games per opponent (even)
    max_games = 20000               # SPRT safety cap per opponent (even)
    challenger = "new"              # gauntlet: the bot that meets every other (default: the first)

A match has exactly two bots and the first is the challenger (bot A of the
SPRT). Every problem is a ``ValueError`` whose message starts with the key,
which the config turns into its ``ConfigError``. A run follows the resolved
``MatchPlan`` (challenger, opponents, bounds, games).

The schedule: duplicate pairs of the challenger against each opponent,
released a few at a time.

The runner hands out free games first, in the secret order. With every pair
of a 20,000-game cap free from the start, a match would play thousands of
first halves before completing a single pair, and an SPRT counts complete
pairs only. So each opponent's pairs form ``window`` chains through ``after``:
pair k's first game waits for pair k - window's second game, and as in a
round robin the second game of a pair waits for its first. At most ``window``
pairs per opponent are open at once, the games of different chains still go
out in the secret order, and a stop leaves at most ``window`` half pairs.

Keys and deal labels are those of a round robin (``a|b#k`` and ``a|b#ka``/
``a|b#kb``, names in config order), so the stored games read the same in
every view and the deals derive from the tournament secret as usual.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

import msgspec

from ...games.dispatch import Ranking
from ...games.schedule import Pairing, ScheduledGame
from ...games.scheduler import Fixed, Scheduler
from ...ratings.sprt import SprtBounds, SprtModel
from .base import Field, Format
from .round_robin import matchup_games

# An SPRT rarely needs more: [0, 5] Elo at a split rate of 0.3 averages about
# 17,900 pairs (docs/sprt.md). The cap only bounds a test whose true Elo sits
# between elo0 and elo1 for ever; the schedule holds this many games in memory.
DEFAULT_MAX_GAMES = 20_000
MAX_GAMES = 1_000_000
MAX_TOTAL_GAMES = 10_000_000  # the schedule is built in memory, as for a round robin
_SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


@dataclass(frozen=True)
class MatchPlan:
    """What a match or gauntlet follows, resolved from its format and bots."""

    challenger: str
    """Bot A of every SPRT."""
    opponents: tuple[str, ...]
    bounds: SprtBounds | None
    """The SPRT's; None: a fixed number of games."""
    games: int
    """Per opponent: the fixed count, or the cap of the SPRT."""

    @property
    def pairs(self) -> int:
        return self.games // 2


class Sprt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The ``sprt`` table: the bounds of each opponent's SPRT (``SprtBounds``)."""

    elo0: float
    """The Elo difference of H0."""
    elo1: float
    """The Elo difference of H1, above elo0."""
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""
    model: str = SprtModel.LOGISTIC.value
    """How Elo is read: ``"logistic"`` or ``"normalized"`` (checked by ``SprtBounds``)."""

    def __post_init__(self) -> None:
        self.bounds()

    def bounds(self) -> SprtBounds:
        try:
            return SprtBounds(self.elo0, self.elo1, self.alpha, self.beta, self.model)  # type: ignore[arg-type]  # SprtBounds turns a name into its model
        except ValueError as exc:
            # SprtBounds' messages start with the field they are about.
            message = str(exc)
            key = next((k for k in _SPRT_KEYS if message.startswith(k)), None)
            raise ValueError(f"{key}: {message}" if key else message) from None


class Windowed(Format, frozen=True):
    """A challenger's duplicate pairs against each opponent."""

    uses_games_per_pairing: ClassVar[bool] = False
    sprt: Sprt | None = None
    """Play until each opponent's SPRT decides (or ``max_games``)..."""
    games: int | None = None
    """...or this many games per opponent (even: duplicate pairs)."""
    max_games: int | None = None
    """The SPRT's cap of games per opponent (even); default 20,000."""

    def challenger_of(self, bots: Sequence[str]) -> str:
        raise NotImplementedError

    def check(self, field: Field, given: Collection[str]) -> None:
        name = self.name()
        if "games_per_pairing" in given:
            raise ValueError(f'games_per_pairing: not used by format = "{name}"; give games or sprt')
        if field.pairing is not Pairing.DUPLICATE:
            raise ValueError(f'pairing: format = "{name}" plays duplicate pairs; set pairing = "duplicate"')
        if (self.sprt is None) == (self.games is None):
            raise ValueError(f'sprt, games: format = "{name}" needs exactly one of them')
        if self.sprt is None and self.max_games is not None:
            raise ValueError("max_games: only with sprt (games is already a fixed count)")
        key = "games" if self.sprt is None else "max_games"
        games = self.per_opponent
        if games % 2 or not 2 <= games <= MAX_GAMES:
            raise ValueError(f"{key}: must be an even number of games (duplicate pairs) from 2 to {MAX_GAMES}, "
                             f"got {games}")
        if games * (len(field.bots) - 1) > MAX_TOTAL_GAMES:
            raise ValueError(f"{key}: {games} games for each of {len(field.bots) - 1} opponents is more than the "
                             f"{MAX_TOTAL_GAMES} a run may schedule")

    @property
    def per_opponent(self) -> int:
        """Games per opponent: the fixed count, or the cap of the SPRT."""
        if self.games is not None:
            return self.games
        return DEFAULT_MAX_GAMES if self.max_games is None else self.max_games

    def plan(self, bots: Sequence[str]) -> MatchPlan:
        """What a run follows, for the config's ``bots`` in order."""
        challenger = self.challenger_of(bots)
        return MatchPlan(challenger, tuple(b for b in bots if b != challenger),
                         None if self.sprt is None else self.sprt.bounds(), self.per_opponent)

    def scheduler(self, field: Field, secret: Ranking) -> Scheduler:
        return Fixed(match_schedule(self.plan(field.bots), field.bots, field.concurrency))


class Match(Windowed, frozen=True, tag="match"):
    """``format = "match"``: two bots, the first the challenger."""

    def check(self, field: Field, given: Collection[str]) -> None:
        super().check(field, given)
        if len(field.bots) != 2:
            raise ValueError(f'bots: format = "match" needs exactly two bots, got {len(field.bots)}')

    def challenger_of(self, bots: Sequence[str]) -> str:
        return bots[0]


class Gauntlet(Windowed, frozen=True, tag="gauntlet"):
    """``format = "gauntlet"``: one challenger against every other bot."""

    challenger: str | None = None
    """The bot that meets every other; default: the first."""

    def check(self, field: Field, given: Collection[str]) -> None:
        super().check(field, given)
        if self.challenger is not None and self.challenger not in field.bots:
            raise ValueError(f"challenger: expected the name of one of the bots ({', '.join(field.bots)}), "
                             f"got {self.challenger!r}")

    def challenger_of(self, bots: Sequence[str]) -> str:
        return bots[0] if self.challenger is None else self.challenger


def window_for(concurrency: int) -> int:
    """Pairs open per opponent: enough to keep every stream busy, and a few
    more so that the order of the games stays hard to predict."""
    return max(4, 2 * concurrency)


def match_schedule(plan: MatchPlan, bot_order: Sequence[str], concurrency: int) -> list[ScheduledGame]:
    """The games of ``plan`` in windows of pairs (``bot_order``: the config's)."""
    games: list[ScheduledGame] = []
    for opponent in plan.opponents:
        a, b = sorted((plan.challenger, opponent), key=bot_order.index)
        games += matchup_games(a, b, plan.games, Pairing.DUPLICATE, window=window_for(concurrency))
    return games
