"""One complete two-seat game in each variant."""

from __future__ import annotations

from arena.engine.options import VARIANTS

from ..check import COMPLETE_GAME, Check, Finding, failed, judge_game
from ..context import CannotPlayError, CheckContext


def _variant_check(variant: str, bot_team: int) -> Check:
    name = f"game-{variant}"

    async def run(ctx: CheckContext) -> Finding:
        try:
            record = await ctx.play(name, ctx.seats_for(2, bot_team), variant)
        except CannotPlayError as exc:
            return failed(COMPLETE_GAME, str(exc))
        return judge_game(ctx, record)

    return Check(name, f"plays a complete 2-seat {variant} game", run)


# The bot sits in seat 0 (mano first) in one game and seat 1 in the next.
VARIANT_CHECKS = tuple(_variant_check(v, i % 2) for i, v in enumerate(VARIANTS))
