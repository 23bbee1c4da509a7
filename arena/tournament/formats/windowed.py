"""The schedule of a match or gauntlet: duplicate pairs of the challenger
against each opponent, released a few at a time.

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

from collections.abc import Sequence

from ...games.schedule import Pairing, ScheduledGame
from .match_plan import MatchPlan
from .round_robin import pairing_games


def window_for(concurrency: int) -> int:
    """Pairs open per opponent: enough to keep every stream busy, and a few
    more so that the order of the games stays hard to predict."""
    return max(4, 2 * concurrency)


def match_schedule(plan: MatchPlan, bot_order: Sequence[str], concurrency: int) -> list[ScheduledGame]:
    games: list[ScheduledGame] = []
    for opponent in plan.opponents:
        a, b = sorted((plan.challenger, opponent), key=bot_order.index)
        games += pairing_games(a, b, plan.games, Pairing.DUPLICATE, window=window_for(concurrency))
    return games
